package org.gridcache.simulator;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.SplittableRandom;
import org.gridcache.common.settings.ClusterSettings;
import org.junit.jupiter.api.Test;

/** The simulated store under the pool's real eviction (watermarks 0.95 and 0.90 by default). */
class PoolModelTest {

    @Test
    void theLeastRecentlyUsedFileIsEvictedFirst() {
        PoolModel pool = new PoolModel("p1", 100, ClusterSettings::defaults);
        pool.store("/a", 40, 0);
        pool.store("/b", 40, 0);
        pool.touch("/a");

        pool.store("/c", 40, 0);

        assertTrue(pool.has("/a"), "recently read");
        assertFalse(pool.has("/b"), "least recently used");
        assertTrue(pool.has("/c"), "just fetched");
        assertEquals(80, pool.used());
    }

    @Test
    void nothingIsEvictedUntilTheHighWatermarkAndThenDownToTheLowOne() {
        PoolModel pool = new PoolModel("p1", 100, ClusterSettings::defaults);
        for (int i = 0; i < 9; i++) {
            pool.store("/f" + i, 10, 0);
        }
        pool.store("/small", 5, 0); // 95: at the high watermark, not above it
        assertEquals(0, pool.evictions());

        pool.store("/g", 10, 0); // 105 > 95: free until 90

        assertEquals(2, pool.evictions(), "the two oldest files, 20 bytes, bring 105 down to 85 (10 was not enough)");
        assertFalse(pool.has("/f0"));
        assertFalse(pool.has("/f1"));
        assertEquals(85, pool.used());
    }

    @Test
    void lruEvictionKeepsEveryPoolUnderItsCapacity() {
        PoolModel pool = new PoolModel("p1", 1000, ClusterSettings::defaults);
        SplittableRandom random = new SplittableRandom(1);
        for (int i = 0; i < 10_000; i++) {
            String path = "/f" + random.nextInt(400);
            if (pool.has(path)) {
                pool.touch(path);
            } else {
                assertTrue(pool.store(path, 1 + random.nextInt(300), 0));
            }
            assertTrue(pool.used() <= 1000, "after " + path + ": " + pool.used());
        }
        assertTrue(pool.evictions() > 0, "the test filled the store");
    }

    @Test
    void aFileLargerThanTheStoreIsRefusedAndNothingIsEvictedForIt() {
        PoolModel pool = new PoolModel("p1", 100, ClusterSettings::defaults);
        pool.store("/a", 60, 0);

        assertFalse(pool.store("/huge", 101, 0));

        assertTrue(pool.has("/a"));
        assertEquals(0, pool.evictions());
    }

    @Test
    void aCopyIsInFlightUntilItsFetchEnds() {
        PoolModel pool = new PoolModel("p1", 100, ClusterSettings::defaults);
        pool.store("/a", 10, 5);

        assertTrue(pool.fetching("/a", 4));
        assertFalse(pool.holds("/a", 4));
        assertTrue(pool.holds("/a", 5));
        assertFalse(pool.fetching("/a", 5));
    }

    @Test
    void readsOfFilesLargerThanAPoolAreRefusedInTheResult() {
        Result r = Simulation.run("affinity", new Cluster(3, 10L << 20, 4, ClusterSettings.defaults()),
                new SameFileTrace(5, 20L << 20));

        assertEquals(10, r.refused());
        assertEquals(0, r.originBytes());
    }

    @Test
    void aSimulationWithASmallStoreEvictsAndStillAccountsEveryRead() {
        Result r = Simulation.run("least-loaded", new Cluster(3, 50L << 20, 8, ClusterSettings.defaults()),
                new ZipfTrace(1000, 0.8, 20_000, 1 << 20, 3));

        assertTrue(r.evictions() > 0, "evictions: " + r.evictions());
        assertEquals(20_000, r.reads());
        assertTrue(r.hitRatio() < 1);
    }
}
