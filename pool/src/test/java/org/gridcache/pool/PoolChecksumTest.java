package org.gridcache.pool;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.time.Duration;
import java.util.Base64;
import java.util.Locale;
import java.util.Map;
import java.util.zip.Adler32;
import java.util.zip.CRC32C;
import org.gridcache.common.Json;
import org.gridcache.pool.store.StoreKey;
import org.junit.jupiter.api.Test;

/**
 * Checksums at the pool: computed while a file fills ({@code pool.checksums}: adler32 and crc32c by default), any other
 * computed when first asked for; all kept in the file's sidecar, answered to {@code Want-Digest} and
 * {@code Want-Repr-Digest} on a hit and on a miss once the file is complete; an origin's {@code Digest} verified
 * against the fill.
 */
class PoolChecksumTest extends PoolTestSupport {
    private static final String WANT = "adler32, md5";

    private static String adler32(byte[] b) {
        Adler32 a = new Adler32();
        a.update(b);
        return String.format(Locale.ROOT, "%08x", a.getValue());
    }

    private static String crc32c(byte[] b) {
        CRC32C c = new CRC32C();
        c.update(b);
        return String.format(Locale.ROOT, "%08x", c.getValue());
    }

    private static byte[] digest(String algorithm, byte[] b) throws Exception {
        return MessageDigest.getInstance(algorithm).digest(b);
    }

    private static String md5(byte[] b) throws Exception {
        return Base64.getEncoder().encodeToString(digest("MD5", b));
    }

    private static String digestOf(HttpResponse<?> r) {
        return r.headers().firstValue("Digest").orElse(null);
    }

