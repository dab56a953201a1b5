package org.gridcache.systemtest;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.time.Duration;
import java.util.Base64;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The PUT path through a pool (issue 12 item 2) with real clients, {@code gridcache standalone} in front of a writable
 * nginx WebDAV origin: a PUT carrying {@code Expect: 100-continue} is answered 307 by the door, the client re-sends
 * the body to the pool, which streams it to nginx and keeps a copy that is a hit afterwards. curl ({@code -L}),
 * davix-put and gfal-copy follow the 307 (davix even caches it for the session); cadaver (neon) is proxied by the door.
 * Checked at nginx's directory (byte-exact, or nothing), in nginx's access log and in the pool's store.
 */
@Timeout(value = 10, unit = TimeUnit.MINUTES)
class UploadsThroughAPoolTest {
    @TempDir
    static Path tmp;
    static NginxOrigin origin;
    static Standalone gridcache;
    static String door;
    static Path data;

    @BeforeAll
    static void start() throws Exception {
        Tools.require("curl", "nginx", "cadaver");
        data = Files.createDirectories(tmp.resolve("data"));
        origin = NginxOrigin.startWritable(tmp.resolve("nginx"), data);
        gridcache = Standalone.start(tmp, origin.url());
        door = gridcache.door();
    }

    @AfterAll
    static void stop() throws Exception {
        Tools.closeAll(origin, gridcache);
    }

    @Test
    void curlFollowsThe307ToThePoolTheFileLandsByteExactAndIsThenAHitWithItsDigest() throws Exception {
        Path file = Tools.randomFile(tmp.resolve("up.bin"), 3_000_000, 21);
        Tools.Result put = Tools.curl("-D", "-", "-o", "/dev/null", "-T", file.toString(), "-H", "Expect: 100-continue",
                "-L", door + "/up.bin").assertOk();
        assertTrue(put.out().contains("HTTP/1.1 307"), "the door redirects: " + put.out());
        assertTrue(put.out().contains("HTTP/1.1 100 Continue"), "the pool asks for the body once the origin is open: " + put.out());
        assertTrue(put.out().strip().lines().filter(l -> l.startsWith("HTTP/")).reduce((a, b) -> b).orElse("").contains("201"), put.out());
        assertEquals(Tools.sha256(file), Tools.sha256(data.resolve("up.bin")), "byte-exact at the origin");
        assertEquals(1, origin.count("PUT", "/up.bin"), "one PUT reached the origin: the pool's");

        Path back = tmp.resolve("up.back");
        Tools.Result get = Tools.curl("-L", "-D", "-", "-o", back.toString(), door + "/up.bin").assertOk();
        assertTrue(get.out().contains("X-Cache: HIT"), "the pool kept the upload: " + get.out());
        assertEquals(Tools.sha256(file), Tools.sha256(back));
        assertEquals(0, origin.count("GET", "/up.bin"), "read from the pool's copy, not the origin");

        Tools.Result head = Tools.curl("-I", "-H", "Want-Digest: md5, adler32", door + "/up.bin").assertOk();
        assertTrue(head.out().contains("md5=" + md5(file)), "the kept copy's md5: " + head.out());
    }

    /**
     * Issue 42 item 9: curl without -L gets the 307 and exits 0 with nothing stored, as at dCache; the 307's body,
     * which curl prints, says so and how to follow it.
     */
    @Test
    void curlWithoutFollowingIsToldTheUploadWentNowhere() throws Exception {
        Path file = Tools.randomFile(tmp.resolve("unfollowed.bin"), 100_000, 22);
        Tools.Result put = Tools.curl("-w", "\n%{http_code}", "-T", file.toString(), door + "/unfollowed.bin").assertOk();
        assertTrue(put.out().endsWith("307"), put.out());
        assertTrue(put.out().startsWith("Not stored yet: this 307 sends the upload to a pool; repeat it there "
                + "(curl -L -T FILE URL follows it)."), put.out());
        assertFalse(Files.exists(data.resolve("unfollowed.bin")), "nothing stored");
    }

