package org.gridcache.pool;

import static org.awaitility.Awaitility.await;
import org.gridcache.common.settings.ClusterSettings.Keys;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import org.gridcache.common.settings.ClusterSettings;
import org.gridcache.pool.store.Store;
import org.gridcache.zk.ClusterConfig;
import org.junit.jupiter.api.Test;

/** The pool's disk through the pool: eviction, a store full of pinned data, restart. */
class PoolStoreTest extends PoolTestSupport {

    @Test
    void evictsTheLeastRecentlyUsedFileBeyondTheHighWatermark() throws Exception {
        startPool(1000); // watermarks 0.95 / 0.90 by default: at most 950 bytes before eviction starts
        byte[][] files = new byte[4][];
        for (int i = 0; i < 4; i++) {
            files[i] = randomBytes(300, 20 + i);
            origin.serve("/f" + i, files[i]);
        }
        fetch("/f0", files[0]);
        fetch("/f1", files[1]);
        fetch("/f2", files[2]);
        assertEquals("HIT", cache(fetch("/f0", files[0]))); // f0 is now more recent than f1

        assertEquals("MISS", cache(fetch("/f3", files[3]))); // 900 + 300 > 950: the oldest (f1) goes
        assertEquals(900, pool.store().used());
        assertEquals("HIT", cache(fetch("/f0", files[0])));
        assertEquals("HIT", cache(fetch("/f2", files[2])));
        assertEquals("HIT", cache(fetch("/f3", files[3])));
        HttpResponse<byte[]> again = fetch("/f1", files[1]);
        assertEquals("MISS", cache(again));
        assertArrayEquals(files[1], again.body());
        assertEquals(2, origin.gets("/f1"));
        assertEquals(1, origin.gets("/f0"));
    }

    @Test
    void storeFullOfPinnedDataIs507() throws Exception {
        startPool(1000);
        byte[] big = randomBytes(800, 30);
        CountDownLatch gate = new CountDownLatch(1);
        origin.serveGated("/big", big, 100, gate);
        CompletableFuture<HttpResponse<byte[]>> first = http.sendAsync(
                HttpRequest.newBuilder(uri("/big", ticket("/big", origin.url("/big"), big.length))).build(),
                HttpResponse.BodyHandlers.ofByteArray());
        await().atMost(WAIT).alias("the big fetch to start").until(() -> origin.gets("/big") == 1);

        byte[] other = randomBytes(500, 31);
        origin.serve("/other", other);
        HttpResponse<byte[]> full = fetch("/other", other);
        assertEquals(507, full.statusCode());
        assertEquals("store full of pinned data", body(full).trim());
        assertEquals(0, origin.gets("/other"));

        gate.countDown();
        assertArrayEquals(big, first.join().body());
    }

    @Test
    void loweredWatermarkEvictsAtOnce() throws Exception {
        startPool(1000);
        byte[] a = randomBytes(400, 40);
        byte[] b = randomBytes(400, 41);
        origin.serve("/a", a);
        origin.serve("/b", b);
        fetch("/a", a);
        fetch("/b", b);
        assertEquals(800, pool.store().used());
        try {
            ClusterConfig.set(zk, Keys.WATERMARK_LOW.key(), "0.4");
            ClusterConfig.set(zk, Keys.WATERMARK_HIGH.key(), "0.5");
            await().atMost(WAIT).alias("eviction down to the low watermark").until(() -> pool.store().used() == 400);
            assertEquals("HIT", cache(fetch("/b", b)));
        } finally {
            ClusterConfig.unset(zk, Keys.WATERMARK_HIGH.key());
            ClusterConfig.unset(zk, Keys.WATERMARK_LOW.key());
        }
    }

    @Test
    void restartRebuildsTheIndexAndDropsPartialFiles() throws Exception {
        Path store = dir.resolve("store");
        startPool(1 << 20, store);
        byte[] data = randomBytes(5000, 50);
        origin.serve("/kept", data);
        assertEquals("MISS", cache(fetch("/kept", data)));
        Map<String, Long> origins = Map.of(origin.url(""), 5000L); // its origin: the mount's URL
        assertEquals(origins, pool.record().originBytes());
        pool.close();
        pool = null;

        Path partial = Files.createDirectories(store.resolve("data/ab/cd")).resolve("ab".repeat(32) + Store.PART);
        Files.write(partial, new byte[123]);
        Path orphan = store.resolve("data/ab/cd/" + "cd".repeat(32) + Store.SIDECAR);
        Files.writeString(orphan, "{}");
        Path truncated = store.resolve("data/ab/cd/" + "ef".repeat(32));
        Files.write(truncated, new byte[10]);

        startPool(1 << 20, store);
        assertTrue(pool.store().awaitVerified(WAIT));
        assertEquals(origins, pool.record().originBytes(), "the verifier counts what the sidecars name");
        HttpResponse<byte[]> hit = fetch("/kept", data);
        assertEquals("HIT", cache(hit));
        assertArrayEquals(data, hit.body());
        assertEquals(1, origin.gets("/kept"));
        assertFalse(Files.exists(partial));
        assertFalse(Files.exists(orphan));
        assertFalse(Files.exists(truncated));
        assertEquals(5000, pool.store().used());
    }
}
