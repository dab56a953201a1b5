package org.gridcache.systemtest;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Base64;
import java.util.HexFormat;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import java.util.zip.CRC32C;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Checksums through {@code gridcache standalone} in front of nginx (which offers none): {@code Want-Digest} and
 * {@code Want-Repr-Digest} on HEAD (answered by the door, no redirect to follow) and GET (by the pool), dCache's
 * {@code Checksums} PROPFIND property, gfal-sum and davix. Every expected value is computed apart from gridcache: md5sum
 * and sha256sum, Python's zlib.adler32, Java's CRC32C.
 */
@Timeout(value = 10, unit = TimeUnit.MINUTES)
class StandaloneChecksumTest {
    @TempDir
    static Path tmp;
    static NginxOrigin origin;
    static Standalone gridcache;
    static String door;
    static Path data;

    @BeforeAll
    static void start() throws Exception {
        Tools.require("curl", "nginx", "md5sum", "sha256sum", "python3");
        data = Files.createDirectories(tmp.resolve("data"));
        Tools.randomFile(data.resolve("head.bin"), 5 << 20, 11);
        Tools.randomFile(data.resolve("get.bin"), 3 << 20, 12);
        Tools.randomFile(data.resolve("repr.bin"), 100_000, 13);
        Tools.randomFile(data.resolve("prop.bin"), 70_000, 14);
        Tools.randomFile(data.resolve("cold.bin"), 1000, 15);
        Tools.randomFile(data.resolve("gfal.bin"), 2 << 20, 16);
        Tools.randomFile(data.resolve("davix.bin"), 1 << 20, 17);
        origin = NginxOrigin.start(tmp.resolve("nginx"), data);
        gridcache = Standalone.start(tmp, origin.url());
        door = gridcache.door();
    }

    @AfterAll
    static void stop() throws Exception {
        Tools.closeAll(origin, gridcache);
    }

    @Test
    void curlHeadWithWantDigestGetsDigestFromTheDoorAndTheGetThatFollowsHitsWithTheSame() throws Exception {
        String expected = "adler32=" + adler32("head.bin") + ",md5=" + md5("head.bin");
        Tools.Result head = Tools.curl("-sI", "-H", "Want-Digest: adler32, md5", door + "/head.bin").assertOk();
        assertTrue(head.out().startsWith("HTTP/1.1 200"), head.out());
        assertEquals(expected, header(head.out(), "Digest"), head.out());

        Path got = tmp.resolve("got-head.bin");
        Tools.Result get = Tools.curl("-fL", "-D", "-", "-o", got.toString(), "-H", "Want-Digest: adler32, md5", door + "/head.bin").assertOk();
        assertEquals(Tools.sha256(data.resolve("head.bin")), Tools.sha256(got));
        assertEquals(expected, header(last(get.out()), "Digest"), get.out());
        assertEquals("HIT", header(last(get.out()), "X-Cache"), "the HEAD filled the pool: " + get.out());
        assertEquals(1, origin.count("GET", "/head.bin"));
    }

    @Test
    void aGetThatMissesWaitsForTheWholeFileAndCarriesTheDigest() throws Exception {
        Path got = tmp.resolve("got-get.bin");
        Tools.Result get = Tools.curl("-fL", "-D", "-", "-o", got.toString(), "-H", "Want-Digest: md5;q=0.5, adler32;q=1", door + "/get.bin").assertOk();
        assertEquals(Tools.sha256(data.resolve("get.bin")), Tools.sha256(got));
        assertEquals("MISS", header(last(get.out()), "X-Cache"));
        assertEquals("adler32=" + adler32("get.bin") + ",md5=" + md5("get.bin"), header(last(get.out()), "Digest"), get.out());
        Tools.Result plain = Tools.curl("-fL", "-D", "-", "-o", "/dev/null", door + "/get.bin").assertOk();
        assertEquals(null, header(last(plain.out()), "Digest"), "unasked, no Digest: " + plain.out());
    }

