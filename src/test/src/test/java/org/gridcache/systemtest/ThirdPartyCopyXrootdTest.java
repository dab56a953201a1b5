package org.gridcache.systemtest;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 39 row 7 against the remote that showed it: XRootD keeps the identity a macaroon gave a connection for the
 * requests that follow on it. Alice pulls her private file from XRootD with her XRootD macaroon
 * ({@code TransferHeaderAuthorization}); right after, Bob asks for the same file with no credential for the remote.
 * A pool that reused Alice's connection would get it as Alice; on a connection of its own Bob's copy is refused.
 * The DOMA-TPC smoke test's macaroon pull and push spell the scheme {@code bearer}, which XRootD 5.5 does not take;
 * a push XRootD refuses is reported with XRootD's status.
 */
@Timeout(value = 10, unit = TimeUnit.MINUTES)
class ThirdPartyCopyXrootdTest {
    @TempDir
    static Path tmp;
    static Path pkiParent;
    static Path pki;
    static Path data;
    static Path remoteDir;
    static NginxOrigin origin;
    static XrootdRemote xrootd;
    static Standalone gridcache;
    static String door;

    @BeforeAll
    static void start() throws Exception {
        Tools.require("curl", "nginx", "openssl", "grid-proxy-init", "voms-proxy-fake", "xrootd", "ip");
        pkiParent = GridEnv.worldReadableDir("gridcache-test-pki");
        pki = GridEnv.pki(pkiParent.resolve("pki"));
        remoteDir = GridEnv.worldReadableDir("gridcache-xrootd");
        Tools.randomFile(Files.createDirectories(remoteDir.resolve("data/private")).resolve("alice.bin"), 300_000, 81);
        Files.createDirectories(remoteDir.resolve("data/public"));
        Path upload = Files.createDirectories(remoteDir.resolve("data/upload"));
        xrootd = XrootdRemote.start(remoteDir);
        Tools.run(java.time.Duration.ofMinutes(1), "chown", "nobody", upload.toString()).assertOk(); // xrootd writes as nobody
        data = Files.createDirectories(tmp.resolve("data"));
        origin = NginxOrigin.startWritable(tmp.resolve("nginx"), data);
        Path policy = Files.writeString(tmp.resolve("authz.conf"), "authenticated / list,read,write\n");
        gridcache = Standalone.startHttps(Files.createDirectories(tmp.resolve("gc")), origin.url(), pki, "--authz", policy.toString());
        door = gridcache.door();
        // the remote storage is on a private address here: the site lists it
        Gridcache.allowTpcTo(gridcache::admin, xrootd.address(), gridcache::output, 2);
    }

    @AfterAll
    static void stop() throws Exception {
        Tools.closeAll(gridcache, origin, xrootd);
        for (Path dir : new Path[] {pkiParent, remoteDir}) {
            if (dir != null) {
                Tools.run(java.time.Duration.ofMinutes(1), "rm", "-rf", dir.toString());
            }
        }
    }

    private static String outcome(Tools.Result r) {
        List<String> lines = r.out().lines().filter(l -> !l.isBlank()).toList();
        return lines.isEmpty() ? "" : lines.get(lines.size() - 1);
    }

    @Test
    void aCopyWithoutCredentialAfterAnotherUsersMacaroonCopyIsRefused() throws Exception {
        String source = "Source: " + xrootd.url("/private/alice.bin");
        Tools.Result alice = GridEnv.curlAs(pki, "alice", "-sS", "-L", "-X", "COPY", "-H", source, "-H", "Credential: none",
                "-H", "TransferHeaderAuthorization: Bearer " + xrootd.macaroon("alice", "/private", "DOWNLOAD,READ_METADATA"),
                "-H", "RequireChecksumVerification: false", door + "/alice.bin").assertOk();
        assertEquals("success: Created", outcome(alice), alice.out());
        assertEquals(Tools.sha256(remoteDir.resolve("data/private/alice.bin")), Tools.sha256(data.resolve("alice.bin")));

        Tools.Result bob = GridEnv.curlAs(pki, "bob", "-sS", "-L", "-X", "COPY", "-H", source, "-H", "Credential: none",
                "-H", "RequireChecksumVerification: false", door + "/bob.bin").assertOk();
        assertTrue(outcome(bob).startsWith("failure: the remote answered GET with "), "XRootD refused Bob: " + bob.out());
        assertFalse(Files.exists(data.resolve("bob.bin")), "Bob got nothing");
        assertTrue(xrootd.log().contains("deny http *@"), "XRootD judged Bob anonymous: " + xrootd.log());
    }

    /**
     * Issue 42 item 3, the DOMA-TPC smoke test against XRootD: its pull and push pass the remote's macaroon as
     * {@code TransferHeaderAuthorization: bearer …}; the pool sends it as {@code Authorization: Bearer …}, the one
     * spelling XRootD 5.5 accepts (it refused the pull with 500 and reset the push's connection).
     */
    @Test
    void aMacaroonWithTheSchemeInLowerCasePullsAndPushes() throws Exception {
        Tools.Result pull = GridEnv.curlAs(pki, "alice", "-sS", "-L", "-X", "COPY", "-H", "Source: " + xrootd.url("/private/alice.bin"),
                "-H", "Credential: none", "-H", "TransferHeaderAuthorization: bearer " + xrootd.macaroon("alice", "/private", "DOWNLOAD,READ_METADATA"),
                door + "/lower.bin").assertOk();
        assertEquals("success: Created", outcome(pull), pull.out());
        assertEquals(Tools.sha256(remoteDir.resolve("data/private/alice.bin")), Tools.sha256(data.resolve("lower.bin")));

        Tools.Result push = GridEnv.curlAs(pki, "alice", "-sS", "-L", "-X", "COPY", "-H", "Destination: " + xrootd.url("/upload/pushed.bin"),
                "-H", "Credential: none", "-H", "TransferHeaderAuthorization: bearer " + xrootd.macaroon("alice", "/upload", "UPLOAD,READ_METADATA"),
                door + "/lower.bin").assertOk();
        assertEquals("success: Created", outcome(push), push.out());
        assertEquals(Tools.sha256(data.resolve("lower.bin")), Tools.sha256(remoteDir.resolve("data/upload/pushed.bin")));
    }

    /**
     * A push that XRootD refuses (no token for it) says so: the remote's 403, not a connection reset after the first
     * few hundred kilobytes of the body (XRootD answers 403 and closes while the body is still going); nothing is
     * left at the remote.
     */
    @Test
    void aPushTheRemoteRefusesReportsItsStatus() throws Exception {
        Tools.randomFile(data.resolve("refused.bin"), 3_000_000, 82);
        Tools.Result push = GridEnv.curlAs(pki, "alice", "-sS", "-L", "-X", "COPY", "-H", "Destination: " + xrootd.url("/upload/refused.bin"),
                "-H", "Credential: none", door + "/refused.bin").assertOk();
        assertEquals("failure: the remote answered PUT with 403", outcome(push), push.out());
        assertFalse(Files.exists(remoteDir.resolve("data/upload/refused.bin")), "nothing at the remote");
    }
}
