package org.gridcache.door.ops;

import static org.awaitility.Awaitility.await;
import org.gridcache.common.settings.ClusterSettings.Keys;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import java.lang.management.ManagementFactory;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.function.Supplier;
import javax.management.MBeanServer;
import javax.management.ObjectName;
import javax.management.RuntimeMBeanException;
import org.apache.curator.framework.CuratorFramework;
import org.gridcache.common.settings.ClusterSettings;
import org.gridcache.common.Json;
import org.gridcache.common.origin.FileOriginRoots;
import org.gridcache.common.origin.OriginEntry;
import org.gridcache.common.cluster.PoolRecord;
import org.gridcache.common.transfer.TransferLog;
import org.gridcache.door.Door;
import org.gridcache.door.DoorSettings;
import org.gridcache.common.ticket.TicketSigningKey;
import org.gridcache.door.FakePool;
import org.gridcache.door.TestResources;
import org.gridcache.zk.ClusterConfig;
import org.gridcache.zk.EmbeddedZooKeeper;
import org.gridcache.zk.EphemeralRegistration;
import org.gridcache.zk.MountTable;
import org.gridcache.zk.Zk;
import org.gridcache.zk.layout.ZkLayout;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.LoggerFactory;

/** The door as admins see it: pool states, policy, metrics, status page, pools API, MXBeans, transfer records. */
class DoorOperationsTest {
    private static final Duration WAIT = Duration.ofSeconds(20);
    private static final MBeanServer JMX = ManagementFactory.getPlatformMBeanServer();
    @TempDir
    Path tmp;
    private final List<AutoCloseable> closeables = new ArrayList<>();
    private final Map<String, PoolRecord> records = new HashMap<>();
    private final Map<String, EphemeralRegistration> registrations = new HashMap<>();
    private final TicketSigningKey key = TicketSigningKey.generate();
    private CuratorFramework zk;
    private EmbeddedZooKeeper zkServer;
    private Door door;
    private final HttpClient http = HttpClient.newBuilder().followRedirects(HttpClient.Redirect.NEVER).build();

    @BeforeEach
    void start() throws Exception {
        zkServer = EmbeddedZooKeeper.start(tmp.resolve("zk"), "127.0.0.1", 0);
        closeables.add(zkServer);
        zk = Zk.connect(zkServer.connectString());
        closeables.add(zk);
        Path files = Files.createDirectories(tmp.resolve("files"));
        Files.write(files.resolve("f.bin"), new byte[1000]);
        MountTable.put(zk, OriginEntry.of("local", "/", files.toUri().toString()));
        door = Door.start(new DoorSettings("door-ops", "127.0.0.1", 0, null, key)
                .withFileOriginRoots(FileOriginRoots.of(List.of(files))), zk);
        closeables.add(door);
    }

    @AfterEach
    void stop() {
        TestResources.closeInReverse(closeables);
    }

    private void pool(String id, String site, String state, double load, String url) throws Exception {
        records.put(id, new PoolRecord(id, url, site, 1000, 400, 0, 0, load, "t", 0, state, 3, 1));
        EphemeralRegistration reg = registrations.get(id);
        if (reg == null) {
            reg = new EphemeralRegistration(zk, ZkLayout.pool(id), () -> Json.bytes(records.get(id)), Duration.ofHours(1));
            registrations.put(id, reg);
            closeables.add(reg);
            reg.awaitCreated(WAIT);
        } else {
            reg.publishNow();
        }
    }

