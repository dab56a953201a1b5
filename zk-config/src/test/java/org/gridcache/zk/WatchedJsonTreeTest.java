package org.gridcache.zk;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.RetryOneTime;
import org.gridcache.common.Json;
import org.gridcache.common.origin.OriginEntry;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.slf4j.LoggerFactory;

/** The recipe against a real embedded ZooKeeper server, and against none. */
class WatchedJsonTreeTest {
    private static final Duration WAIT = Duration.ofSeconds(10);
    @RegisterExtension
    final ZooKeeperServer zooKeeper = new ZooKeeperServer();
    private CuratorFramework client;

    @BeforeEach
    void connect() {
        client = zooKeeper.client();
    }

    private WatchedJsonTree<OriginEntry> origins(List<Map<String, OriginEntry>> seen) {
        return new WatchedJsonTree<>(client, "/origins", WatchedJsonTree.Scope.CHILDREN, "origin",
                data -> Json.read(data, OriginEntry.class), seen::add);
    }

    @Test
    void nodesPresentAtStartAreDecodedBeforeStartReturns() throws Exception {
        MountTable.put(client, OriginEntry.of("a", "/a", "https://a.example.org/", null));
        List<Map<String, OriginEntry>> seen = new CopyOnWriteArrayList<>();
        try (WatchedJsonTree<OriginEntry> tree = origins(seen)) {
            tree.start(WAIT);
            assertEquals(List.of("/origins/a"), List.copyOf(tree.snapshot().keySet()));
            assertEquals("/a", tree.snapshot().get("/origins/a").prefix());
            assertEquals(tree.snapshot(), seen.get(seen.size() - 1), "the listener saw the first load");
        }
    }

    /** A listing page shows when a mount point was mounted: the znode's own write time, from the cache. */
    @Test
    void aMountPointsDateIsItsZnodesWriteTime() throws Exception {
        MountTable.put(client, OriginEntry.of("a", "/a", "https://a.example.org/", null));
        long written = client.checkExists().forPath("/origins/a").getMtime();
        try (MountTable mounts = new MountTable(client).start(WAIT)) {
            OriginEntry a = mounts.resolve("/a/x").orElseThrow();
            assertEquals(written, mounts.mountedMillis(a));
            assertEquals(-1, mounts.mountedMillis(OriginEntry.of("none", "/none", "https://n.example.org/", null)));
        }
    }

    @Test
    void aChangeIsSeenByTheListener() throws Exception {
        List<Map<String, OriginEntry>> seen = new CopyOnWriteArrayList<>();
        try (WatchedJsonTree<OriginEntry> tree = origins(seen)) {
            tree.start(WAIT);
            assertTrue(tree.snapshot().isEmpty());
            MountTable.put(client, OriginEntry.of("b", "/b", "https://b.example.org/", null));
            await().atMost(WAIT).until(() -> !seen.isEmpty() && seen.get(seen.size() - 1).containsKey("/origins/b"));
            MountTable.put(client, OriginEntry.of("b", "/b2", "https://b.example.org/", null));
            await().atMost(WAIT).until(() -> "/b2".equals(tree.snapshot().get("/origins/b").prefix()));
            MountTable.remove(client, "b");
            await().atMost(WAIT).until(() -> tree.snapshot().isEmpty());
        }
    }

    @Test
    void aChangeDecodesOnlyTheNodeThatChangedAndTheListenerHearsOnlyWholeTrees() throws Exception {
        for (String name : List.of("a", "b", "c")) {
            MountTable.put(client, OriginEntry.of(name, "/" + name, "https://" + name + ".example.org/", null));
        }
        java.util.concurrent.atomic.AtomicInteger decodes = new java.util.concurrent.atomic.AtomicInteger();
        List<Map<String, OriginEntry>> seen = new CopyOnWriteArrayList<>();
        try (WatchedJsonTree<OriginEntry> tree = new WatchedJsonTree<>(client, "/origins", WatchedJsonTree.Scope.CHILDREN,
                "origin", data -> {
                    decodes.incrementAndGet();
                    return Json.read(data, OriginEntry.class);
                }, seen::add)) {
            tree.start(WAIT);
            assertEquals(3, decodes.get(), "each node decoded once at the first load");
            assertEquals(List.of(3), seen.stream().map(Map::size).toList(), "no partial tree reached the listener");
            MountTable.put(client, OriginEntry.of("b", "/b2", "https://b.example.org/", null));
            await().atMost(WAIT).until(() -> "/b2".equals(tree.snapshot().get("/origins/b").prefix()));
            assertEquals(4, decodes.get(), "one change, one decode");
            assertEquals(3, tree.snapshot().size());
        }
    }

