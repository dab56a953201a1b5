package org.gridcache.zk;

import org.gridcache.zk.layout.ZkLayout;
import static org.awaitility.Awaitility.await;
import org.gridcache.common.settings.SelectionPolicy;
import org.gridcache.common.settings.ClusterSettings.Keys;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.function.BooleanSupplier;
import java.util.function.Predicate;
import org.apache.curator.framework.CuratorFramework;
import org.gridcache.common.settings.ClusterSettings;
import org.gridcache.common.Json;
import org.gridcache.common.origin.OriginEntry;
import org.gridcache.common.cluster.PoolRecord;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** Against a real embedded ZooKeeper server. */
class ZkIntegrationTest {
    private static final Duration WAIT = Duration.ofSeconds(10);
    @RegisterExtension
    final ZooKeeperServer zooKeeper = new ZooKeeperServer();
    private CuratorFramework client;

    @BeforeEach
    void connect() {
        client = zooKeeper.client();
    }

    private static PoolRecord record(String id, int movers) {
        return new PoolRecord(id, "http://127.0.0.1:1", "default", 100, 50, movers, 0, movers, "test", 0);
    }

    @Test
    void poolAppearsUpdatesAndVanishes() throws Exception {
        PoolDirectory directory = new PoolDirectory(client).start(WAIT);
        int[] movers = {0};
        CuratorFramework poolClient = Zk.connect(zooKeeper.connectString());
        EphemeralRegistration reg = new EphemeralRegistration(poolClient, ZkLayout.pool("p1"),
                () -> Json.bytes(record("p1", movers[0])), Duration.ofHours(1));
        reg.awaitCreated(WAIT);
        awaitTrue("the pool directory to see p1", () -> directory.live().size() == 1);
        movers[0] = 7;
        reg.publishNow();
        awaitTrue("p1's update to 7 movers", () -> directory.live().get(0).activeMovers() == 7);
        poolClient.close(); // session ends: the ephemeral node goes with it
        awaitTrue("p1 to vanish with its session", () -> directory.live().isEmpty());
        reg.close();
        directory.close();
    }

    @Test
    void mountTableResolvesLongestPrefix() throws Exception {
        MountTable.put(client, OriginEntry.of("root", "/", "file:///srv/a"));
        MountTable.put(client, OriginEntry.of("atlas", "/atlas/data", "http://127.0.0.1:9/x"));
        MountTable table = new MountTable(client).start(WAIT);
        assertEquals("atlas", table.resolve("/atlas/data/f").orElseThrow().name());
        assertEquals("root", table.resolve("/atlas/other").orElseThrow().name());
        assertEquals(List.of("atlas"), table.mountPointsBelow("/"));
        assertEquals(List.of("data"), table.mountPointsBelow("/atlas"));
        // a stored file's origin URL to its origin: the mount whose URL it lies under, on a segment boundary
        assertEquals("http://127.0.0.1:9/x", table.originOf("http://127.0.0.1:9/x/f%20g"));
        assertEquals("file:///srv/a", table.originOf("file:///srv/a/atlas/other"));
        assertNull(table.originOf("http://127.0.0.1:9/xy/f"));
        assertNull(table.originOf("http://127.0.0.1:99/x/f"));
        assertEquals(2, MountTable.list(client).size());
        assertTrue(MountTable.remove(client, "root"));
        awaitTrue("the mount table to drop the root mount", () -> table.resolve("/other").isEmpty());
        table.close();
    }

    @Test
    void configChangesApplyLiveAndBadValuesAreKeptOut() throws Exception {
        ClusterConfig config = new ClusterConfig(client).start(WAIT);
        BlockingQueue<ClusterSettings> changes = new ArrayBlockingQueue<>(16);
        config.onChange(changes::add);
        assertTrue(config.current().get(Keys.REDIRECT_ON_READ));
        ClusterConfig.set(client, Keys.REDIRECT_ON_READ.key(), "false");
        awaitChange("redirect.on-read=false", changes, s -> !s.get(Keys.REDIRECT_ON_READ));
        assertThrows(IllegalArgumentException.class, () -> ClusterConfig.set(client, Keys.TICKET_LIFETIME.key(), "soon"));
        // a value written behind the CLI's back is refused by the node, which keeps its last good settings
        ClusterConfig.set(client, Keys.TICKET_LIFETIME.key(), "30s");
        awaitChange("ticket.lifetime=30s", changes, s -> s.get(Keys.TICKET_LIFETIME).getSeconds() == 30);
        client.setData().forPath(ZkLayout.CONFIG,
                "{\"ticket.lifetime\":\"soon\",\"pool.watermark.high\":\"0.5\"}".getBytes());
        awaitChange("pool.watermark.high=0.5", changes, s -> s.get(Keys.WATERMARK_HIGH) == 0.5);
        assertEquals(30, config.current().get(Keys.TICKET_LIFETIME).getSeconds(), "last good value kept");
        assertEquals("0.5", ClusterConfig.list(client).get(Keys.WATERMARK_HIGH.key()));
        assertTrue(ClusterConfig.unset(client, Keys.WATERMARK_HIGH.key()));
        config.close();
    }

