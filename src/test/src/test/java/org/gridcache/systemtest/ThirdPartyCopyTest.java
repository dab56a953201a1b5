package org.gridcache.systemtest;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import java.util.zip.Adler32;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * WLCG HTTP third-party copy (issue 13 item 4) against real peers: {@code gridcache standalone} (HTTPS: a third-party
 * copy is for authenticated clients only; Alice with her proxy and a delegation, as FTS) over a writable nginx
 * WebDAV origin, and a second, independent nginx WebDAV server as the remote side, whose {@code /slow/} location is
 * rate-limited (markers show while a pull runs), whose {@code /refuse/} location refuses writes (403), and whose
 * {@code /digest/} location answers with a fixed {@code Digest} (nginx computes none), right for one file and wrong
 * for another, and whose {@code /token/} location wants {@code Authorization: Bearer s3cret} (passed on from
 * {@code TransferHeaderAuthorization}). The door answers 307 to the pool, which does the copy and streams performance markers. Checked at both
 * servers' directories (byte-exact, or nothing) and in the pool's store.
 */
@Timeout(value = 10, unit = TimeUnit.MINUTES)
class ThirdPartyCopyTest {
    @TempDir
    static Path tmp;
    static Path pkiParent;
    static Path pki;
    static NginxOrigin origin;
    static NginxOrigin remote;
    static Standalone gridcache;
    static String door;
    static Path data;
    static Path remoteData;
    static Path good;
    static Path bad;

    @BeforeAll
    static void start() throws Exception {
        Tools.require("curl", "nginx", "openssl", "grid-proxy-init", "voms-proxy-fake");
        pkiParent = GridEnv.worldReadableDir("gridcache-test-pki");
        pki = GridEnv.pki(pkiParent.resolve("pki"));
        data = Files.createDirectories(tmp.resolve("data"));
        remoteData = Files.createDirectories(tmp.resolve("remote"));
        Files.createDirectories(remoteData.resolve("slow"));
        Files.createDirectories(remoteData.resolve("refuse"));
        Files.createDirectories(remoteData.resolve("digest"));
        Files.createDirectories(remoteData.resolve("token"));
        good = Tools.randomFile(remoteData.resolve("digest/good.bin"), 1_000_000, 41);
        bad = Tools.randomFile(remoteData.resolve("digest/bad.bin"), 1_000_000, 42);
        origin = NginxOrigin.startWritable(tmp.resolve("nginx"), data);
        remote = new NginxOrigin(tmp.resolve("remote-nginx"), remoteData, "0", true, """
                dav_methods PUT DELETE MKCOL COPY MOVE;
                dav_access user:rw group:r all:r;
                client_max_body_size 0;
                location /slow/ { limit_rate 1m; }
                location /refuse/ { limit_except GET HEAD { deny all; } }
                location /token/ { if ($http_authorization != "Bearer s3cret") { return 403; } }
                location = /digest/good.bin { add_header Digest "adler32=%s"; }
                location = /digest/bad.bin { add_header Digest "adler32=00000001"; }
                """.formatted(adler32(good)), "");
        remote.start();
        Path policy = Files.writeString(tmp.resolve("authz.conf"), "authenticated / list,read,write\n");
        gridcache = Standalone.startHttps(tmp, origin.url(), pki, "--authz", policy.toString());
        door = gridcache.door();
        Gridcache.allowTpcTo(gridcache::admin, "127.0.0.1", gridcache::output, 2); // the remote is on loopback
        GridEnv.delegated(pki, door, "alice"); // a certificate client's copy presents its proxy (Credential: gridsite)
        gridcache.admin("config", "set", "tpc.marker-interval", "1s").assertOk();
    }

    @AfterAll
    static void stop() throws Exception {
        Tools.closeAll(remote, origin, gridcache);
        if (pkiParent != null) {
            Tools.run(Duration.ofMinutes(1), "rm", "-rf", pkiParent.toString());
        }
    }

    /** curl as Alice (her proxy; the door and the pool checked against the grid CAs); the headers on stdout. */
    private static Tools.Result curl(String... args) {
        return GridEnv.curlAs(pki, "alice", args);
    }