    @Test
    void aWrongDigestIs400AndNothingReachesTheOriginNorTheCache() throws Exception {
        Path file = Tools.randomFile(tmp.resolve("bad.bin"), 2_000_000, 22);
        Set<Path> before = stored();
        Tools.Result put = Tools.curl("-w", "\n%{http_code}", "-T", file.toString(), "-H", "Expect: 100-continue",
                "-H", "Digest: md5=AAAAAAAAAAAAAAAAAAAAAA==", "-L", door + "/bad.bin").assertOk();
        assertTrue(put.out().strip().endsWith("400"), put.out());
        assertTrue(put.out().contains("checksum mismatch: the body's md5 is " + md5(file)), "one line saying why: " + put.out());
        assertFalse(Files.exists(data.resolve("bad.bin")), "the origin's upload was aborted before its last byte");
        assertEquals(before, stored(), "nothing kept in the pool");
    }

    /** A redirected overwrite, then a proxied one: each GET after it gets the new bytes, never the pool's older copy. */
    @Test
    void anOverwriteThroughTheDoorIsReadBackNew() throws Exception {
        Path first = Tools.randomFile(tmp.resolve("ow1.bin"), 1_500_000, 23);
        Path second = Tools.randomFile(tmp.resolve("ow2.bin"), 1_500_000, 24);
        Path third = Tools.randomFile(tmp.resolve("ow3.bin"), 1_200_000, 25);
        Path back = tmp.resolve("ow.back");
        Tools.curl("-f", "-o", "/dev/null", "-T", first.toString(), "-H", "Expect: 100-continue", "-L", door + "/ow.bin").assertOk();
        Tools.curl("-f", "-L", "-o", back.toString(), door + "/ow.bin").assertOk();
        assertEquals(Tools.sha256(first), Tools.sha256(back));

        Tools.curl("-f", "-o", "/dev/null", "-T", second.toString(), "-H", "Expect: 100-continue", "-L", door + "/ow.bin").assertOk();
        assertEquals(Tools.sha256(second), Tools.sha256(data.resolve("ow.bin")));
        Tools.curl("-f", "-L", "-o", back.toString(), door + "/ow.bin").assertOk();
        assertEquals(Tools.sha256(second), Tools.sha256(back), "redirected overwrite: the new bytes");

        // without Expect the door proxies the PUT; the pool's copy of the second upload must not be served after it
        Tools.curl("-f", "-o", "/dev/null", "-H", "Expect:", "-T", third.toString(), door + "/ow.bin").assertOk();
        assertEquals(Tools.sha256(third), Tools.sha256(data.resolve("ow.bin")));
        Tools.curl("-f", "-L", "-o", back.toString(), door + "/ow.bin").assertOk();
        assertEquals(Tools.sha256(third), Tools.sha256(back), "proxied overwrite: the new bytes");
    }

    @Test
    void cadaverIsProxiedByTheDoor() throws Exception {
        Path file = Tools.randomFile(tmp.resolve("cad.bin"), 2_000_000, 26);
        Tools.Result r = Tools.runWithInput(Duration.ofSeconds(120), "put " + file + " cad.bin\n", "cadaver", door + "/");
        assertEquals(Tools.sha256(file), Tools.sha256(data.resolve("cad.bin")), "byte-exact at the origin: " + r.out() + r.err());
        assertFalse(gridcache.output().contains("PUT /cad.bin by anonymous -> 307"), "neon cannot follow a 307 on PUT");
        assertFalse(gridcache.output().contains("PUT /cad.bin by anonymous:"), "the pool never saw it");
    }