    private HttpResponse<String> get(String path, String... headers) throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(door.url() + path));
        if (headers.length > 0) {
            b.headers(headers);
        }
        return http.send(b.build(), HttpResponse.BodyHandlers.ofString());
    }

    private String location() {
        try {
            HttpResponse<String> r = get("/f.bin");
            return r.statusCode() == 302 ? r.headers().firstValue("Location").orElseThrow() : r.statusCode() + " " + r.body();
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    @Test
    void aDrainingPoolIsNeverChosenAndWithNoneLeftTheDoorSays503() throws Exception {
        pool("busy", "s", PoolRecord.ENABLED, 9, "http://busy:1");
        pool("idle", "s", PoolRecord.DRAINING, 0, "http://idle:1");
        await().atMost(WAIT).alias("both pools").until(() -> door.url() != null && location().startsWith("http://busy:1"));
        for (int i = 0; i < 20; i++) {
            assertTrue(location().startsWith("http://busy:1"), "the idle pool is draining");
        }
        pool("busy", "s", PoolRecord.DRAINING, 9, "http://busy:1");
        await().atMost(WAIT).alias("no selectable pool").until(() -> location().startsWith("503"));
        assertTrue(location().contains("all 2 pools are drained"), location());
        pool("idle", "s", PoolRecord.READONLY, 0, "http://idle:1");
        await().atMost(WAIT).alias("the read-only pool as the last resort").until(() -> location().startsWith("http://idle:1"));
    }

    @Test
    void theSelectionPolicyChangesLiveThroughJmxAndBadNamesAreRefused() throws Exception {
        ObjectName cluster = new ObjectName("org.gridcache:type=Cluster");
        assertEquals("affinity", JMX.getAttribute(cluster, "Policy"));
        JMX.invoke(cluster, "setPolicy", new Object[] {"least-loaded"}, new String[] {String.class.getName()});
        await().atMost(WAIT).alias("the door to apply least-loaded").until(() -> "least-loaded".equals(JMX.getAttribute(cluster, "Policy")));
        pool("a", "s", PoolRecord.ENABLED, 0, "http://a:1");
        pool("b", "s", PoolRecord.ENABLED, 5, "http://b:1");
        await().atMost(WAIT).alias("two pools").until(() -> ((Integer) JMX.getAttribute(cluster, "LivePools")) == 2);
        for (int i = 0; i < 10; i++) {
            assertTrue(location().startsWith("http://a:1"), "least loaded: always a");
        }
        JMX.invoke(cluster, "setPolicy", new Object[] {"random"}, new String[] {String.class.getName()});
        assertEquals("random", ClusterConfig.list(zk).get(Keys.SELECTION_POLICY.key()));
        await().atMost(WAIT).alias("the door to apply random").until(() -> "random".equals(JMX.getAttribute(cluster, "Policy")));
        await().atMost(WAIT).alias("a read redirected to the busier pool").until(() -> location().startsWith("http://b:1"));

        RuntimeMBeanException bad = assertThrows(RuntimeMBeanException.class,
                () -> JMX.invoke(cluster, "setPolicy", new Object[] {"fastest"}, new String[] {String.class.getName()}));
        assertTrue(bad.getCause().getMessage().contains("unknown policy") && bad.getCause().getMessage().contains("least-loaded"),
                bad.getCause().getMessage());
        String[] lines = (String[]) JMX.getAttribute(cluster, "Pools");
        assertTrue(lines[0].startsWith("a site=s state=enabled load=0.00") && lines[0].contains("hit-rate=75.0%"), lines[0]);
    }

    @Test
    void metricsCountRequestsByMethodAndStatusAndRedirects() throws Exception {
        pool("a", "s", PoolRecord.ENABLED, 0, "http://a:1");
        await().atMost(WAIT).alias("a pool").until(() -> location().startsWith("http://a:1"));
        get("/no-such-file");
        String text = get("/.gridcache/metrics").body();
        assertTrue(text.matches("(?s).*gridcache_door_requests_total\\{door=\"door-ops\",method=\"GET\",status=\"302\"} [1-9].*"), text);
        assertTrue(text.contains("gridcache_door_requests_total{door=\"door-ops\",method=\"GET\",status=\"404\"} 1"), text);
        assertTrue(text.matches("(?s).*gridcache_door_redirects_total\\{door=\"door-ops\"} [1-9].*"), text);
        assertTrue(text.contains("gridcache_door_pools_live{door=\"door-ops\"} 1"), text);
        assertTrue(text.contains("gridcache_door_open_connections{door=\"door-ops\"}"), text);
        ObjectName doorBean = new ObjectName("org.gridcache:type=Door");
        assertTrue((Long) JMX.getAttribute(doorBean, "Redirects") >= 1);
        assertTrue((Long) JMX.getAttribute(doorBean, "RequestsTotal") >= 2, "the redirect and the 404 at least");
    }

    @Test
    void metricsSayWhetherZooKeeperIsConnected() throws Exception {
        String series = "gridcache_door_zookeeper_connection{door=\"door-ops\",state=\"%s\"} ";
        await().atMost(WAIT).until(() -> door.url() != null);
        String connected = get("/.gridcache/metrics").body();
        assertTrue(connected.contains(series.formatted("connected") + "1.0"), connected);
        assertTrue(connected.contains(series.formatted("suspended") + "0.0"), connected);
        zkServer.close();
        await().atMost(WAIT).alias("suspended or lost").until(() -> {
            String page = get("/.gridcache/metrics").body();
            return page.contains(series.formatted("connected") + "0.0")
                    && (page.contains(series.formatted("suspended") + "1.0") || page.contains(series.formatted("lost") + "1.0"));
        });
    }

    @Test
    void madeUpMethodsAndPathsLeaveTheMetricsPageTheSameSize() throws Exception {
        for (int i = 0; i < 100; i++) {
            madeUp(i);
        }
        get("/.gridcache/metrics"); // the page's own GET 200 is a series from here on
        String before = get("/.gridcache/metrics").body();
        for (int i = 100; i < 10_100; i++) {
            madeUp(i);
        }
        String after = get("/.gridcache/metrics").body();
        assertEquals(series(before), series(after), "no new time series");
        assertTrue(Math.abs(after.length() - before.length()) < 100, before.length() + " -> " + after.length() + " bytes");
        assertTrue(after.contains("gridcache_door_requests_total{door=\"door-ops\",method=\"other\",status=\"501\"} 5050"), after);
        assertFalse(after.contains("made-up"), "no path in a label");
    }

    /** Every other request a method nobody defined, every one a path nobody has. */
    private void madeUp(int i) throws Exception {
        String method = i % 2 == 0 ? "MADEUP" + i : "GET";
        HttpResponse<Void> r = http.send(HttpRequest.newBuilder(URI.create(door.url() + "/made-up/" + i))
                .method(method, HttpRequest.BodyPublishers.noBody()).build(), HttpResponse.BodyHandlers.discarding());
        assertEquals(i % 2 == 0 ? 501 : 404, r.statusCode(), method);
    }

    /** The metrics page's series (name and labels), without their values. */
    private static List<String> series(String page) {
        return page.lines().filter(l -> !l.startsWith("#")).map(l -> l.substring(0, l.lastIndexOf(' '))).sorted().toList();
    }

    @Test
    void aServiceRefusesWritesAndAnUnknownServiceIs404NamingTheKnownOnes() throws Exception {
        HttpResponse<String> post = http.send(HttpRequest.newBuilder(URI.create(door.url() + "/.gridcache/metrics"))
                .POST(HttpRequest.BodyPublishers.ofString("x")).build(), HttpResponse.BodyHandlers.ofString());
        assertEquals(405, post.statusCode());
        HttpResponse<String> none = get("/.gridcache/api/v2/pools");
        assertEquals(404, none.statusCode());
        assertTrue(none.body().contains("/.gridcache/status"), none.body());
    }

    @Test
    void theStatusPageShowsPoolsStatesLoadAndPolicy() throws Exception {
        pool("pool-a", "cern", PoolRecord.ENABLED, 1.25, "http://a:1");
        pool("pool-b", "fnal", PoolRecord.DRAINING, 0, "http://b:1");
        await().atMost(WAIT).alias("two pools").until(() -> get("/.gridcache/status").body().contains("pool-b"));
        HttpResponse<String> page = get("/.gridcache/status");
        assertEquals(200, page.statusCode());
        assertTrue(page.headers().firstValue("Content-Type").orElseThrow().startsWith("text/html"));
        String html = page.body();
        assertTrue(html.contains("<meta http-equiv=\"refresh\""), html);
        assertTrue(html.contains("<link rel=\"stylesheet\" href=\"/.gridcache/style.css\">"), "the listing pages' look: " + html);
        assertTrue(html.contains("<b id=\"policy\">affinity</b>"), html);
        assertTrue(html.contains("<b id=\"live\">2</b> live, <b id=\"selectable\">1</b>"), html);
        assertTrue(html.contains("<td class=\"draining\">draining</td>"), html);
        assertTrue(html.contains("<td class=\"n\">1.25</td>"), html);
        assertTrue(html.contains("400 B of 1000 B"), html);
        assertTrue(html.contains("75.0%"), html);
    }

    @Test
    void thePoolsApiListsNearestFirstByTheSiteMap() throws Exception {
        pool("far", "cern", PoolRecord.ENABLED, 0, "http://far:1");
        pool("near", "local", PoolRecord.ENABLED, 5, "http://near:1");
        pool("gone", "local", PoolRecord.DRAINING, 0, "http://gone:1");
        await().atMost(WAIT).alias("three pools").until(() -> get("/.gridcache/api/v1/pools").body().contains("gone"));
        Map<?, ?> plain = Json.mapper().readValue(get("/.gridcache/api/v1/pools").body(), Map.class);
        assertEquals(null, plain.get("site"));
        assertEquals(List.of("far", "near", "gone"), ids(plain), "no site map: least loaded first, draining last");

        ClusterConfig.set(zk, Keys.SITE_MAP.key(), "10.0.0.0/8=cern,127.0.0.0/8=local");
        // the client's own site, not a pool's (pools carry "site" too)
        await().atMost(WAIT).alias("the site map to apply").until(() -> get("/.gridcache/api/v1/pools").body()
                .contains("\"client\":\"127.0.0.1\",\"site\":\"local\""));
        HttpResponse<String> r = get("/.gridcache/api/v1/pools");
        assertEquals("application/json", r.headers().firstValue("Content-Type").orElseThrow());
        Map<?, ?> mapped = Json.mapper().readValue(r.body(), Map.class);
        assertEquals("127.0.0.1", mapped.get("client"));
        assertEquals(List.of("near", "far", "gone"), ids(mapped), "the client's site first");
        Map<?, ?> near = (Map<?, ?>) ((List<?>) mapped.get("pools")).get(0);
        assertEquals(true, near.get("nearest"));
        assertEquals(5.0, near.get("load"));
        assertEquals(0.75, near.get("hitRate"));
    }

    @Test
    void aReadTheDoorStreamsIsATransferRecordOfTheDoor() throws Exception {
        FakePool fake = new FakePool("fake", key);
        closeables.add(fake);
        Files.write(tmp.resolve("files").resolve("streamed.bin"), new byte[1000]); // a path no other test reads
        fake.files.put("/streamed.bin", new byte[1000]);
        pool("fake", "s", PoolRecord.ENABLED, 0, fake.url());
        Logger transfers = (Logger) LoggerFactory.getLogger(TransferLog.LOGGER);
        ListAppender<ILoggingEvent> appender = new ListAppender<>();
        appender.start();
        transfers.addAppender(appender);
        try {
            await().atMost(WAIT).alias("the proxied read").until(() -> get("/streamed.bin", "User-Agent", "cadaver/0.24").statusCode() == 200);
            // records are written off the request's thread: an earlier test's may still arrive, so only this path's count
            Supplier<List<String>> lines = () -> List.copyOf(appender.list).stream().flatMap(e -> e.getFormattedMessage().lines())
                    .filter(l -> l.contains("\"path\":\"/streamed.bin\"")).toList();
            await().atMost(WAIT).alias("its record").until(() -> !lines.get().isEmpty());
            Map<?, ?> record = Json.mapper().readValue(lines.get().get(0), Map.class); // a line is a record
            assertEquals("door", record.get("node"));
            assertEquals("door-ops", record.get("nodeId"));
            assertEquals("anonymous", record.get("subject"));
            assertEquals("/streamed.bin", record.get("path"));
            assertEquals(1000, record.get("bytes"));
            assertEquals(200, record.get("status"));
            assertEquals("fake", record.get("pool"));
            assertEquals(true, record.get("complete"));
            assertFalse(record.containsKey("ticket"));
            assertTrue((Long) JMX.getAttribute(new ObjectName("org.gridcache:type=Door"), "ProxiedBytes") >= 1000);
        } finally {
            transfers.detachAppender(appender);
        }
    }

    private static List<Object> ids(Map<?, ?> answer) {
        return ((List<?>) answer.get("pools")).stream().map(p -> (Object) ((Map<?, ?>) p).get("id")).toList();
    }
}