    private static String remote(String path) {
        return "http://127.0.0.1:" + remote.port() + path;
    }

    @Test
    void curlPullLandsByteExactWithMarkersAndIsThenAHit() throws Exception {
        Path file = Tools.randomFile(remoteData.resolve("slow/pull.bin"), 4_000_000, 43);
        Tools.Result copy = curl("-sS", "-L", "-D", "-", "-X", "COPY", "-H", "Source: " + remote("/slow/pull.bin"),
                "-H", "RequireChecksumVerification: false", door + "/pulled.bin").assertOk();
        assertTrue(copy.out().contains("HTTP/1.1 307"), "the door redirects to the pool: " + copy.out());
        assertTrue(copy.out().contains("HTTP/1.1 202"), copy.out());
        assertTrue(copy.out().toLowerCase(java.util.Locale.ROOT).contains("content-type: text/perf-marker-stream"), copy.out());
        assertTrue(markers(copy.out()) >= 3, "markers every second of a ~3 s pull, and a last one: " + copy.out());
        assertTrue(copy.out().contains("Stripe Bytes Transferred: 4000000"), "the last marker counts every byte: " + copy.out());
        assertEquals("success: Created", lastLine(copy.out()));
        assertEquals(Tools.sha256(file), Tools.sha256(data.resolve("pulled.bin")), "byte-exact at the origin");

        Path back = tmp.resolve("pulled.back");
        Tools.Result get = curl("-sS", "-L", "-D", "-", "-o", back.toString(), door + "/pulled.bin").assertOk();
        assertTrue(get.out().contains("X-Cache: HIT"), "the pool kept the pulled file: " + get.out());
        assertEquals(Tools.sha256(file), Tools.sha256(back));
        assertEquals(0, origin.count("GET", "/pulled.bin"), "read from the pool's copy, not the origin");
        // the kept copy answers md5 and sha-256 of the file (computed when asked: pool.checksums has the cheap ones)
        byte[] content = Files.readAllBytes(file);
        for (String[] want : new String[][] {{"md5", "MD5"}, {"sha-256", "SHA-256"}}) {
            String expected = java.util.Base64.getEncoder().encodeToString(java.security.MessageDigest.getInstance(want[1]).digest(content));
            Tools.Result head = curl("-sS", "-I", "-H", "Want-Digest: " + want[0], door + "/pulled.bin").assertOk();
            assertTrue(head.out().contains("Digest: " + want[0] + "=" + expected), want[0] + " of the kept copy: " + head.out());
        }
    }

    @Test
    void curlPushLandsByteExactAtTheRemoteAndSaysItWasAHitTheSecondTime() throws Exception {
        Path file = Tools.randomFile(data.resolve("push.bin"), 2_000_000, 44);
        Tools.Result first = unverified("Destination: " + remote("/slow/pushed.bin"), door + "/push.bin");
        assertEquals("success: Created", lastLine(first.out()), first.out());
        assertEquals(Tools.sha256(file), Tools.sha256(remoteData.resolve("slow/pushed.bin")), "byte-exact at the remote");
        Tools.Result second = unverified("Destination: " + remote("/slow/pushed2.bin"), door + "/push.bin");
        assertEquals("success: Created", lastLine(second.out()), second.out());
        assertEquals(Tools.sha256(file), Tools.sha256(remoteData.resolve("slow/pushed2.bin")));
        assertEquals(1, origin.count("GET", "/push.bin"), "the second push is served from the pool's store");
        assertTrue(gridcache.output().contains("pushed 2000000 bytes (hit)"), "the transfer says it was a hit");
    }

    @Test
    void aPushTheRemoteRefusesFailsAndLeavesNothing() throws Exception {
        Tools.randomFile(data.resolve("refused.bin"), 1_500_000, 45);
        Tools.Result copy = unverified("Destination: " + remote("/refuse/refused.bin"), door + "/refused.bin");
        assertEquals("failure: the remote answered PUT with 403", lastLine(copy.out()), copy.out());
        assertFalse(Files.exists(remoteData.resolve("refuse/refused.bin")), "nothing at the remote");
        assertEquals(List.of(), leftovers(), "no part or upload file in the pool");
    }