    /**
     * A client that breaks off mid-upload (curl slowed down and killed once the pool has part of the body): nginx
     * drops its temporary file, the pool its copy, and neither the origin's directory nor the store keeps a byte.
     */
    @Test
    void aClientThatBreaksOffLeavesNothingAtTheOriginAndNothingCached() throws Exception {
        Path file = Tools.randomFile(tmp.resolve("gone.bin"), 5_000_000, 27);
        // an earlier test's read may still be filling (its fsync and commit come after the client's last byte)
        Tools.await("no fill under way", Duration.ofSeconds(30)).until(() -> stored().stream().noneMatch(p -> p.toString().endsWith(".part")));
        Set<Path> before = stored();
        Process curl = new ProcessBuilder("curl", "-sS", "--max-time", "120", "--limit-rate", "500K", "-T", file.toString(),
                "-H", "Expect: 100-continue", "-L", door + "/gone.bin")
                .redirectOutput(ProcessBuilder.Redirect.DISCARD).redirectError(ProcessBuilder.Redirect.DISCARD).start();
        try {
            Tools.await("part of the body at the pool", Duration.ofSeconds(60), () -> uploadsInTheStore() > 0);
        } finally {
            curl.destroyForcibly().waitFor();
        }
        Tools.await("the pool to drop the upload", Duration.ofSeconds(30), () -> uploadsInTheStore() == 0);
        Tools.await("the origin to see the PUT fail", Duration.ofSeconds(30)).until(() -> origin.count("PUT", "/gone.bin") == 1);
        assertFalse(Files.exists(data.resolve("gone.bin")), "nothing at the origin");
        try (Stream<Path> left = Files.list(tmp.resolve("nginx/tmp/body"))) {
            assertEquals(List.of(), left.toList(), "nginx dropped its temporary file");
        }
        assertEquals(before, stored(), "nothing cached");
        assertEquals("404", Tools.curl("-o", "/dev/null", "-w", "%{http_code}", "-I", door + "/gone.bin").assertOk().out());
    }

    @Test
    void davixPutFollowsThe307() throws Exception {
        Tools.require("davix-put");
        Path file = Tools.randomFile(tmp.resolve("davix.bin"), 2_500_000, 28);
        Tools.Result r = Tools.run(Duration.ofMinutes(2), "davix-put", "--debug", file.toString(), door + "/davix.bin").assertOk();
        assertTrue((r.out() + r.err()).contains("< HTTP/1.1 307"), r.err());
        assertEquals(Tools.sha256(file), Tools.sha256(data.resolve("davix.bin")));
        assertTrue(gridcache.output().contains("PUT /davix.bin by anonymous: 2500000 bytes, origin 201, kept as a hit"),
                "uploaded through the pool");
    }

    @Test
    void gfalCopyFollowsThe307() throws Exception {
        Tools.require("gfal-copy");
        Path file = Tools.randomFile(tmp.resolve("gfal.bin"), 2_500_000, 29);
        // gfal's wrapper runs the first python3 on PATH (notes/clients.md); file:// needs gfal2-plugin-file
        Tools.run(Duration.ofMinutes(2), "env", "GFAL_PYTHONBIN=/usr/bin/python3", "gfal-copy", "-f", "file://" + file,
                door + "/gfal.bin").assertOk();
        assertEquals(Tools.sha256(file), Tools.sha256(data.resolve("gfal.bin")));
        assertTrue(gridcache.output().contains("PUT /gfal.bin by anonymous: 2500000 bytes, origin 201, kept as a hit"),
                "uploaded through the pool");
    }

    /** The files the pool's store holds (copies and sidecars), without uploads in progress. */
    private static Set<Path> stored() throws IOException {
        Path store = gridcache.home().resolve("pool/data");
        if (!Files.isDirectory(store)) {
            return Set.of();
        }
        try (Stream<Path> files = Files.walk(store)) {
            return files.filter(Files::isRegularFile).filter(p -> !p.toString().endsWith(".upload")).collect(Collectors.toSet());
        }
    }

    private static long uploadsInTheStore() {
        Path store = gridcache.home().resolve("pool/data");
        if (!Files.isDirectory(store)) {
            return 0;
        }
        try (Stream<Path> files = Files.walk(store)) {
            return files.filter(p -> p.toString().endsWith(".upload")).filter(p -> p.toFile().length() > 0).count();
        } catch (IOException | java.io.UncheckedIOException e) {
            return 0; // a directory vanished under the walk: ask again
        }
    }

    private static String md5(Path file) throws Exception {
        return Base64.getEncoder().encodeToString(MessageDigest.getInstance("MD5").digest(Files.readAllBytes(file)));
    }
}
