package org.gridcache.systemtest;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.github.nitram509.jmacaroons.MacaroonsBuilder;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Macaroons as dCache issues them (issue 13 item 3): the distribution's zk, pool and two doors as HTTPS processes with
 * gridenv's host credential, an nginx WebDAV origin at {@code /data}. Alice (her atlas VOMS proxy, curl) asks a door
 * for a macaroon; curl without any certificate reads with it through the pool redirect, at either door; what its
 * caveats do not allow (an upload, even with a caveat appended that names it) is 403, an expired one 401.
 * The origin is writable and a second nginx is a third-party copy's remote: the DOMA smoke test's pull and push
 * with a macaroon alone.
 */
@Timeout(value = 10, unit = TimeUnit.MINUTES)
class MacaroonsTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    @TempDir
    static Path tmp;
    static Path pkiParent;
    static Path pki;
    static NginxOrigin origin;
    /** The other side of third-party copies (its /token/ location wants Bearer s3cret). */
    static NginxOrigin remote;
    static Path remoteData;
    static HttpsCluster cluster;
    static Gridcache door2;
    static String doorUrl;
    static String door2Url;
    static Path file;

    @BeforeAll
    static void start() throws Exception {
        Tools.require("curl", "nginx", "openssl", "grid-proxy-init", "voms-proxy-fake", "davix-get");
        pkiParent = GridEnv.worldReadableDir("gridcache-test-pki");
        pki = GridEnv.pki(pkiParent.resolve("pki"));
        Path data = Files.createDirectories(tmp.resolve("data/sub"));
        file = Tools.randomFile(data.resolve("file.bin"), 3_000_000, 13);
        Files.writeString(tmp.resolve("data/other.txt"), "not for the macaroon");
        Files.createDirectories(tmp.resolve("data/tpc"));
        origin = NginxOrigin.startWritable(tmp.resolve("nginx"), tmp.resolve("data"));
        remoteData = Files.createDirectories(tmp.resolve("remote"));
        Files.createDirectories(remoteData.resolve("open"));
        Files.createDirectories(remoteData.resolve("token"));
        remote = NginxOrigin.startWritable(tmp.resolve("remote-nginx"), remoteData, NginxOrigin.TOKEN_LOCATION);
        cluster = HttpsCluster.start(tmp.resolve("cluster"), pki, "vo:atlas /data list,read,write\n", "data", "--prefix", "/data",
                "--url", origin.url());
        doorUrl = cluster.doorUrl();
        Gridcache.allowTpcTo(HttpsCluster.zkConnect(tmp.resolve("cluster")), "127.0.0.1", () -> cluster.pool().output() + cluster.door().output(), 2); // the remote is on loopback
        int port2 = Tools.freePort();
        door2Url = "https://localhost:" + port2;
        Path dir = tmp.resolve("cluster");
        door2 = Gridcache.start(dir.resolve("door2.out"), "door", "--config", dir.resolve("gridcache.properties").toString(),
                "--log-dir", dir.resolve("logs").toString(), "--port", String.valueOf(port2), "--public-url", door2Url,
                "--authz", dir.resolve("authz.conf").toString(), "--pool-identity", HttpsCluster.HOST_DN).awaitOutput("is up");
    }

    @AfterAll
    static void stop() throws Exception {
        Tools.closeAll(door2, cluster, origin, remote);
        if (pkiParent != null) {
            Tools.run(Duration.ofMinutes(1), "rm", "-rf", pkiParent.toString());
        }
    }

    /** Alice's POST for a macaroon at {@code path}; the answer's JSON. */
    static JsonNode request(String path, String body) throws IOException {
        Path answer = tmp.resolve("answer.json");
        Tools.Result r = GridEnv.curlAs(pki, "alice-atlas", "-X", "POST", "-H", "Content-Type: application/macaroon-request",
                "--data-binary", body, "-o", answer.toString(), doorUrl + path);
        assertEquals(200, GridEnv.lastStatus(r), r.out() + r.err());
        return JSON.readTree(Files.readString(answer));
    }

    static String macaroon(String path, String body) throws IOException {
        return request(path, body).get("macaroon").asText();
    }

    /** curl with no certificate at all, {@code more} before the URL. */
    static Tools.Result anonymousCurl(String... more) {
        List<String> args = new ArrayList<>(List.of("--capath", pki.resolve("certificates").toString(), "-D", "-"));
        args.addAll(List.of(more));
        return Tools.curl(args.toArray(String[]::new));
    }

    static String downloadOnly() throws IOException {
        return macaroon("/data", "{\"caveats\": [\"activity:DOWNLOAD,LIST\", \"path:/sub\"], \"validity\": \"PT30M\"}");
    }

    @Test
    void aCertificatelessClientReadsWithAliceMacaroonThroughThePoolByteExact() throws Exception {
        JsonNode answer = request("/data", "{\"caveats\": [\"activity:DOWNLOAD,LIST\", \"path:/sub\"], \"validity\": \"PT30M\"}");
        String m = answer.get("macaroon").asText();
        assertEquals(doorUrl + "/data?authz=" + m, answer.get("uri").get("targetWithMacaroon").asText());
        assertEquals(doorUrl + "/?authz=" + m, answer.get("uri").get("baseWithMacaroon").asText());

        Path viaHeader = tmp.resolve("via-header.bin");
        Tools.Result r = anonymousCurl("-L", "-H", "Authorization: Bearer " + m, "-o", viaHeader.toString(), doorUrl + "/data/sub/file.bin");
        assertTrue(r.out().contains("HTTP/1.1 302"), "redirected to the pool: " + r.out());
        assertEquals(200, GridEnv.lastStatus(r), r.out() + r.err());
        assertEquals(Tools.sha256(file), Tools.sha256(viaHeader));

        Path viaQuery = tmp.resolve("via-query.bin");
        r = anonymousCurl("-L", "-o", viaQuery.toString(), doorUrl + "/data/sub/file.bin?authz=" + m);
        assertEquals(200, GridEnv.lastStatus(r), r.out() + r.err());
        assertEquals(Tools.sha256(file), Tools.sha256(viaQuery));

        assertEquals(403, GridEnv.lastStatus(anonymousCurl("-H", "Authorization: Bearer " + m, doorUrl + "/data/other.txt")),
                "outside the macaroon's path");
        assertEquals(401, GridEnv.lastStatus(anonymousCurl(doorUrl + "/data/sub/file.bin")), "without it");
    }

    @Test
    void aMacaroonMintedAtOneDoorIsAcceptedAtTheOther() throws Exception {
        Path out = tmp.resolve("door2.bin");
        Tools.Result r = anonymousCurl("-L", "-H", "Authorization: Bearer " + downloadOnly(), "-o", out.toString(), door2Url + "/data/sub/file.bin");
        assertEquals(200, GridEnv.lastStatus(r), r.out() + r.err());
        assertEquals(Tools.sha256(file), Tools.sha256(out));
    }

    @Test
    void davixReadsWithTheMacaroonInAHeader() throws Exception {
        Path out = tmp.resolve("davix.bin");
        Tools.Result r = Tools.run(Duration.ofMinutes(2), "davix-get", "--capath", pki.resolve("certificates").toString(),
                "-H", "Authorization: Bearer " + downloadOnly(), door2Url + "/data/sub/file.bin", out.toString());
        r.assertOk();
        assertEquals(Tools.sha256(file), Tools.sha256(out));
    }

    @Test
    void anUploadWithADownloadMacaroonIsRefusedEvenWithTheActivityAppended() throws Exception {
        String m = downloadOnly();
        Path up = Files.writeString(tmp.resolve("up.txt"), "upload");
        assertEquals(403, GridEnv.lastStatus(anonymousCurl("-T", up.toString(), "-H", "Authorization: Bearer " + m,
                doorUrl + "/data/sub/new.txt")));
        String widened = MacaroonsBuilder.modify(MacaroonsBuilder.deserialize(m)).add_first_party_caveat("activity:DOWNLOAD,UPLOAD,DELETE")
                .getMacaroon().serialize();
        Tools.Result r = anonymousCurl("-T", up.toString(), "-H", "Authorization: Bearer " + widened, doorUrl + "/data/sub/new.txt");
        assertEquals(403, GridEnv.lastStatus(r), r.out());
        assertTrue(r.out().contains("macaroon's caveats do not allow it"), r.out());
        assertEquals(403, GridEnv.lastStatus(anonymousCurl("-X", "DELETE", "-H", "Authorization: Bearer " + widened,
                doorUrl + "/data/sub/file.bin")));
        assertTrue(Files.exists(file) && !Files.exists(tmp.resolve("data/sub/new.txt")), "nothing changed at the origin");
        assertEquals(302, GridEnv.lastStatus(anonymousCurl("-H", "Authorization: Bearer " + widened, doorUrl + "/data/sub/file.bin")),
                "still a download macaroon");
    }

    @Test
    void anExpiredMacaroonIsRefused() throws Exception {
        String m = macaroon("/data", "{\"validity\": \"PT1S\"}");
        Tools.await("the macaroon to expire", Duration.ofSeconds(20),
                () -> GridEnv.lastStatus(anonymousCurl("-H", "Authorization: Bearer " + m, doorUrl + "/data/sub/file.bin")) == 401);
        Tools.Result r = anonymousCurl("-H", "Authorization: Bearer " + m, doorUrl + "/data/sub/file.bin");
        assertTrue(r.out().contains("macaroon expired at"), r.out());
    }

    @Test
    void refusedRequests() {
        Tools.Result anonymous = anonymousCurl("-X", "POST", "-H", "Content-Type: application/macaroon-request", "--data-binary", "{}",
                doorUrl + "/data");
        assertEquals(401, GridEnv.lastStatus(anonymous), anonymous.out());
        Tools.Result bad = GridEnv.curlAs(pki, "alice-atlas", "-X", "POST", "-H", "Content-Type: application/macaroon-request",
                "--data-binary", "{\"caveats\": [\"home:/x\"]}", doorUrl + "/data");
        assertEquals(400, GridEnv.lastStatus(bad), bad.out());
        assertTrue(bad.out().contains("unknown caveat 'home'"), bad.out());
        Tools.Result tampered = anonymousCurl("-H", "Authorization: Bearer " + "MDAx" + "A".repeat(40), doorUrl + "/data/sub/file.bin");
        assertEquals(401, GridEnv.lastStatus(tampered), tampered.out());
    }

    /**
     * The DOMA smoke test's third-party copies: Alice asks for a macaroon on a directory; a client holding only that
     * (no certificate, no Credential header) pulls into the directory and pushes from it with a token for the remote,
     * byte-exact at both ends; a download-only macaroon's pull is 403 and writes nothing.
     */
    @Test
    void aMacaroonClientPullsIntoItsDirectoryAndPushesFromIt() throws Exception {
        String m = macaroon("/data/tpc", "{\"caveats\": [\"activity:DOWNLOAD,UPLOAD,LIST\"], \"validity\": \"PT30M\"}");
        Path source = Tools.randomFile(remoteData.resolve("open/src.bin"), 1_500_000, 71);
        String remoteUrl = "http://127.0.0.1:" + remote.port();
        Tools.Result pull = anonymousCurl("-sS", "-L", "-X", "COPY", "-H", "Authorization: Bearer " + m, "-H", "Source: " + remoteUrl + "/open/src.bin",
                "-H", "RequireChecksumVerification: false", doorUrl + "/data/tpc/pulled.bin");
        assertTrue(pull.out().contains("HTTP/1.1 307"), "the door sends the copy to the pool: " + pull.out());
        assertEquals("success: Created", lastLine(pull), pull.out());
        assertEquals(Tools.sha256(source), Tools.sha256(tmp.resolve("data/tpc/pulled.bin")), "byte-exact at the origin");

        Tools.Result push = anonymousCurl("-sS", "-L", "-X", "COPY", "-H", "Authorization: Bearer " + m,
                "-H", "TransferHeaderAuthorization: Bearer s3cret", "-H", "Destination: " + remoteUrl + "/token/pushed.bin",
                "-H", "RequireChecksumVerification: false", doorUrl + "/data/tpc/pulled.bin");
        assertEquals("success: Created", lastLine(push), push.out());
        assertEquals(Tools.sha256(source), Tools.sha256(remoteData.resolve("token/pushed.bin")), "byte-exact at the remote");

        String downloadOnly = macaroon("/data/tpc", "{\"caveats\": [\"activity:DOWNLOAD,LIST\"], \"validity\": \"PT30M\"}");
        Tools.Result refused = anonymousCurl("-sS", "-L", "-X", "COPY", "-H", "Authorization: Bearer " + downloadOnly,
                "-H", "Source: " + remoteUrl + "/open/src.bin", "-H", "RequireChecksumVerification: false", doorUrl + "/data/tpc/refused.bin");
        assertEquals(403, GridEnv.lastStatus(refused), refused.out());
        assertTrue(refused.out().contains("macaroon's caveats do not allow it"), refused.out());
        assertTrue(Files.notExists(tmp.resolve("data/tpc/refused.bin")), "nothing written");
    }

    /**
     * The DOMA smoke test's direct transfers with a macaroon (issue 42 item 3): Alice asks for one at the URL of a
     * file that does not exist yet; curl with only that macaroon uploads the file, reads it back, has its adler32
     * from a HEAD with {@code Want-Digest} and deletes it.
     */
    @Test
    void aMacaroonAskedForAtANewFilesUrlUploadsReadsDigestsAndDeletesIt() throws Exception {
        String m = macaroon("/data/smoke.bin", "{\"caveats\": [\"activity:DOWNLOAD,UPLOAD,DELETE,LIST\"], \"validity\": \"PT30M\"}");
        Path local = Tools.randomFile(tmp.resolve("smoke.bin"), 1_200_000, 43);
        Path atOrigin = tmp.resolve("data/smoke.bin");
        String url = doorUrl + "/data/smoke.bin";
        Tools.Result put = anonymousCurl("-sS", "-L", "-T", local.toString(), "-H", "Authorization: Bearer " + m, url);
        assertEquals(201, GridEnv.lastStatus(put), put.out());
        assertEquals(Tools.sha256(local), Tools.sha256(atOrigin), "byte-exact at the origin");

        Path back = tmp.resolve("smoke-back.bin");
        Tools.Result get = anonymousCurl("-sS", "-L", "-o", back.toString(), "-H", "Authorization: Bearer " + m, url);
        assertEquals(200, GridEnv.lastStatus(get), get.out());
        assertEquals(Tools.sha256(local), Tools.sha256(back));

        java.util.zip.Adler32 adler = new java.util.zip.Adler32();
        adler.update(Files.readAllBytes(local));
        Tools.Result head = anonymousCurl("-sS", "-L", "-I", "-H", "Want-Digest: adler32", "-H", "Authorization: Bearer " + m, url);
        assertEquals(200, GridEnv.lastStatus(head), head.out());
        assertTrue(head.out().lines().anyMatch(l -> l.equalsIgnoreCase("Digest: adler32=" + "%08x".formatted(adler.getValue()))),
                head.out());

        Tools.Result delete = anonymousCurl("-sS", "-X", "DELETE", "-H", "Authorization: Bearer " + m, url);
        assertEquals(204, GridEnv.lastStatus(delete), delete.out());
        assertTrue(Files.notExists(atOrigin), "deleted at the origin");
    }

    /**
     * Issue 39 row 5: a macaroon never outlives the proxy it was minted with, whatever validity it asks for (gridenv's
     * proxies live as long as macaroon.max-validity, and began earlier); macaroon.max-validity holds again when one
     * is used: lowered below what a macaroon has left, the macaroon is refused.
     */
    @Test
    void aMacaroonNeverOutlivesAlicesProxyAndTheCapHoldsWhenItIsUsed() throws Exception {
        Path answer = tmp.resolve("capped.json");
        Tools.Result r = GridEnv.curlAs(pki, "alice-atlas", "-X", "POST", "-H", "Content-Type: application/macaroon-request",
                "--data-binary", "{\"caveats\": [\"activity:DOWNLOAD,LIST\"], \"validity\": \"P30D\"}", "-o", answer.toString(),
                doorUrl + "/data");
        assertEquals(200, GridEnv.lastStatus(r), r.out());
        assertTrue(r.out().contains(" (the expiry of the credential it was minted with)"), r.out());
        String m = JSON.readTree(Files.readString(answer)).get("macaroon").asText();
        String enddate = Tools.run(Duration.ofMinutes(1), "openssl", "x509", "-noout", "-enddate", "-in",
                pki.resolve("proxies/alice-atlas.pem").toString()).assertOk().out().trim().replaceAll("\\s+", " ");
        java.time.Instant notAfter = java.time.ZonedDateTime.parse(enddate.substring("notAfter=".length()),
                java.time.format.DateTimeFormatter.ofPattern("MMM d HH:mm:ss yyyy z", java.util.Locale.ENGLISH)).toInstant();
        List<String> caveats = java.util.Arrays.stream(MacaroonsBuilder.deserialize(m).caveatPackets).map(c -> c.getValueAsText()).toList();
        assertTrue(caveats.contains("before:" + notAfter), "the proxy's notAfter " + notAfter + ": " + caveats);

        String zk = Files.readAllLines(tmp.resolve("cluster/gridcache.properties")).stream().filter(l -> l.startsWith("zk="))
                .findFirst().orElseThrow().substring(3);
        assertEquals(302, GridEnv.lastStatus(anonymousCurl("-H", "Authorization: Bearer " + m, doorUrl + "/data/sub/file.bin")));
        Gridcache.admin("config", "set", "macaroon.max-validity", "1h", "--zk", zk).assertOk();
        try {
            Tools.await("the door to apply macaroon.max-validity 1h", Duration.ofSeconds(30),
                    () -> GridEnv.lastStatus(anonymousCurl("-H", "Authorization: Bearer " + m, doorUrl + "/data/sub/file.bin")) == 401);
            Tools.Result refused = anonymousCurl("-H", "Authorization: Bearer " + m, doorUrl + "/data/sub/file.bin");
            assertTrue(refused.out().contains("longer than macaroon.max-validity (PT1H) from now"), refused.out());
        } finally {
            Gridcache.admin("config", "unset", "macaroon.max-validity", "--zk", zk).assertOk();
        }
    }

    private static String lastLine(Tools.Result r) {
        List<String> lines = r.out().strip().lines().toList();
        return lines.isEmpty() ? "" : lines.get(lines.size() - 1);
    }
}