    private HttpResponse<byte[]> head(String path, byte[] expected, String... headers) throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(uri(path, ticket(path, origin.url(path), expected.length)))
                .method("HEAD", HttpRequest.BodyPublishers.noBody()).timeout(Duration.ofSeconds(60));
        if (headers.length > 0) {
            b.headers(headers);
        }
        return http.send(b.build(), HttpResponse.BodyHandlers.ofByteArray());
    }

    @Test
    void aMissComputesTheCheapOnesAndWhatIsAskedForAndAHitAnswersFromTheSidecar() throws Exception {
        startPool(1 << 20);
        byte[] data = randomBytes(300_000, 1);
        origin.serve("/f", data);

        HttpResponse<byte[]> miss = fetch("/f", data, "Want-Digest", WANT);
        assertEquals(200, miss.statusCode());
        assertEquals("MISS", cache(miss));
        assertArrayEquals(data, miss.body());
        // the head waited for the whole file, and md5 (not computed by the fill) computed from it
        assertEquals("adler32=" + adler32(data) + ",md5=" + md5(data), digestOf(miss));
        assertEquals("adler32, md5;q=0.8, sha-256;q=0.6, crc32c;q=0.4", origin.wantDigest("/f"),
                "the origin is asked for what it keeps");
        assertEquals(Map.of("adler32", adler32(data), "crc32c", crc32c(data),
                "md5", java.util.HexFormat.of().formatHex(digest("MD5", data))), keptChecksums("/f"));

        HttpResponse<byte[]> hit = fetch("/f", data, "Want-Digest", "MD5;q=0.5, ADLER32");
        assertEquals("HIT", cache(hit));
        assertEquals("adler32=" + adler32(data) + ",md5=" + md5(data), digestOf(hit));
        assertEquals(1, pool.store().counters().checksumComputationsOnDemand(), "md5 once, for the miss");
        HttpResponse<byte[]> repr = fetch("/f", data, "Want-Repr-Digest", "sha-256=10, crc32c=1");
        assertEquals("sha-256=:" + Base64.getEncoder().encodeToString(digest("SHA-256", data)) + ":, crc32c=:"
                + Base64.getEncoder().encodeToString(java.util.HexFormat.of().parseHex(crc32c(data))) + ":",
                repr.headers().firstValue("Repr-Digest").orElse(null));
        assertEquals(null, digestOf(repr));
        assertEquals(2, pool.store().counters().checksumComputationsOnDemand(), "then sha-256, for this hit");
        assertEquals(Map.of("adler32", adler32(data), "crc32c", crc32c(data),
                "md5", java.util.HexFormat.of().formatHex(digest("MD5", data)),
                "sha-256", java.util.HexFormat.of().formatHex(digest("SHA-256", data))), keptChecksums("/f"));
        assertEquals(null, digestOf(fetch("/f", data)), "no Digest unasked");
        assertEquals(1, origin.gets("/f"));
    }

    @Test
    void headOfAnUncachedFileFillsItAndAnswersTheDigest() throws Exception {
        startPool(1 << 20);
        byte[] data = randomBytes(70_000, 2);
        origin.serve("/h", data);
        HttpResponse<byte[]> r = head("/h", data, "Want-Digest", "adler32");
        assertEquals(200, r.statusCode());
        assertEquals("adler32=" + adler32(data), digestOf(r));
        assertEquals(data.length, r.headers().firstValueAsLong("Content-Length").orElse(-1));
        awaitCommitted("/h");
        assertEquals("HIT", cache(head("/h", data, "Want-Digest", "adler32")));
        assertEquals(1, origin.gets("/h"));
    }

    @Test
    void theOnlyIfCachedQuestionAnswersTheSidecarsChecksumsAndNeverFetches() throws Exception {
        startPool(1 << 20);
        byte[] data = randomBytes(4000, 7);
        origin.serve("/q", data);
        String[] question = {"X-Gridcache-Only-If-Cached", "1", "Want-Digest", "adler32, md5, sha-256, crc32c"};
        assertEquals(404, head("/q", data, question).statusCode());
        assertEquals(0, origin.gets("/q"));
        fetch("/q", data);
        HttpResponse<byte[]> held = head("/q", data, question);
        assertEquals(200, held.statusCode());
        assertEquals("adler32=" + adler32(data) + ",crc32c=" + crc32c(data), digestOf(held), "what the sidecar holds, nothing computed");
        assertEquals(0, pool.store().counters().checksumComputationsOnDemand());
        fetch("/q", data, "Want-Digest", "sha-256");
        assertEquals("adler32=" + adler32(data) + ",sha-256=" + Base64.getEncoder().encodeToString(digest("SHA-256", data))
                + ",crc32c=" + crc32c(data), digestOf(head("/q", data, question)), "and what was computed since");
        assertEquals(1, origin.gets("/q"));
    }

    @Test
    void poolChecksumsChoosesWhatAFillComputes() throws Exception {
        startPool(1 << 20);
        byte[] data = randomBytes(6000, 8);
        int[] attempt = {0};
        try {
            org.gridcache.zk.ClusterConfig.set(zk, "pool.checksums", "md5, sha-256");
            // each try a new file, so that each is a fill that reads the setting as the pool has it then
            Map<String, String> kept = org.awaitility.Awaitility.await().atMost(WAIT).alias("pool.checksums=md5,sha-256 at the pool")
                    .until(() -> {
                        String path = "/some" + attempt[0]++;
                        origin.serve(path, data);
                        fetch(path, data); // no one asks
                        awaitCommitted(path);
                        return keptChecksums(path);
                    }, k -> k.containsKey("sha-256"));
            assertEquals(Map.of("md5", java.util.HexFormat.of().formatHex(digest("MD5", data)),
                    "sha-256", java.util.HexFormat.of().formatHex(digest("SHA-256", data))), kept);
            assertEquals(0, pool.store().counters().checksumComputationsOnDemand());
        } finally {
            org.gridcache.zk.ClusterConfig.unset(zk, "pool.checksums");
        }
    }

    @Test
    void restartKeepsTheChecksums() throws Exception {
        Path store = dir.resolve("store");
        startPool(1 << 20, store);
        byte[] data = randomBytes(5000, 3);
        origin.serve("/kept", data);
        assertEquals("MISS", cache(fetch("/kept", data))); // adler32 and crc32c computed without anyone asking
        assertEquals("md5=" + md5(data), digestOf(fetch("/kept", data, "Want-Digest", "md5"))); // md5 for the one who asks
        pool.close();
        pool = null;

        startPool(1 << 20, store);
        HttpResponse<byte[]> hit = fetch("/kept", data, "Want-Digest", "adler32, md5, crc32c");
        assertEquals("HIT", cache(hit));
        assertEquals("adler32=" + adler32(data) + ",md5=" + md5(data) + ",crc32c=" + crc32c(data), digestOf(hit));
        assertEquals(0, pool.store().counters().checksumComputationsOnDemand(), "all three from the sidecar");
        assertEquals(1, origin.gets("/kept"));
    }

    @Test
    void aChecksumThatCannotBeComputedIsLeftOutAndTheOthersAnswered() throws Exception {
        startPool(1 << 20);
        byte[] data = stored("/cut", 50_000, 9);
        Path stored = sidecarOf("/cut").resolveSibling(sidecarOf("/cut").getFileName().toString().replace(".json", ""));
        try (java.nio.channels.FileChannel f = java.nio.channels.FileChannel.open(stored, java.nio.file.StandardOpenOption.WRITE)) {
            f.truncate(20_000); // behind the pool's back: md5 cannot be computed from it
        }
        HttpResponse<byte[]> r = head("/cut", data, "Want-Digest", "md5, adler32");
        assertEquals(200, r.statusCode());
        assertEquals("adler32=" + adler32(data), digestOf(r), "what the sidecar holds; no md5 of a short file");
        assertEquals(Map.of("adler32", adler32(data), "crc32c", crc32c(data)), keptChecksums("/cut"));
    }

    @Test
    void aClientThatLeavesWhileItsChecksumIsComputedLeavesItKeptAndThePoolServing() throws Exception {
        startPool(1 << 20);
        byte[] data = stored("/gone", 300_000, 10);
        org.gridcache.pool.store.ChecksumsOnDemand onDemand = pool.checksumsOnDemand();
        java.util.concurrent.CountDownLatch release = new java.util.concurrent.CountDownLatch(1);
        java.util.concurrent.CountDownLatch holding = new java.util.concurrent.CountDownLatch(onDemand.threads());
        try {
            for (int i = 0; i < onDemand.threads(); i++) { // every computation waits until the client has gone
                onDemand.readers().execute(() -> {
                    holding.countDown();
                    awaitQuietly(release);
                });
            }
            assertTrue(holding.await(WAIT.toSeconds(), java.util.concurrent.TimeUnit.SECONDS), "every reader held");
            java.net.URI u = uri("/gone", ticket("/gone", origin.url("/gone"), data.length));
            try (java.net.Socket s = new java.net.Socket(u.getHost(), u.getPort())) {
                s.setSoLinger(true, 0); // the close resets the connection: gone (a FIN alone is a half-close the pool answers)
                s.getOutputStream().write(("HEAD " + u.getRawPath() + "?" + u.getRawQuery() + " HTTP/1.1\r\nHost: " + u.getHost()
                        + "\r\nWant-Digest: md5, sha-256\r\n\r\n").getBytes(java.nio.charset.StandardCharsets.US_ASCII));
                s.getOutputStream().flush();
                org.awaitility.Awaitility.await().atMost(WAIT).alias("the HEAD under way").until(() -> pool.activeMovers() == 1);
            } // gone before its head
            org.awaitility.Awaitility.await().atMost(WAIT).alias("the transfer ended").until(() -> pool.activeMovers() == 0);
            assertEquals(0, pool.store().counters().checksumComputationsOnDemand(), "not computed yet");
        } finally {
            release.countDown();
        }
        org.awaitility.Awaitility.await().atMost(WAIT).alias("sha-256 kept all the same").until(() -> keptChecksums("/gone").containsKey("sha-256"));
        assertEquals(java.util.HexFormat.of().formatHex(digest("MD5", data)), keptChecksums("/gone").get("md5"));
        assertEquals("sha-256=" + Base64.getEncoder().encodeToString(digest("SHA-256", data)),
                digestOf(head("/gone", data, "Want-Digest", "sha-256")), "the pool answers the next client from the sidecar");
        assertEquals(1, pool.store().counters().checksumComputationsOnDemand());
    }

    /** A file the pool has fetched and committed, with what its fill computed. */
    private byte[] stored(String path, int size, long seed) throws Exception {
        byte[] data = randomBytes(size, seed);
        origin.serve(path, data);
        fetch(path, data);
        awaitCommitted(path);
        return data;
    }

    @SuppressWarnings("unchecked")
    private Map<String, String> keptChecksums(String path) throws Exception {
        return (Map<String, String>) Json.read(Files.readAllBytes(sidecarOf(path)), Map.class).get("checksums");
    }

    @Test
    void anOriginDigestThatAgreesIsKept() throws Exception {
        startPool(1 << 20);
        byte[] data = randomBytes(9000, 4);
        origin.serve("/ok", data, "Digest: ADLER32=" + adler32(data).toUpperCase(Locale.ROOT) + ",md5=" + md5(data) + "\r\n");
        HttpResponse<byte[]> r = fetch("/ok", data, "Want-Digest", "md5");
        assertEquals(200, r.statusCode());
        assertEquals("md5=" + md5(data), digestOf(r));
        assertEquals(0, pool.store().counters().checksumMismatches());
    }

    @Test
    void anOriginDigestMismatchIsNotCommittedAnd502() throws Exception {
        startPool(1 << 20);
        byte[] data = randomBytes(9000, 5);
        byte[] other = randomBytes(9000, 6);
        origin.serve("/bad", data, "Digest: md5=" + md5(other) + "\r\n");

        HttpResponse<byte[]> r = get("/bad", ticket("/bad", origin.url("/bad"), data.length), "Want-Digest", "adler32");
        assertEquals(502, r.statusCode());
        assertEquals("checksum mismatch: origin http://127.0.0.1:" + origin.url("").split(":")[2] + " gave md5=" + md5(other)
                + ", the pool received md5=" + md5(data) + " (file discarded)", body(r).trim());
        assertFalse(pool.store().contains(StoreKey.ofOrigin(origin.url("/bad"))));
        assertEquals(0, filesUnder(dir.resolve("store"), ".part"));
        assertEquals(1, pool.store().counters().checksumMismatches());
        assertTrue(body(get("/.gridcache/metrics", null)).contains("gridcache_pool_checksum_mismatches_total{pool=\"" + poolName + "\"} 1.0"));

        // a client that asked for nothing had its head already: its connection is cut, never a complete-looking answer
        try {
            HttpResponse<byte[]> plain = get("/bad", ticket("/bad", origin.url("/bad"), data.length));
            assertTrue(plain.body().length < data.length, "a short body at most");
        } catch (java.io.IOException expected) {
            // the usual outcome: the connection closed before Content-Length bytes
        }
        assertFalse(pool.store().contains(StoreKey.ofOrigin(origin.url("/bad"))));
        assertEquals(2, pool.store().counters().checksumMismatches());
    }

    private Path sidecarOf(String path) throws Exception {
        String hex = sha256(origin.url(path).getBytes(java.nio.charset.StandardCharsets.UTF_8)); // a store key: the SHA-256 of the origin URL
        return dir.resolve("store/data").resolve(hex.substring(0, 2)).resolve(hex.substring(2, 4)).resolve(hex + ".json");
    }
}