    @Test
    void aPullFromAMissingSourceFailsAndLeavesNothingAtTheOrigin() throws Exception {
        Set<Path> before = stored();
        Tools.Result copy = curl("-sS", "-L", "-X", "COPY", "-H", "Source: " + remote("/slow/absent.bin"),
                door + "/absent.bin").assertOk();
        assertEquals("failure: the remote answered GET with 404", lastLine(copy.out()), copy.out());
        assertFalse(Files.exists(data.resolve("absent.bin")), "nothing at the origin");
        assertEquals(before, stored(), "nothing cached");
        assertEquals(List.of(), leftovers());
    }

    /** A client that leaves mid-pull cancels it: the origin's upload is aborted, the pool's copy dropped. */
    @Test
    void aClientThatLeavesCancelsThePullAndNothingStays() throws Exception {
        Tools.randomFile(remoteData.resolve("slow/left.bin"), 8_000_000, 51);
        String location = location(curl("-sS", "-D", "-", "-o", "/dev/null", "-X", "COPY",
                "-H", "Source: " + remote("/slow/left.bin"), door + "/left.bin").assertOk());
        String metrics = location.substring(0, location.indexOf("/left.bin")) + "/.gridcache/metrics";
        String proxy = pki.resolve("proxies/alice.pem").toString();
        Process curl = new ProcessBuilder("curl", "--capath", pki.resolve("certificates").toString(), "--cert", proxy, "--key", proxy,
                "-sS", "-L", "-X", "COPY", "-H", "Source: " + remote("/slow/left.bin"),
                "-H", "RequireChecksumVerification: false", door + "/left.bin")
                .redirectOutput(ProcessBuilder.Redirect.DISCARD).redirectError(ProcessBuilder.Redirect.DISCARD).start();
        try {
            Tools.await("part of the file in the pool", Duration.ofSeconds(60), () -> leftoverBytes() > 0);
            assertTrue(curl("-sS", metrics).assertOk().out().contains("gridcache_pool_active_transfers{pool=\"pool1\"} 1.0"),
                    "a copy counts as an active transfer of the pool");
        } finally {
            curl.destroyForcibly().waitFor();
        }
        Tools.await("the pool to drop its copy", Duration.ofSeconds(30), () -> leftoverBytes() == 0);
        Tools.await("the origin to see the PUT end", Duration.ofSeconds(30)).until(() -> origin.count("PUT", "/left.bin") == 1);
        assertFalse(Files.exists(data.resolve("left.bin")), "nothing at the origin");
        // the copy's end is logged after its worker gave up the origin upload and the kept bytes
        Tools.await("the copy's end in the log", Duration.ofSeconds(10), () -> gridcache.output().contains("COPY /left.bin (pull from"));
        Tools.await("the copy to leave the active transfers", Duration.ofSeconds(10), () -> curl("-sS", metrics).out()
                .contains("gridcache_pool_active_transfers{pool=\"pool1\"} 0.0"));
    }

    @Test
    void aPullVerifiesTheRemotesDigestByDefault() throws Exception {
        Tools.Result ok = curl("-sS", "-L", "-X", "COPY", "-H", "Source: " + remote("/digest/good.bin"),
                door + "/good.bin").assertOk();
        assertEquals("success: Created", lastLine(ok.out()), ok.out());
        assertEquals(Tools.sha256(good), Tools.sha256(data.resolve("good.bin")));

        Tools.Result mismatch = curl("-sS", "-L", "-X", "COPY", "-H", "Source: " + remote("/digest/bad.bin"),
                door + "/bad.bin").assertOk();
        assertTrue(lastLine(mismatch.out()).startsWith("failure: checksum mismatch: the remote's adler32 is 00000001"), mismatch.out());
        assertFalse(Files.exists(data.resolve("bad.bin")), "the origin upload was aborted before its end");

        Tools.randomFile(remoteData.resolve("slow/nodigest.bin"), 100_000, 46);
        Tools.Result none = curl("-sS", "-L", "-X", "COPY", "-H", "Source: " + remote("/slow/nodigest.bin"),
                door + "/nodigest.bin").assertOk();
        assertEquals("failure: the remote gave no adler32 checksum and RequireChecksumVerification is true", lastLine(none.out()));
        assertFalse(Files.exists(data.resolve("nodigest.bin")));
        assertEquals(List.of(), leftovers());
    }

