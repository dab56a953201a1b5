package org.gridcache.systemtest;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * HTTP third-party copy as FTS does it, over HTTPS with grid security: {@code gridcache standalone} over HTTPS (in
 * front of a writable nginx origin) and, as the remote, Apache + mod_gridsite from gridenv, which requires a client
 * certificate and lets any authenticated user write {@code w/}. {@code Credential: gridsite} makes the pool present
 * a proxy of the user's delegation to the remote; without a delegation the door answers 401 with
 * {@code X-Delegate-To}, on which gfal2 (davix) delegates and repeats the COPY.
 */
@Timeout(value = 10, unit = TimeUnit.MINUTES)
class ThirdPartyCopyHttpsTest {
    static final String GACL = """
            <?xml version="1.0"?>
            <gacl version="0.0.1">
            <entry><auth-user/><allow><read/><list/><write/></allow></entry>
            </gacl>
            """;
    @TempDir
    static Path tmp;
    static Path pkiParent;
    static Path pki;
    static Path remoteData;
    static Path data;
    static GridEnv.Origin remote;
    static NginxOrigin origin;
    static Standalone gridcache;
    static String door;

    @BeforeAll
    static void start() throws Exception {
        Tools.require("curl", "nginx", "apache2", "openssl", "grid-proxy-init", "voms-proxy-fake");
        pkiParent = GridEnv.worldReadableDir("gridcache-test-pki");
        pki = GridEnv.pki(pkiParent.resolve("pki"));
        remoteData = GridEnv.worldReadableDir("gridcache-tpc-remote");
        Path w = Files.createDirectories(remoteData.resolve("w"));
        Files.writeString(w.resolve(".gacl"), GACL);
        Tools.randomFile(w.resolve("src.bin"), 1_200_000, 61);
        Tools.randomFile(w.resolve("gfal-src.bin"), 1_300_000, 62);
        Tools.randomFile(w.resolve("push-src.bin"), 900_000, 63);
        Tools.run(Duration.ofMinutes(1), "chmod", "-R", "a+rX", remoteData.toString()).assertOk();
        Tools.run(Duration.ofMinutes(1), "chmod", "a+rwx", w.toString()).assertOk(); // Apache's workers write there
        remote = GridEnv.Origin.start(pki, remoteData);
        data = Files.createDirectories(tmp.resolve("data"));
        origin = NginxOrigin.startWritable(tmp.resolve("nginx"), data);
        Path policy = Files.writeString(tmp.resolve("authz.conf"), "authenticated / list,read,write\n");
        gridcache = Standalone.startHttps(Files.createDirectories(tmp.resolve("gc")), origin.url(), pki, "--authz", policy.toString());
        door = gridcache.door();
        Gridcache.allowTpcTo(gridcache::admin, "127.0.0.1,::1", gridcache::output, 2); // the remote is on loopback
        // Apache's w/ also mounted as an origin read with the user's own credential
        gridcache.admin("origins", "add", "grid", "--prefix", "/grid", "--url", remote.url() + "/w", "--credential", "user").assertOk();
        Tools.await("the door to show /grid", Duration.ofSeconds(30), () -> GridEnv.curlAs(pki, "alice", "-sS", "-X", "PROPFIND",
                "-H", "Depth: 1", door + "/").out().contains("/grid"));
    }

    @AfterAll
    static void stop() throws Exception {
        Tools.closeAll(remote, origin, gridcache);
        for (Path dir : new Path[] {pkiParent, remoteData}) {
            if (dir != null) {
                Tools.run(Duration.ofMinutes(1), "rm", "-rf", dir.toString());
            }
        }
    }

    private static String remote(String path) {
        return remote.url() + path;
    }

    @Test
    void gridsiteWithoutADelegationIs401WithXDelegateTo() {
        GridEnv.withoutDelegation(pki, door, "bob");
        Tools.Result r = GridEnv.curlAs(pki, "bob", "-sS", "-X", "COPY", "-H", "Source: " + remote("/w/src.bin"),
                "-H", "Credential: gridsite", door + "/bob.bin");
        assertEquals(401, GridEnv.lastStatus(r), r.out());
        assertTrue(r.out().contains("X-Delegate-To: " + door + "/.gridcache/delegation"), r.out());
        assertFalse(Files.exists(data.resolve("bob.bin")));
    }