    @Test
    void wantReprDigestGetsRfc9530ByteSequences() throws Exception {
        Tools.Result head = Tools.curl("-sI", "-H", "Want-Repr-Digest: sha-256=10, crc32c=5", door + "/repr.bin").assertOk();
        String sha = Base64.getEncoder().encodeToString(HexFormat.of().parseHex(
                Tools.run(Duration.ofSeconds(30), "sha256sum", data.resolve("repr.bin").toString()).assertOk().out().split(" ")[0]));
        CRC32C crc = new CRC32C();
        crc.update(Files.readAllBytes(data.resolve("repr.bin")));
        String crc32c = Base64.getEncoder().encodeToString(HexFormat.of().parseHex(String.format(Locale.ROOT, "%08x", crc.getValue())));
        assertEquals("sha-256=:" + sha + ":, crc32c=:" + crc32c + ":", header(head.out(), "Repr-Digest"), head.out());
        assertEquals(null, header(head.out(), "Digest"));
    }

    @Test
    void propfindChecksumsPropertyOnceAPoolHoldsTheFileElse404() throws Exception {
        String body = "<?xml version=\"1.0\"?><D:propfind xmlns:D=\"DAV:\"><D:prop xmlns:R=\"http://www.dcache.org/2013/webdav\">"
                + "<R:Checksums/></D:prop></D:propfind>";
        Tools.Result cold = Tools.curl("-X", "PROPFIND", "-H", "Depth: 0", "--data", body, door + "/cold.bin").assertOk();
        assertTrue(cold.out().contains("404") && !cold.out().contains("adler32="), cold.out());
        assertEquals(0, origin.count("GET", "/cold.bin"), "a PROPFIND fetches nothing");

        Tools.curl("-fL", "-o", "/dev/null", door + "/prop.bin").assertOk();
        String filled = "adler32=" + adler32("prop.bin") + ",crc32c=";
        Tools.await("prop.bin's checksums in PROPFIND", Duration.ofSeconds(30), () -> Tools.curl("-X", "PROPFIND", "-H", "Depth: 0",
                "--data", body, door + "/prop.bin").out().contains(">" + filled)); // what the fill computed (pool.checksums)

        // md5 is computed when a client asks for it, and kept: the property lists it from then on
        Tools.curl("-sI", "-H", "Want-Digest: md5", door + "/prop.bin").assertOk();
        String asked = "adler32=" + adler32("prop.bin") + ",md5=" + md5("prop.bin") + ",crc32c=";
        assertTrue(Tools.curl("-X", "PROPFIND", "-H", "Depth: 0", "--data", body, door + "/prop.bin").out().contains(">" + asked));
    }

    @Test
    void gfalSumGetsTheAdler32() throws Exception {
        Tools.require("gfal-sum");
        // gfal's wrapper runs the first python3 on PATH (notes/clients.md)
        Tools.Result r = Tools.run(Duration.ofMinutes(2), "env", "GFAL_PYTHONBIN=/usr/bin/python3", "gfal-sum",
                door + "/gfal.bin", "ADLER32").assertOk();
        assertTrue(r.out().trim().endsWith(" " + adler32("gfal.bin")), r.out());
    }

    @Test
    void davixHeadWithWantDigestGetsTheDigest() {
        Tools.require("davix-http");
        Tools.Result r = Tools.run(Duration.ofMinutes(2), "davix-http", "--trace", "header", "-X", "HEAD", "--header",
                "Want-Digest: adler32", door + "/davix.bin").assertOk();
        assertTrue((r.out() + r.err()).contains("< Digest: adler32=" + adler32("davix.bin")), r.out() + r.err());
    }

    private static String adler32(String name) {
        return Tools.run(Duration.ofSeconds(30), "python3", "-c",
                "import sys, zlib; print('%08x' % zlib.adler32(open(sys.argv[1], 'rb').read()))",
                data.resolve(name).toString()).assertOk().out().trim();
    }

    private static String md5(String name) {
        String hex = Tools.run(Duration.ofSeconds(30), "md5sum", data.resolve(name).toString()).assertOk().out().split(" ")[0];
        return Base64.getEncoder().encodeToString(HexFormat.of().parseHex(hex));
    }

    /** The last response's headers of curl -D - (after a redirect, curl prints both heads). */
    private static String last(String heads) {
        int i = heads.lastIndexOf("HTTP/1.1 ");
        return i < 0 ? heads : heads.substring(i);
    }

    private static String header(String head, String name) {
        for (String line : head.split("\r?\n")) {
            int colon = line.indexOf(':');
            if (colon > 0 && line.substring(0, colon).equalsIgnoreCase(name)) {
                return line.substring(colon + 1).trim();
            }
        }
        return null;
    }
}
