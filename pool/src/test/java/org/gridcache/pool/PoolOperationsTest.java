package org.gridcache.pool;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import java.lang.management.ManagementFactory;
import java.net.http.HttpResponse;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.function.Supplier;
import javax.management.MBeanServer;
import javax.management.ObjectName;
import javax.management.RuntimeMBeanException;
import org.gridcache.common.Json;
import org.gridcache.common.origin.OriginEntry;
import org.gridcache.common.cluster.PoolRecord;
import org.gridcache.common.transfer.TransferLog;
import org.gridcache.zk.MountTable;
import org.gridcache.zk.layout.ZkLayout;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

/** What an admin does to a pool: drain, read-only, evict one path, metrics, the MXBean, transfer records. */
class PoolOperationsTest extends PoolTestSupport {
    private static final MBeanServer JMX = ManagementFactory.getPlatformMBeanServer();

    private PoolRecord published() throws Exception {
        return Json.read(zk.getData().forPath(ZkLayout.pool(poolName)), PoolRecord.class);
    }

    private ObjectName mbean() throws Exception {
        return new ObjectName("org.gridcache:type=Pool,name=" + poolName);
    }

    /** Mounts the test origin at /ops so that evict(path) can resolve paths. */
    private void mountOrigin() throws Exception {
        MountTable.put(zk, OriginEntry.of("ops", "/ops", origin.url("/ops")));
        await().atMost(WAIT).alias("the pool to see the mount").until(() -> {
            try {
                pool.operations().evict("/ops/probe");
                return true;
            } catch (IllegalArgumentException e) {
                return false;
            }
        });
    }

    @Test
    void aDrainedPoolIsPublishedAsDrainingRefusesNewTransfersAndResumes() throws Exception {
        startPool(1 << 20);
        byte[] data = randomBytes(1000, 1);
        origin.serve("/d", data);
        String message = (String) JMX.invoke(mbean(), "drain", new Object[0], new String[0]);
        assertTrue(message.contains("draining"), message);
        await().atMost(WAIT).alias("the draining state in /pools").until(() -> call(() -> published().draining()));
        HttpResponse<byte[]> refused = fetch("/d", data);
        assertEquals(503, refused.statusCode());
        assertTrue(body(refused).contains("drained"), body(refused));
        assertEquals(0, origin.gets("/d"));
        assertEquals("draining", JMX.getAttribute(mbean(), "State"));

        JMX.invoke(mbean(), "resume", new Object[0], new String[0]);
        await().atMost(WAIT).alias("the enabled state in /pools").until(() -> call(() -> PoolRecord.ENABLED.equals(published().state())));
        assertEquals(200, fetch("/d", data).statusCode());
    }

    @Test
    void aReadOnlyPoolServesHitsButFetchesNothingNew() throws Exception {
        startPool(1 << 20);
        byte[] held = randomBytes(1000, 2);
        byte[] other = randomBytes(1000, 3);
        origin.serve("/held", held);
        origin.serve("/other", other);
        assertEquals(200, fetch("/held", held).statusCode());
        JMX.invoke(mbean(), "setReadOnly", new Object[] {true}, new String[] {"boolean"});
        await().atMost(WAIT).alias("the readonly state in /pools").until(() -> call(() -> published().readOnly()));
        HttpResponse<byte[]> hit = fetch("/held", held);
        assertEquals(200, hit.statusCode());
        assertEquals("HIT", cache(hit));
        HttpResponse<byte[]> miss = fetch("/other", other);
        assertEquals(503, miss.statusCode());
        assertTrue(body(miss).contains("read-only"), body(miss));
        assertEquals(0, origin.gets("/other"));
        pool.operations().setReadOnly(false);
        assertEquals(200, fetch("/other", other).statusCode());
    }

    @Test
    void evictRemovesTheStoredCopySoTheNextReadMisses() throws Exception {
        startPool(1 << 20);
        mountOrigin();
        byte[] data = randomBytes(5000, 4);
        origin.serve("/ops/run1/f.bin", data);
        assertEquals("MISS", cache(fetch("/ops/run1/f.bin", data)));
        assertEquals("HIT", cache(fetch("/ops/run1/f.bin", data)));
        // the client holds the body a moment before its mover lets go of the file
        await().atMost(WAIT).alias("the transfer to end").until(() -> pool.activeMovers() == 0);
        String evicted = (String) JMX.invoke(mbean(), "evict", new Object[] {"/ops/run1/f.bin"}, new String[] {String.class.getName()});
        assertTrue(evicted.startsWith("evicted /ops/run1/f.bin (5000 bytes)"), evicted);
        assertEquals(1L, JMX.getAttribute(mbean(), "Evictions"));
        assertEquals("MISS", cache(fetch("/ops/run1/f.bin", data)));
        assertEquals(2, origin.gets("/ops/run1/f.bin"));
        assertTrue(pool.operations().evict("/ops/never-read").startsWith("not cached"));
    }