    @Test
    void curlPullsAsAliceWithHerProxyAndWithoutItTheRemoteRefusesThePool() throws Exception {
        GridEnv.delegated(pki, door, "alice");
        Tools.Result r = GridEnv.curlAs(pki, "alice", "-sS", "-L", "-X", "COPY", "-H", "Source: " + remote("/w/src.bin"),
                "-H", "Credential: gridsite", "-H", "RequireChecksumVerification: false", door + "/alice.bin");
        assertEquals("success: Created", lastLine(r.out()), r.out());
        assertEquals(Tools.sha256(remoteData.resolve("w/src.bin")), Tools.sha256(data.resolve("alice.bin")), "byte-exact");
        assertTrue(remote.accessLog().lines().anyMatch(l -> l.contains("GET /w/src.bin") && l.contains("CN=Alice")),
                "the pool presented Alice's proxy: " + remote.accessLog());

        Tools.Result none = GridEnv.curlAs(pki, "alice", "-sS", "-L", "-X", "COPY", "-H", "Source: " + remote("/w/src.bin"),
                "-H", "Credential: none", "-H", "RequireChecksumVerification: false", door + "/anon.bin");
        assertTrue(lastLine(none.out()).startsWith("failure: cannot GET from the remote " + remote.url()), none.out());
        assertFalse(Files.exists(data.resolve("anon.bin")));
    }

    /** A push from an origin read as the user: the pool reads it as Alice (her permission first), then PUTs it. */
    @Test
    void aPushFromAnOriginReadAsAliceIsFetchedAsHer() throws Exception {
        GridEnv.delegated(pki, door, "alice");
        Tools.Result r = GridEnv.curlAs(pki, "alice", "-sS", "-L", "-X", "COPY", "-H", "Destination: " + origin.url() + "from-grid.bin",
                "-H", "Credential: none", "-H", "RequireChecksumVerification: false", door + "/grid/push-src.bin");
        assertEquals("success: Created", lastLine(r.out()), r.out());
        assertEquals(Tools.sha256(remoteData.resolve("w/push-src.bin")), Tools.sha256(data.resolve("from-grid.bin")), "byte-exact");
        assertTrue(remote.accessLog().lines().anyMatch(l -> l.contains("GET /w/push-src.bin") && l.contains("CN=Alice")),
                "the pool read the origin as Alice: " + remote.accessLog());
    }

    @Test
    void gfalCopyDelegatesOnXDelegateToAndPullsAndPushesAsAlice() throws Exception {
        Tools.require("gfal-copy");
        GridEnv.withoutDelegation(pki, door, "alice");
        List<String> env = List.of("env", "GFAL_PYTHONBIN=/usr/bin/python3", "X509_USER_PROXY=" + pki.resolve("proxies/alice.pem"),
                "X509_CERT_DIR=" + pki.resolve("certificates"));
        Tools.Result pull = Tools.run(Duration.ofMinutes(2), concat(env, "gfal-copy", "-v", "--copy-mode", "pull",
                remote("/w/gfal-src.bin"), door + "/gfal-alice.bin"));
        assertEquals(0, pull.exit(), pull.out() + pull.err());
        assertEquals(Tools.sha256(remoteData.resolve("w/gfal-src.bin")), Tools.sha256(data.resolve("gfal-alice.bin")));
        assertTrue(gridcache.output().contains("COPY /gfal-alice.bin by /DC=org/DC=example/CN=Alice"), "through the door");

        Tools.Result push = Tools.run(Duration.ofMinutes(2), concat(env, "gfal-copy", "-v", "--copy-mode", "push",
                door + "/gfal-alice.bin", remote("/w/gfal-pushed.bin")));
        assertEquals(0, push.exit(), push.out() + push.err());
        assertEquals(Tools.sha256(data.resolve("gfal-alice.bin")), Tools.sha256(remoteData.resolve("w/gfal-pushed.bin")));
        assertTrue(remote.accessLog().lines().anyMatch(l -> l.contains("PUT /w/gfal-pushed.bin") && l.contains("CN=Alice")),
                "the pool PUT with Alice's proxy: " + remote.accessLog());
    }

    /** Alice's macaroon for the whole namespace, as her POST's answer holds it. */
    private static String aliceMacaroon(String body) throws Exception {
        Path answer = tmp.resolve("macaroon.json");
        Tools.Result r = GridEnv.curlAs(pki, "alice", "-X", "POST", "-H", "Content-Type: application/macaroon-request",
                "--data-binary", body, "-o", answer.toString(), door + "/");
        assertEquals(200, GridEnv.lastStatus(r), r.out());
        return new com.fasterxml.jackson.databind.ObjectMapper().readTree(Files.readString(answer)).get("macaroon").asText();
    }