    @Test
    void aPushWhoseDigestDisagreesIsDeletedAtTheRemote() throws Exception {
        // the remote's /digest/bad.bin always claims adler32 00000001: a push there fails verification after the PUT
        Tools.randomFile(data.resolve("verified.bin"), 500_000, 47);
        byte[] saved = Files.readAllBytes(bad);
        Files.delete(bad);
        try {
            Tools.Result copy = curl("-sS", "-L", "-X", "COPY", "-H", "Destination: " + remote("/digest/bad.bin"),
                    door + "/verified.bin").assertOk();
            assertTrue(lastLine(copy.out()).startsWith("failure: checksum mismatch"), copy.out());
            assertFalse(Files.exists(remoteData.resolve("digest/bad.bin")), "the pool deleted what it PUT");
        } finally {
            Files.write(bad, saved);
        }
    }

    @Test
    void aSourceOtherThanTheTicketsIs403AtThePool() throws Exception {
        Tools.randomFile(remoteData.resolve("slow/a.bin"), 1000, 48);
        Tools.Result redirect = curl("-sS", "-D", "-", "-o", "/dev/null", "-X", "COPY", "-H", "Source: " + remote("/slow/a.bin"),
                door + "/a.bin").assertOk();
        String location = location(redirect);
        Tools.Result elsewhere = curl("-sS", "-w", "\n%{http_code}", "-X", "COPY", "-H", "Source: " + remote("/slow/other.bin"),
                location).assertOk();
        assertTrue(elsewhere.out().strip().endsWith("403"), elsewhere.out());
        assertTrue(elsewhere.out().contains("the Source is not the remote the ticket was issued for"), elsewhere.out());
    }

    @Test
    void transferHeadersAreSentOnToTheRemote() throws Exception {
        Path file = Tools.randomFile(remoteData.resolve("token/t.bin"), 300_000, 52);
        Tools.Result without = unverified("Source: " + remote("/token/t.bin"), door + "/t.bin");
        assertEquals("failure: the remote answered GET with 403", lastLine(without.out()), without.out());
        Tools.Result pull = curl("-sS", "-L", "-X", "COPY", "-H", "Source: " + remote("/token/t.bin"),
                "-H", "TransferHeaderAuthorization: Bearer s3cret", "-H", "RequireChecksumVerification: false",
                door + "/t.bin").assertOk();
        assertEquals("success: Created", lastLine(pull.out()), pull.out());
        assertEquals(Tools.sha256(file), Tools.sha256(data.resolve("t.bin")));
        Tools.Result push = curl("-sS", "-L", "-X", "COPY", "-H", "Destination: " + remote("/token/t-back.bin"),
                "-H", "TransferHeaderAuthorization: Bearer s3cret", "-H", "RequireChecksumVerification: false",
                door + "/t.bin").assertOk();
        assertEquals("success: Created", lastLine(push.out()), push.out());
        assertEquals(Tools.sha256(file), Tools.sha256(remoteData.resolve("token/t-back.bin")));
        assertFalse(gridcache.output().contains("s3cret"), "the token is never logged");
    }