    @Test
    void anInvalidNodeIsLoggedAndLeftOutWhileTheOthersStay() throws Exception {
        Logger log = (Logger) LoggerFactory.getLogger(WatchedJsonTree.class);
        ListAppender<ILoggingEvent> appender = new ListAppender<>();
        appender.start();
        log.addAppender(appender);
        try (WatchedJsonTree<OriginEntry> tree = origins(new CopyOnWriteArrayList<>())) {
            MountTable.put(client, OriginEntry.of("good", "/good", "https://good.example.org/", null));
            client.create().forPath("/origins/bad", "{not json".getBytes(StandardCharsets.UTF_8));
            tree.start(WAIT);
            assertEquals(List.of("/origins/good"), List.copyOf(tree.snapshot().keySet()));
            assertTrue(appender.list.stream().anyMatch(e -> e.getFormattedMessage().startsWith("ignoring origin /origins/bad: ")),
                    appender.list.toString());
        } finally {
            log.detachAppender(appender);
        }
    }

    @Test
    void aFirstLoadThatTimesOutFailsNamingThePathAndTheTimeout() throws Exception {
        int nobody;
        try (ServerSocket s = new ServerSocket(0)) {
            nobody = s.getLocalPort();
        }
        try (CuratorFramework unreachable = CuratorFrameworkFactory.newClient("127.0.0.1:" + nobody, 5000, 1000, new RetryOneTime(100))) {
            unreachable.start();
            WatchedJsonTree<OriginEntry> tree = new WatchedJsonTree<>(unreachable, "/origins", WatchedJsonTree.Scope.CHILDREN, "origin",
                    data -> Json.read(data, OriginEntry.class), m -> { });
            IllegalStateException e = assertThrows(IllegalStateException.class, () -> tree.start(Duration.ofMillis(300)));
            assertEquals("ZooKeeper /origins was not loaded within 300 ms: is ZooKeeper reachable?", e.getMessage());
            assertThrows(IllegalStateException.class, () -> tree.start(WAIT), "a closed tree cannot start again");
            IllegalStateException table = assertThrows(IllegalStateException.class,
                    () -> new MountTable(unreachable).start(Duration.ofMillis(300)));
            assertTrue(table.getMessage().contains("/origins"), table.getMessage());
        }
    }

    @Test
    void argumentsAreCheckedUpFront() {
        assertThrows(IllegalArgumentException.class, () -> new WatchedJsonTree<>(client, "origins", WatchedJsonTree.Scope.CHILDREN,
                "origin", data -> data, m -> { }));
        assertThrows(NullPointerException.class, () -> new WatchedJsonTree<byte[]>(client, "/origins", WatchedJsonTree.Scope.CHILDREN,
                "origin", (WatchedJsonTree.Decoder<byte[]>) null, m -> { }));
    }

    @Test
    void clusterConfigReadsATypedSettingSetByItsDeclaration() throws Exception {
        try (ClusterConfig config = new ClusterConfig(client).start(WAIT)) {
            ClusterConfig.set(client, org.gridcache.common.settings.ClusterSettings.Keys.SELECTION_POLICY, "random");
            await().atMost(WAIT).until(() -> config.current().get(org.gridcache.common.settings.ClusterSettings.Keys.SELECTION_POLICY)
                    == org.gridcache.common.settings.SelectionPolicy.RANDOM);
            assertTrue(ClusterConfig.unset(client, org.gridcache.common.settings.ClusterSettings.Keys.SELECTION_POLICY));
            await().atMost(WAIT).until(() -> config.current().get(org.gridcache.common.settings.ClusterSettings.Keys.SELECTION_POLICY)
                    == org.gridcache.common.settings.SelectionPolicy.AFFINITY);
        }
    }
}
