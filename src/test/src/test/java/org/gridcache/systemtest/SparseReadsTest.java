package org.gridcache.systemtest;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.RandomAccessFile;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The sparse block cache against a real nginx origin: scattered ranges of a 1 GiB file fetch only their blocks
 * (nginx's access log counts the bytes), come back byte-exact, are hits the second time and after a pool restart;
 * a full read then fetches and verifies the whole file, which becomes a complete hit. A block read the origin fails
 * is a 502 and stores nothing.
 */
@Timeout(value = 8, unit = TimeUnit.MINUTES)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class SparseReadsTest {
    private static final long SIZE = 1L << 30;
    private static final int RANGES = 40;
    private static final int RANGE_LENGTH = 1 << 20;
    private static final int BLOCK = 128 << 10; // pool.block-size's default
    @TempDir
    static Path tmp;
    static NginxOrigin origin;
    static Standalone gridcache;
    static Path data;
    static final List<long[]> ranges = new ArrayList<>();

    @BeforeAll
    static void start() throws Exception {
        Tools.require("curl", "nginx");
        data = Files.createDirectories(tmp.resolve("data"));
        sparseIsh(data.resolve("big.bin"));
        Tools.randomFile(data.resolve("flaky/f.bin"), 32 << 20, 7);
        Tools.randomFile(data.resolve("slow/s.bin"), 64 << 20, 8);
        Tools.randomFile(data.resolve("small.bin"), 1 << 20, 9);
        Tools.randomFile(data.resolve("switch.bin"), 32 << 20, 10);
        Random random = new Random(14);
        for (int i = 0; i < RANGES; i++) { // 40 MiB of 1 GiB, unaligned: about 4 %
            long start = (long) (random.nextDouble() * (SIZE - RANGE_LENGTH));
            ranges.add(new long[] {start, start + RANGE_LENGTH - 1});
        }
        // /flaky/ serves whole files but fails every Range, as an origin that breaks during a block read
        origin = new NginxOrigin(tmp.resolve("nginx"), data, "0", true, """
                location /flaky/ { dav_ext_methods PROPFIND OPTIONS; if ($http_range) { return 503; } }
                location /slow/ { dav_ext_methods PROPFIND OPTIONS; sendfile off; output_buffers 2 32k; limit_rate 1m; }
                """, "");
        origin.start();
        gridcache = Standalone.start(tmp, origin.url());
    }

    /** 1 GiB of holes with 64 KiB of random bytes at the start of every MiB: every block differs from its neighbours. */
    private static void sparseIsh(Path file) throws Exception {
        Random random = new Random(1);
        byte[] patch = new byte[64 << 10];
        try (RandomAccessFile f = new RandomAccessFile(file.toFile(), "rw")) {
            f.setLength(SIZE);
            for (long at = 0; at < SIZE; at += 1 << 20) {
                random.nextBytes(patch);
                f.seek(at + random.nextInt(900 << 10));
                f.write(patch);
            }
        }
    }

    @AfterAll
    static void stop() throws Exception {
        Tools.closeAll(origin, gridcache);
    }

    private static byte[] expected(long[] range) throws Exception {
        byte[] bytes = new byte[(int) (range[1] - range[0] + 1)];
        try (RandomAccessFile f = new RandomAccessFile(data.resolve("big.bin").toFile(), "r")) {
            f.seek(range[0]);
            f.readFully(bytes);
        }
        return bytes;
    }

    /** Reads every range through door and pool; returns how many were X-Cache: HIT. */
    private static int readRanges() throws Exception {
        int hits = 0;
        Path out = tmp.resolve("range.out");
        for (long[] range : ranges) {
            Tools.Result r = Tools.curl("-fL", "-D", "-", "-r", range[0] + "-" + range[1], "-o", out.toString(),
                    gridcache.door() + "/big.bin").assertOk();
            assertTrue(r.out().contains("HTTP/1.1 206"), r.out());
            assertTrue(Arrays.equals(expected(range), Files.readAllBytes(out)), "bytes of " + range[0] + "-" + range[1]);
            hits += r.out().contains("X-Cache: HIT") ? 1 : 0;
        }
        return hits;
    }

    @Test
    @Order(1)
    void scatteredRangesFetchOnlyTheirBlocksAndAreHitsTheSecondTime() throws Exception {
        assertEquals(0, readRanges(), "every range was cold");
        long fetched = origin.bytesSent("GET", "/big.bin");
        long read = (long) RANGES * RANGE_LENGTH;
        assertTrue(fetched >= read, "the origin sent at least what was read: " + fetched);
        assertTrue(fetched <= SIZE / 20, "read " + read + " bytes (" + 100.0 * read / SIZE + " %), fetched " + fetched
                + " (" + 100.0 * fetched / SIZE + " %): at most 5 %");
        System.out.printf("SparseReadsTest: read %d bytes (%.2f %%) by %d ranges, the origin sent %d (%.2f %%)%n", read,
                100.0 * read / SIZE, RANGES, fetched, 100.0 * fetched / SIZE);
        assertEquals(RANGES, readRanges(), "every range again: all hits");
        assertEquals(fetched, origin.bytesSent("GET", "/big.bin"), "no origin bytes for ranges read before");
    }

    @Test
    @Order(2)
    void aVectorReadOfStoredAndMissingBlocksIsOneMultipartAnswer() throws Exception {
        long[] stored = ranges.get(3);
        long[][] asked = {{stored[0], stored[0] + 99}, {5_000_000, 5_000_099}};
        Path out = tmp.resolve("vector.out");
        Tools.Result r = Tools.curl("-fL", "-D", "-", "-r", asked[0][0] + "-" + asked[0][1] + "," + asked[1][0] + "-" + asked[1][1],
                "-o", out.toString(), gridcache.door() + "/big.bin").assertOk();
        assertTrue(r.out().contains("multipart/byteranges"), r.out());
        byte[] body = Files.readAllBytes(out);
        String text = new String(body, StandardCharsets.ISO_8859_1);
        for (long[] range : asked) {
            String partHead = "Content-Range: bytes " + range[0] + "-" + range[1] + "/" + SIZE + "\r\n\r\n";
            int at = text.indexOf(partHead) + partHead.length();
            assertTrue(at >= partHead.length(), "part " + range[0] + "-" + range[1]);
            assertTrue(Arrays.equals(expected(range), Arrays.copyOfRange(body, at, at + 100)), "bytes of " + range[0]);
        }
    }

    @Test
    @Order(3)
    void aRestartKeepsTheBlocks() throws Exception {
        long fetched = origin.bytesSent("GET", "/big.bin");
        gridcache.close();
        gridcache = Standalone.start(tmp, origin.url());
        assertEquals(RANGES, readRanges(), "every range a hit after the restart");
        assertEquals(fetched, origin.bytesSent("GET", "/big.bin"), "no origin bytes for blocks kept across the restart");
    }

    @Test
    @Order(4)
    void aFullReadFetchesOnlyTheMissingBlocksAndMakesTheFileACompleteHit() throws Exception {
        long before = origin.bytesSent("GET", "/big.bin");
        java.util.BitSet stored = new java.util.BitSet();
        List<long[]> read = new ArrayList<>(ranges);
        read.add(new long[] {ranges.get(3)[0], ranges.get(3)[0] + 99}); // the vector read's two ranges
        read.add(new long[] {5_000_000, 5_000_099});
        for (long[] range : read) {
            stored.set((int) (range[0] / BLOCK), (int) (range[1] / BLOCK) + 1);
        }
        Path out = tmp.resolve("full.out");
        Tools.Result r = Tools.curl("-fL", "-D", "-", "-o", out.toString(), gridcache.door() + "/big.bin").assertOk();
        assertTrue(r.out().contains("HTTP/1.1 200") && r.out().contains("X-Cache: MISS"), r.out());
        assertTrue(r.out().contains("Cache-Status: gridcache; fwd=partial; stored"), r.out());
        assertEquals(Tools.sha256(data.resolve("big.bin")), Tools.sha256(out));
        assertEquals(before + SIZE - (long) stored.cardinality() * BLOCK, origin.bytesSent("GET", "/big.bin"),
                "only the " + (SIZE / BLOCK - stored.cardinality()) + " blocks the store lacked");
        Files.delete(out);
        Tools.await("big.bin to be a complete hit", java.time.Duration.ofSeconds(60), () -> Tools.curl("-sL", "-D", "-",
                "-o", "/dev/null", "-H", "Want-Digest: adler32", "-r", "0-0", gridcache.door() + "/big.bin").out().contains("X-Cache: HIT"));
        Tools.Result digest = Tools.curl("-fL", "-I", "-H", "Want-Digest: adler32", gridcache.door() + "/big.bin").assertOk();
        assertTrue(digest.out().toLowerCase().contains("digest: adler32="), "checksums kept with the complete copy: " + digest.out());
        assertEquals(RANGES, readRanges(), "ranges of the complete copy");
        assertEquals(before + SIZE - (long) stored.cardinality() * BLOCK, origin.bytesSent("GET", "/big.bin"));
        gridcache.close();
        gridcache = Standalone.start(tmp, origin.url());
        Tools.Result again = Tools.curl("-fL", "-D", "-", "-o", "/dev/null", gridcache.door() + "/big.bin").assertOk();
        assertTrue(again.out().contains("X-Cache: HIT") && again.out().contains("Cache-Status: gridcache; hit"),
                "complete after a restart: " + again.out());
    }

    @Test
    @Order(5)
    void aBlockReadTheOriginFailsIs502AndStoresNothing() throws Exception {
        String url = gridcache.door() + "/flaky/f.bin";
        for (int i = 1; i <= 2; i++) {
            Tools.Result r = Tools.curl("-sL", "-r", "1000-1999", "-o", "/dev/null", "-w", "%{http_code}", url);
            assertEquals("502", r.out().trim());
            assertEquals(i, origin.count("GET", "/flaky/f.bin"), "nothing stored: the origin is asked again");
        }
        Path out = tmp.resolve("flaky.out");
        Tools.curl("-fL", "-o", out.toString(), url).assertOk();
        assertEquals(Tools.sha256(data.resolve("flaky/f.bin")), Tools.sha256(out), "the whole file is served as before");
    }

    /** Clients asking at once for the same cold range: one origin read, the later ones joining it (X-Cache: MISS). */
    @Test
    @Order(6)
    void concurrentRequestsForOneBlockAreOneOriginRead() throws Exception {
        String url = gridcache.door() + "/slow/s.bin";
        long[] range = {20_000_000, 20_000_000 + (4 << 20) - 1}; // about 4 s at the origin's 1 MiB/s: the others join
        List<java.util.concurrent.CompletableFuture<Tools.Result>> reads = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            Path out = tmp.resolve("slow-" + i);
            reads.add(java.util.concurrent.CompletableFuture.supplyAsync(() -> Tools.curl("-fL", "-D", "-", "-r",
                    range[0] + "-" + range[1], "-o", out.toString(), url)));
        }
        byte[] expected = new byte[(int) (range[1] - range[0] + 1)];
        try (RandomAccessFile f = new RandomAccessFile(data.resolve("slow/s.bin").toFile(), "r")) {
            f.seek(range[0]);
            f.readFully(expected);
        }
        int misses = 0;
        for (int i = 0; i < 3; i++) {
            Tools.Result r = reads.get(i).get().assertOk();
            assertTrue(Arrays.equals(expected, Files.readAllBytes(tmp.resolve("slow-" + i))), "client " + i);
            misses += r.out().contains("X-Cache: MISS") ? 1 : 0;
            assertTrue(r.out().contains("Cache-Status: gridcache; fwd=partial; stored"), "a block read, not a whole-file "
                    + "fetch: " + r.out());
        }
        assertEquals(1, origin.count("GET", "/slow/s.bin"), "one origin read for the three clients");
        assertTrue(misses >= 2, "at least one client joined the read in flight: " + misses + " misses");
    }

    /**
     * A Range of most of a small file is a block read too (no size or share decides it): only its blocks are fetched,
     * kept, and the same range again is a hit.
     */
    @Test
    @Order(7)
    void aRangeOfMostOfASmallFileIsABlockReadAndKept() throws Exception {
        String url = gridcache.door() + "/small.bin";
        long[] range = {100_000, 899_999}; // 76 % of 1 MiB: blocks 0-6, 917504 bytes
        byte[] all = Files.readAllBytes(data.resolve("small.bin"));
        Path out = tmp.resolve("small.out");
        for (String cache : new String[] {"MISS", "HIT"}) {
            Tools.Result r = Tools.curl("-fL", "-D", "-", "-r", range[0] + "-" + range[1], "-o", out.toString(), url).assertOk();
            assertTrue(r.out().contains("X-Cache: " + cache), r.out());
            assertTrue(r.out().contains(cache.equals("MISS") ? "Cache-Status: gridcache; fwd=partial; stored"
                    : "Cache-Status: gridcache; hit"), r.out());
            assertTrue(Arrays.equals(Arrays.copyOfRange(all, (int) range[0], (int) range[1] + 1), Files.readAllBytes(out)));
        }
        assertEquals(1, origin.count("GET", "/small.bin"), "one origin read, the second range a hit");
        assertEquals(7L << 17, origin.bytesSent("GET", "/small.bin"), "its seven blocks, not the whole file");
    }

    /**
     * A whole read from blocks whose partial file is dropped under it, after its head went out, by a whole-file fetch
     * of the same version committing (a {@code Want-Digest} GET is one): the rest of the body goes from that complete
     * copy, and the slow client gets the whole file, byte-exact, rather than a connection closed mid-body.
     */
    @Test
    @Order(8)
    void aWholeReadWhoseBlocksGoForACompleteCopyGoesOnFromIt() throws Exception {
        String url = gridcache.door() + "/switch.bin";
        Tools.curl("-fL", "-r", "0-999", "-o", "/dev/null", url).assertOk(); // a block of it: the next whole read is from blocks
        Path slow = tmp.resolve("switch-slow");
        CompletableFuture<Tools.Result> reader = CompletableFuture.supplyAsync(() -> Tools.curl("-fL", "-D", "-",
                "--limit-rate", "4M", "-o", slow.toString(), url));
        Tools.await("the slow whole read's first MiB", java.time.Duration.ofSeconds(60), () -> slow.toFile().length() > 1 << 20);
        Path whole = tmp.resolve("switch-whole");
        Tools.Result fetched = Tools.curl("-fL", "-D", "-", "-H", "Want-Digest: adler32", "-o", whole.toString(), url).assertOk();
        assertTrue(fetched.out().contains("X-Cache: MISS"), "a whole-file fetch: " + fetched.out());
        Tools.Result r = reader.get(120, TimeUnit.SECONDS).assertOk();
        assertTrue(r.out().contains("Cache-Status: gridcache; fwd=partial"), "read from blocks: " + r.out());
        String expected = Tools.sha256(data.resolve("switch.bin"));
        assertEquals(expected, Tools.sha256(whole));
        assertEquals(expected, Tools.sha256(slow), "the slow read, whole and byte-exact");
        assertTrue(Tools.readLog(gridcache.home().resolve("logs/standalone.log"))
                .contains("/switch.bin: its blocks went for a complete copy"), "it went on from the complete copy");
    }
}