    /** What the pool refuses before it answers 202: each with its status and one line. */
    @Test
    void thePoolRefusesATicketForTheOtherDirectionBadHeadersAndNoTicket() throws Exception {
        Tools.randomFile(remoteData.resolve("slow/r.bin"), 1000, 53);
        String location = location(curl("-sS", "-D", "-", "-o", "/dev/null", "-X", "COPY",
                "-H", "Source: " + remote("/slow/r.bin"), door + "/r.bin").assertOk());
        Tools.Result push = curl("-sS", "-w", "\n%{http_code}", "-X", "COPY", "-H", "Destination: " + remote("/slow/r.bin"),
                location).assertOk();
        assertTrue(push.out().strip().endsWith("403") && push.out().contains("ticket does not allow tpc-push"), push.out());
        Tools.Result flag = curl("-sS", "-w", "\n%{http_code}", "-X", "COPY", "-H", "Source: " + remote("/slow/r.bin"),
                "-H", "RequireChecksumVerification: maybe", location).assertOk();
        assertTrue(flag.out().strip().endsWith("400") && flag.out().contains("bad RequireChecksumVerification"), flag.out());
        Tools.Result host = curl("-sS", "-w", "\n%{http_code}", "-X", "COPY", "-H", "Source: " + remote("/slow/r.bin"),
                "-H", "TransferHeaderHost: elsewhere", location).assertOk();
        assertTrue(host.out().strip().endsWith("400") && host.out().contains("TransferHeaderHost cannot be passed on"), host.out());
        Tools.Result none = curl("-sS", "-w", "\n%{http_code}", "-X", "COPY", "-H", "Source: " + remote("/slow/r.bin"),
                location.substring(0, location.indexOf('?'))).assertOk();
        assertTrue(none.out().strip().endsWith("403") && none.out().contains("missing ticket"), none.out());
        assertFalse(Files.exists(data.resolve("r.bin")), "nothing was copied");
    }

    @Test
    void theDoorRefusesAPushOfACollectionOrMissingFileAndAPullOntoACollectionOrAKeptFile() throws Exception {
        Files.createDirectories(data.resolve("dir"));
        Tools.Result dir = curl("-sS", "-w", "\n%{http_code}", "-X", "COPY", "-H", "Destination: " + remote("/slow/dir"),
                door + "/dir").assertOk();
        assertTrue(dir.out().strip().endsWith("403") && dir.out().contains("is a collection"), dir.out());
        Tools.Result missing = curl("-sS", "-w", "\n%{http_code}", "-X", "COPY", "-H", "Destination: " + remote("/slow/m.bin"),
                door + "/no-such.bin").assertOk();
        assertTrue(missing.out().strip().endsWith("404"), missing.out());
        Tools.Result intoCollection = curl("-sS", "-w", "\n%{http_code}", "-X", "COPY", "-H", "Source: " + remote("/slow/r.bin"),
                door + "/dir").assertOk();
        assertTrue(intoCollection.out().strip().endsWith("409"), "a pull onto a collection, as a PUT: " + intoCollection.out());
        Tools.Result noParent = curl("-sS", "-w", "\n%{http_code}", "-X", "COPY", "-H", "Source: " + remote("/slow/r.bin"),
                door + "/no/parent.bin").assertOk();
        assertTrue(noParent.out().strip().endsWith("409"), noParent.out());
        Tools.randomFile(data.resolve("kept.bin"), 1000, 54);
        Tools.Result keep = curl("-sS", "-w", "\n%{http_code}", "-X", "COPY", "-H", "Source: " + remote("/slow/r.bin"),
                "-H", "Overwrite: F", door + "/kept.bin").assertOk();
        assertTrue(keep.out().strip().endsWith("412"), "Overwrite: F onto an existing file: " + keep.out());
    }

    /** curl's COPY following the door's 307, with {@code header} (Source or Destination), no checksum required. */
    private static Tools.Result unverified(String header, String target) {
        return curl("-sS", "-L", "-X", "COPY", "-H", header, "-H", "RequireChecksumVerification: false", target).assertOk();
    }

    private static String location(Tools.Result redirect) {
        return redirect.out().lines().filter(l -> l.regionMatches(true, 0, "Location:", 0, 9))
                .map(l -> l.substring(9).strip()).findFirst().orElseThrow(() -> new AssertionError(redirect.out()));
    }

    @Test
    void credentialOidcIs400AndABadSourceIs400() throws Exception {
        Tools.Result oidc = curl("-sS", "-w", "\n%{http_code}", "-X", "COPY", "-H", "Source: " + remote("/slow/a.bin"),
                "-H", "Credential: oidc", door + "/oidc.bin").assertOk();
        assertTrue(oidc.out().strip().endsWith("400"), oidc.out());
        assertTrue(oidc.out().contains("Credential oidc is not supported"), oidc.out());
        Tools.Result relative = curl("-sS", "-w", "\n%{http_code}", "-X", "COPY", "-H", "Source: /slow/a.bin",
                door + "/rel.bin").assertOk();
        assertTrue(relative.out().strip().endsWith("400"), relative.out());
        Tools.Result userinfo = curl("-sS", "-w", "\n%{http_code}", "-X", "COPY", "-H",
                "Source: http://u:secret@127.0.0.1:" + remote.port() + "/slow/a.bin", door + "/ui.bin").assertOk();
        assertTrue(userinfo.out().strip().endsWith("400"), userinfo.out());
        assertFalse(userinfo.out().contains("secret"), "the password is not echoed");
    }