    /** curl with no certificate, the macaroon in its header. */
    private static Tools.Result withMacaroon(String macaroon, String... more) {
        List<String> args = new java.util.ArrayList<>(List.of("--capath", pki.resolve("certificates").toString(), "-D", "-",
                "-H", "Authorization: Bearer " + macaroon));
        args.addAll(List.of(more));
        return Tools.curl(args.toArray(String[]::new));
    }

    /**
     * Issue 39 rows 2 and 11: Alice's macaroon names her DN, yet its holder (no certificate) may not have a pool
     * present her delegated proxy to a remote ({@code Credential: gridsite}), nor have the door or a pool read or list
     * an origin mounted {@code --credential user} as her: 403 with the reason, and the remote never sees her. Only a
     * macaroon she asked for with the caveat {@code credential:gridsite} may; its copy's transfer record and the
     * door's log line name the macaroon.
     */
    @Test
    void aMacaroonActsWithAlicesDelegationOnlyWhenSheGrantedIt() throws Exception {
        GridEnv.delegated(pki, door, "alice");
        Path source = Tools.randomFile(remoteData.resolve("w/mac-src.bin"), 700_000, 64);
        Tools.run(Duration.ofMinutes(1), "chmod", "a+r", source.toString()).assertOk();
        String plain = aliceMacaroon("{\"caveats\": [\"activity:DOWNLOAD,UPLOAD,LIST\"]}");
        Tools.Result copy = withMacaroon(plain, "-sS", "-L", "-X", "COPY", "-H", "Source: " + remote("/w/mac-src.bin"),
                "-H", "Credential: gridsite", "-H", "RequireChecksumVerification: false", door + "/mac.bin");
        assertEquals(403, GridEnv.lastStatus(copy), copy.out());
        assertTrue(copy.out().contains("a macaroon may use only when minted with the caveat credential:gridsite"), copy.out());
        Tools.Result read = withMacaroon(plain, door + "/grid/src.bin");
        assertEquals(403, GridEnv.lastStatus(read), read.out());
        assertTrue(read.out().contains("credential:gridsite") && !read.out().contains("Location:"), "no ticket: " + read.out());
        Tools.Result list = withMacaroon(plain, "-X", "PROPFIND", "-H", "Depth: 1", door + "/grid/");
        assertEquals(403, GridEnv.lastStatus(list), list.out());
        Tools.Result push = withMacaroon(plain, "-X", "COPY", "-H", "Destination: " + origin.url() + "mac-push.bin",
                "-H", "Credential: none", door + "/grid/push-src.bin");
        assertEquals(403, GridEnv.lastStatus(push), "a push from an origin read as Alice: " + push.out());
        assertFalse(Files.exists(data.resolve("mac.bin")) || Files.exists(data.resolve("mac-push.bin")), "nothing written");
        assertFalse(remote.accessLog().contains("/w/mac-src.bin"), "the remote never saw Alice's proxy: " + remote.accessLog());

        String granted = aliceMacaroon("{\"caveats\": [\"activity:DOWNLOAD,UPLOAD,LIST\", \"credential:gridsite\"]}");
        String id = com.github.nitram509.jmacaroons.MacaroonsBuilder.deserialize(granted).identifier;
        Tools.Result pull = withMacaroon(granted, "-sS", "-L", "-X", "COPY", "-H", "Source: " + remote("/w/mac-src.bin"),
                "-H", "Credential: gridsite", "-H", "RequireChecksumVerification: false", door + "/mac.bin");
        assertEquals("success: Created", lastLine(pull.out()), pull.out());
        assertEquals(Tools.sha256(source), Tools.sha256(data.resolve("mac.bin")), "byte-exact");
        assertTrue(remote.accessLog().lines().anyMatch(l -> l.contains("GET /w/mac-src.bin") && l.contains("CN=Alice")), remote.accessLog());
        Path transfers = gridcache.home().resolve("logs/transfers.jsonl");
        Tools.await("the copy's transfer record naming the macaroon", Duration.ofSeconds(30), 
                () -> Tools.readLog(transfers).lines().anyMatch(l -> l.contains("\"path\":\"/mac.bin\"")
                        && l.contains("\"authn\":\"macaroon " + id + "\"")));
        assertTrue(gridcache.output().contains("via macaroon " + id + ": third-party pull from"), gridcache.output());
    }

    private static String[] concat(List<String> head, String... tail) {
        List<String> all = new java.util.ArrayList<>(head);
        all.addAll(List.of(tail));
        return all.toArray(String[]::new);
    }

    private static String lastLine(String body) {
        List<String> lines = body.strip().lines().toList();
        return lines.isEmpty() ? "" : lines.get(lines.size() - 1);
    }
}