    @Test
    void drainingPoolsAreNeverSelectableAndReadOnlyOnesOnlyWhenNothingElseIs() throws Exception {
        PoolDirectory directory = new PoolDirectory(client).start(WAIT);
        String[] states = {PoolRecord.ENABLED, PoolRecord.READONLY};
        EphemeralRegistration a = new EphemeralRegistration(client, ZkLayout.pool("a"),
                () -> Json.bytes(new PoolRecord("a", "http://a:1", "s", 1, 1, 0, 0, 0, "t", 0, states[0], 0, 0)), Duration.ofHours(1));
        EphemeralRegistration b = new EphemeralRegistration(client, ZkLayout.pool("b"),
                () -> Json.bytes(new PoolRecord("b", "http://b:1", "s", 1, 1, 0, 0, 0, "t", 0, states[1], 0, 0)), Duration.ofHours(1));
        awaitTrue("the pool directory to see a and b", () -> directory.live().size() == 2);
        assertEquals(List.of("a"), directory.selectable().stream().map(PoolRecord::id).toList());
        states[0] = PoolRecord.DRAINING;
        a.publishNow();
        awaitTrue("only the read-only b selectable once a drains", () -> directory.selectable().stream().map(PoolRecord::id).toList().equals(List.of("b")));
        states[1] = PoolRecord.DRAINING;
        b.publishNow();
        awaitTrue("nothing selectable once both drain", () -> directory.selectable().isEmpty());
        assertEquals(2, directory.live().size(), "draining pools are still live");
        a.close();
        b.close();
        directory.close();
    }

    @Test
    void theConfigMxBeanShowsTheSettingsTheLastErrorAndReloads() throws Exception {
        ClusterConfig config = new ClusterConfig(client).start(WAIT);
        javax.management.MBeanServer server = java.lang.management.ManagementFactory.getPlatformMBeanServer();
        javax.management.ObjectName name = new javax.management.ObjectName("org.gridcache:type=Config");
        assertTrue(server.isRegistered(name));
        assertEquals("", server.getAttribute(name, "LastError"));
        // written behind the CLI's back, read by reload() at once (no waiting for the watch)
        client.create().creatingParentsIfNeeded().forPath(ZkLayout.CONFIG,
                "{\"selection.policy\":\"fastest\",\"ticket.lifetime\":\"5s\"}".getBytes());
        String reloaded = (String) server.invoke(name, "reload", new Object[0], new String[0]);
        assertTrue(reloaded.contains("ticket.lifetime=5s"), reloaded);
        assertEquals(5, config.current().get(Keys.TICKET_LIFETIME).getSeconds());
        assertEquals(SelectionPolicy.AFFINITY, config.current().get(Keys.SELECTION_POLICY), "invalid value refused, default kept");
        String error = (String) server.getAttribute(name, "LastError");
        assertTrue(error.contains("selection.policy") && error.contains("fastest"), error);
        javax.management.openmbean.TabularData settings = (javax.management.openmbean.TabularData) server.getAttribute(name, "Settings");
        assertEquals("5s", settings.get(new Object[] {"ticket.lifetime"}).get("value"));
        config.close();
        assertTrue(!server.isRegistered(name), "unregistered with the last config");
    }

    @Test
    void aRetiredSettingStillInZooKeeperIsANoOpNotAnError() throws Exception {
        client.create().creatingParentsIfNeeded().forPath(ZkLayout.CONFIG,
                "{\"pool.fill-writers\":\"idle\",\"ticket.lifetime\":\"7s\"}".getBytes());
        ClusterConfig config = new ClusterConfig(client).start(WAIT);
        assertEquals(7, config.current().get(Keys.TICKET_LIFETIME).getSeconds(), "the other settings apply");
        assertEquals(null, config.lastError(), "a retired key is no error");
        assertEquals(java.util.Map.of("ticket.lifetime", "7s"), config.current().explicitValues());
        assertThrows(IllegalArgumentException.class, () -> ClusterConfig.set(client, "pool.fill-writers", "normal"));
        assertTrue(ClusterConfig.unset(client, "pool.fill-writers"), "an admin can drop it");
        config.close();
    }

    /** Awaits a settings change, delivered to {@code changes} by the config's watch, that satisfies {@code p}. */
    private static void awaitChange(String what, BlockingQueue<ClusterSettings> changes, Predicate<ClusterSettings> p) {
        await("a settings change with " + what).atMost(WAIT).pollDelay(Duration.ZERO).pollInterval(Duration.ofMillis(20))
                .until(() -> {
                    for (ClusterSettings s; (s = changes.poll()) != null; ) {
                        if (p.test(s)) {
                            return true;
                        }
                    }
                    return false;
                });
    }

    /** Awaits a condition that a ZooKeeper watch makes true; fails after WAIT. */
    private static void awaitTrue(String what, BooleanSupplier condition) {
        await(what).atMost(WAIT).pollDelay(Duration.ZERO).pollInterval(Duration.ofMillis(20)).until(condition::getAsBoolean);
    }
}