    @Test
    void gfalCopyPullsAndPushes() throws Exception {
        Tools.require("gfal-copy");
        Path file = Tools.randomFile(remoteData.resolve("slow/gfal-pull.bin"), 1_500_000, 49);
        Tools.Result pull = Tools.run(Duration.ofMinutes(2), "env", "GFAL_PYTHONBIN=/usr/bin/python3",
                "X509_USER_PROXY=" + pki.resolve("proxies/alice.pem"), "X509_CERT_DIR=" + pki.resolve("certificates"), "gfal-copy", "-v",
                "--copy-mode", "pull", remote("/slow/gfal-pull.bin"), door + "/gfal-pulled.bin");
        assertEquals(0, pull.exit(), pull.out() + pull.err());
        assertEquals(Tools.sha256(file), Tools.sha256(data.resolve("gfal-pulled.bin")), "byte-exact at the origin");
        assertTrue(gridcache.output().lines().anyMatch(l -> l.contains("COPY /gfal-pulled.bin by /DC=org/DC=example/CN=Alice")
                && l.contains("third-party pull from")), "a pull through the pool");

        Path local = Tools.randomFile(data.resolve("gfal-push.bin"), 1_500_000, 50);
        Tools.Result push = Tools.run(Duration.ofMinutes(2), "env", "GFAL_PYTHONBIN=/usr/bin/python3",
                "X509_USER_PROXY=" + pki.resolve("proxies/alice.pem"), "X509_CERT_DIR=" + pki.resolve("certificates"), "gfal-copy", "-v",
                "--copy-mode", "push", door + "/gfal-push.bin", remote("/slow/gfal-pushed.bin"));
        assertEquals(0, push.exit(), push.out() + push.err());
        assertEquals(Tools.sha256(local), Tools.sha256(remoteData.resolve("slow/gfal-pushed.bin")), "byte-exact at the remote");
    }

    private static long markers(String body) {
        return body.lines().filter(l -> l.equals("Perf Marker")).count();
    }

    private static String lastLine(String body) {
        List<String> lines = body.strip().lines().toList();
        return lines.isEmpty() ? "" : lines.get(lines.size() - 1);
    }

    private static String adler32(Path file) throws IOException {
        Adler32 a = new Adler32();
        a.update(Files.readAllBytes(file));
        return String.format("%08x", a.getValue());
    }

    /** The files the pool's store holds (copies and sidecars), without uploads or fetches in progress. */
    private static Set<Path> stored() throws IOException {
        Path store = gridcache.home().resolve("pool/data");
        if (!Files.isDirectory(store)) {
            return Set.of();
        }
        try (Stream<Path> files = Files.walk(store)) {
            return files.filter(Files::isRegularFile).filter(p -> !p.toString().endsWith(".upload") && !p.toString().endsWith(".part"))
                    .collect(Collectors.toSet());
        }
    }

    /** Bytes in upload and part files in the pool's store now. */
    private static long leftoverBytes() {
        try {
            return leftovers().stream().mapToLong(p -> p.toFile().length()).sum();
        } catch (IOException | java.io.UncheckedIOException e) {
            return -1; // a directory vanished under the walk: ask again
        }
    }

    /** Upload and part files left in the pool's store. */
    private static List<Path> leftovers() throws IOException {
        Path store = gridcache.home().resolve("pool/data");
        if (!Files.isDirectory(store)) {
            return List.of();
        }
        try (Stream<Path> files = Files.walk(store)) {
            return files.filter(p -> p.toString().endsWith(".upload") || p.toString().endsWith(".part")).toList();
        }
    }
}