    @Test
    void evictRefusesBadPathsUnmountedPathsAndFilesInUseWithAReason() throws Exception {
        startPool(1 << 20);
        mountOrigin();
        RuntimeMBeanException bad = assertThrows(RuntimeMBeanException.class,
                () -> JMX.invoke(mbean(), "evict", new Object[] {"/ops/../etc/passwd"}, new String[] {String.class.getName()}));
        assertTrue(bad.getCause() instanceof IllegalArgumentException && bad.getCause().getMessage().contains("bad path"), bad.getCause().toString());
        IllegalArgumentException unmounted = assertThrows(IllegalArgumentException.class, () -> pool.operations().evict("/elsewhere/f"));
        assertTrue(unmounted.getMessage().contains("no origin is mounted at /elsewhere/f"), unmounted.getMessage());
        assertTrue(assertThrows(IllegalArgumentException.class, () -> pool.operations().evict(" ")).getMessage().contains("needs a namespace path"));

        byte[] data = randomBytes(100_000, 5);
        CountDownLatch gate = new CountDownLatch(1);
        origin.serveGated("/ops/slow", data, 1000, gate);
        CompletableFuture<HttpResponse<byte[]>> reading = CompletableFuture.supplyAsync(() -> call(() -> fetch("/ops/slow", data)));
        await().atMost(WAIT).alias("the fetch to start").until(() -> pool.activeMovers() == 1);
        IllegalStateException inUse = assertThrows(IllegalStateException.class, () -> pool.operations().evict("/ops/slow"));
        assertTrue(inUse.getMessage().contains("being read or fetched"), inUse.getMessage());
        gate.countDown();
        assertEquals(200, reading.join().statusCode());
    }

    @Test
    void metricsNeedNoTicketAndCountTransfers() throws Exception {
        startPool(1 << 20);
        byte[] data = randomBytes(2048, 6);
        origin.serve("/m", data);
        fetch("/m", data);
        fetch("/m", data);
        HttpResponse<byte[]> metrics = get("/.gridcache/metrics", null);
        assertEquals(200, metrics.statusCode());
        assertTrue(metrics.headers().firstValue("Content-Type").orElseThrow().startsWith("text/plain"));
        String text = body(metrics);
        String tag = "pool=\"" + poolName + "\"";
        for (String line : List.of("gridcache_pool_hits_total{" + tag + "} 1", "gridcache_pool_misses_total{" + tag + "} 1",
                "gridcache_pool_hit_bytes_total{" + tag + "} 2048", "gridcache_pool_origin_bytes_total{" + tag + "} 2048",
                "gridcache_pool_files{" + tag + "} 1", "gridcache_pool_capacity_bytes{" + tag + "} 1048576",
                "gridcache_pool_draining{" + tag + "} 0")) {
            assertTrue(text.contains(line), "missing '" + line + "' in\n" + text);
        }
        assertTrue(text.matches("(?s).*gridcache_pool_responses_total\\{pool=\"" + poolName + "\",status=\"200\"} 2.*"), text);
        assertEquals(404, get("/.gridcache/data", null).statusCode());
        assertEquals("ok\n", body(get("/.gridcache/health", null)));
    }

    @Test
    void everyFinishedTransferIsOneJsonRecord() throws Exception {
        Logger transfers = (Logger) LoggerFactory.getLogger(TransferLog.LOGGER);
        ListAppender<ILoggingEvent> records = new ListAppender<>();
        records.start();
        transfers.addAppender(records);
        try {
            startPool(1 << 20);
            byte[] data = randomBytes(3000, 7);
            origin.serve("/t", data);
            fetch("/t", data);
            fetch("/t", data, "Range", "bytes=0-99");
            // TransferLog writes several records (lines) to a logging event, off the event loop: an earlier test's
            // pool may still be writing its own to the same logger, so only this pool's count
            Supplier<List<String>> lines = () -> List.copyOf(records.list).stream().flatMap(e -> e.getFormattedMessage().lines())
                    .filter(l -> l.contains("\"nodeId\":\"" + poolName + "\"")).toList();
            await().atMost(WAIT).alias("two transfer records").until(() -> lines.get().size() >= 2);
            Map<?, ?> miss = Json.mapper().readValue(lines.get().get(0), Map.class);
            Map<?, ?> hit = Json.mapper().readValue(lines.get().get(1), Map.class);
            assertEquals("pool", miss.get("node"));
            assertEquals(poolName, miss.get("nodeId"));
            assertEquals("/CN=test", miss.get("subject"));
            assertEquals("127.0.0.1", miss.get("client"));
            assertEquals("/t", miss.get("path"));
            assertEquals("miss", miss.get("source"));
            assertEquals(3000, miss.get("bytes"));
            assertEquals(3000, miss.get("originBytes"));
            assertEquals(200, miss.get("status"));
            assertEquals(true, miss.get("complete"));
            assertEquals("hit", hit.get("source"));
            assertEquals(206, hit.get("status"));
            assertEquals(100, hit.get("bytes"));
            assertEquals(0, hit.get("originBytes"));
        } finally {
            transfers.detachAppender(records);
        }
    }

    interface Call<T> {
        T call() throws Exception;
    }

    static <T> T call(Call<T> c) {
        try {
            return c.call();
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }
}
