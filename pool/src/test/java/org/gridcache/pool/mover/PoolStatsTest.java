package org.gridcache.pool.mover;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.curator.framework.CuratorFramework;
import org.gridcache.zk.EmbeddedZooKeeper;
import org.gridcache.zk.Zk;
import org.gridcache.zk.ZooKeeperConnection;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The pool's only label, the status, keeps to a fixed set whatever number reaches it. */
class PoolStatsTest {
    @Test
    void statusesOutsideHttpsRangeCountAsOther() {
        PoolStats stats = new PoolStats("p");
        stats.response(200);
        stats.response(0);
        for (int status = 600; status < 10_600; status++) {
            stats.response(status);
        }
        stats.response(-1);
        String page = stats.registry().scrape();
        assertTrue(page.contains("gridcache_pool_responses_total{pool=\"p\",status=\"other\"} 10001.0"), page);
        assertTrue(page.contains("status=\"200\"") && page.contains("status=\"0\""), page);
        assertEquals(3, page.lines().filter(l -> l.startsWith("gridcache_pool_responses_total")).count(), page);
    }

    @Test
    void gridFtpConnectionCountsSurviveAGarbageCollection() {
        PoolStats stats = new PoolStats("p");
        java.util.concurrent.atomic.AtomicLong opened = new java.util.concurrent.atomic.AtomicLong(3);
        stats.gridFtpConnections(opened::get, () -> 5, () -> 2); // method references nobody else holds
        for (int i = 0; i < 3; i++) {
            System.gc();
        }
        opened.incrementAndGet();
        String page = stats.registry().scrape();
        assertTrue(page.contains("gridcache_pool_gridftp_connections_total{outcome=\"opened\",pool=\"p\"} 4.0"), page);
        assertTrue(page.contains("gridcache_pool_gridftp_connections_total{outcome=\"reused\",pool=\"p\"} 5.0"), page);
        assertTrue(page.contains("gridcache_pool_gridftp_idle_connections{pool=\"p\"} 2.0"), page);
    }

    @Test
    void receiveMemoryIsOnThePageInBytes() {
        PoolStats stats = new PoolStats("p");
        stats.receiveMemory(() -> 5L << 20, () -> 3L << 20, () -> 1L << 20);
        System.gc();
        String page = stats.registry().scrape();
        assertTrue(page.contains("gridcache_pool_receive_memory_allocated_bytes_total{pool=\"p\"} 5242880.0"), page);
        assertTrue(page.contains("gridcache_pool_receive_memory_bytes{pool=\"p\"} 3145728.0"), page);
        assertTrue(page.contains("gridcache_pool_receive_memory_waiting_bytes{pool=\"p\"} 1048576.0"), page);
    }

    @Test
    void watermarksAreReadLiveAsRatios() {
        PoolStats stats = new PoolStats("p");
        AtomicReference<Double> high = new AtomicReference<>(0.95);
        stats.watermarks(high::get, () -> 0.9);
        System.gc();
        assertTrue(stats.registry().scrape().contains("gridcache_pool_watermark_high_ratio{pool=\"p\"} 0.95"));
        high.set(0.8); // a /config change
        String page = stats.registry().scrape();
        assertTrue(page.contains("gridcache_pool_watermark_high_ratio{pool=\"p\"} 0.8"), page);
        assertTrue(page.contains("gridcache_pool_watermark_low_ratio{pool=\"p\"} 0.9"), page);
    }

    @Test
    void zooKeeperConnectionIsOneGaugePerStateOneOfThemOne(@TempDir Path dir) throws Exception {
        PoolStats stats = new PoolStats("p");
        try (EmbeddedZooKeeper server = EmbeddedZooKeeper.start(dir, "127.0.0.1", 0);
             CuratorFramework zk = Zk.connect(server.connectString());
             ZooKeeperConnection connection = ZooKeeperConnection.watch(zk)) {
            stats.zooKeeper(connection);
            String page = stats.registry().scrape();
            assertTrue(page.contains("gridcache_pool_zookeeper_connection{pool=\"p\",state=\"connected\"} 1.0"), page);
            for (String other : new String[] {"suspended", "lost", "read-only"}) {
                assertTrue(page.contains("gridcache_pool_zookeeper_connection{pool=\"p\",state=\"" + other + "\"} 0.0"), page);
            }
        }
    }
}
