package org.gridcache.systemtest;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * gridcache operated as an admin would (issue 6): {@code standalone --jmx-port}, an nginx origin whose access log
 * proves what reached it, and jmxterm to read attributes, drain and resume the pool, evict a path and change the
 * policy; then the metrics, the transfer records and the JMX password file. The jmxterm sessions are kept in
 * target/jmxterm-session.txt.
 *
 * <p>nginx and the standalone gridcache are started once for the class. Each test reads files only it reads, compares
 * counters with their values before it acts, and puts back what it changes (drain, policy), so the tests run in any
 * order.
 */
@Timeout(value = 5, unit = TimeUnit.MINUTES)
class OperationsTest {
    private static final String POOL = "org.gridcache:name=pool1,type=Pool";
    @TempDir
    static Path tmp;
    static NginxOrigin origin;
    static Standalone gridcache;
    static String door;
    static Path home;
    static Path data;
    static Jmxterm jmx;

    @BeforeAll
    static void start() throws Exception {
        Tools.require("curl", "nginx");
        data = Files.createDirectories(tmp.resolve("data"));
        Tools.randomFile(data.resolve("a.bin"), 1 << 20, 61);
        Tools.randomFile(data.resolve("b.bin"), 1 << 20, 62);
        Tools.randomFile(data.resolve("attrs.bin"), 1 << 20, 63);
        Tools.randomFile(data.resolve("metrics.bin"), 1 << 20, 64);
        Tools.randomFile(data.resolve("records.bin"), 1 << 20, 65);
        origin = NginxOrigin.start(tmp.resolve("nginx"), data);
        int jmxPort = Tools.freePort();
        gridcache = Standalone.start(tmp, origin.url(), "--jmx-port", String.valueOf(jmxPort));
        home = gridcache.home();
        door = gridcache.door();
        Path transcript = Path.of(System.getProperty("gridcache.target", "target"), "jmxterm-session.txt");
        Files.deleteIfExists(transcript);
        jmx = new Jmxterm("127.0.0.1:" + jmxPort, transcript);
        assertTrue(gridcache.output().contains("JMX on service:jmx:rmi:///jndi/rmi://127.0.0.1:" + jmxPort + "/jmxrmi"), gridcache.output());
        assertTrue(listensOnLoopbackOnly(jmxPort), "the JMX port listens on 127.0.0.1 only");
    }

    @AfterAll
    static void stop() throws Exception {
        Tools.closeAll(origin, gridcache);
    }

    /**
     * From /proc/net/tcp and tcp6: there is a listening socket (state 0A) on this port, and every one is bound to
     * 127.0.0.1 (a JVM with IPv6 shows it in tcp6 as ::ffff:127.0.0.1).
     */
    static boolean listensOnLoopbackOnly(int port) throws Exception {
        String hexPort = String.format(Locale.ROOT, ":%04X", port);
        List<String> bound = new java.util.ArrayList<>();
        for (String table : List.of("/proc/net/tcp", "/proc/net/tcp6")) {
            Files.readAllLines(Path.of(table)).stream().skip(1).map(String::trim).map(l -> l.split("\\s+"))
                    .filter(f -> f[1].endsWith(hexPort) && f[3].equals("0A")).forEach(f -> bound.add(f[1]));
        }
        return !bound.isEmpty() && bound.stream().allMatch(a -> a.equals("0100007F" + hexPort)
                || a.equals("0000000000000000FFFF00000100007F" + hexPort));
    }

    /** GET through the door, following the redirect; returns the X-Cache of the pool's answer. */
    static String read(String name) throws Exception {
        Path out = tmp.resolve("out-" + name);
        Tools.Result r = Tools.curl("-fL", "-D", "-", "-o", out.toString(), door + "/" + name).assertOk();
        assertEquals(Tools.sha256(data.resolve(name)), Tools.sha256(out), name);
        return r.out().lines().filter(l -> l.toLowerCase(Locale.ROOT).startsWith("x-cache:"))
                .map(l -> l.substring(8).trim()).findFirst().orElse("");
    }

    /** The numeric attributes in a jmxterm answer ({@code Name = 12;}). */
    static long attribute(String jmxAnswer, String name) {
        Matcher m = Pattern.compile("(?m)^\\s*" + name + " = (\\d+);").matcher(jmxAnswer);
        assertTrue(m.find(), () -> name + " in\n" + jmxAnswer);
        return Long.parseLong(m.group(1));
    }

    /** The value of a Prometheus sample line {@code series value}, 0 when absent. */
    static double sample(String metrics, String series) {
        return metrics.lines().filter(l -> l.startsWith(series + " ")).mapToDouble(l -> Double.parseDouble(l.substring(series.length() + 1).trim()))
                .findFirst().orElse(0);
    }

    /** Evicts {@code path} from the pool; the client has its bytes a moment before the pool lets go: retried. */
    static void evict(String path) {
        Tools.await("evict " + path + " to succeed", Duration.ofSeconds(30),
                () -> jmx.session("run -b " + POOL + " evict " + path).contains("evicted " + path + " (1048576 bytes) from pool pool1"));
    }

    static String status(String path) {
        return Tools.curl("-o", "/dev/null", "-w", "%{http_code}", door + path).out();
    }

    @Test
    void anAdminReadsAttributesOfDoorPoolClusterAndConfig() throws Exception {
        String before = jmx.session("get -b " + POOL + " Files Hits Misses OriginBytes", "get -b org.gridcache:type=Door Redirects");
        long files = attribute(before, "Files");
        long hits = attribute(before, "Hits");
        long misses = attribute(before, "Misses");
        long originBytes = attribute(before, "OriginBytes");
        long redirects = attribute(before, "Redirects");
        assertEquals("MISS", read("attrs.bin"));
        assertEquals("HIT", read("attrs.bin"));
        // the counters move after the client's last byte: Hits when the hit's transfer ends, Files and OriginBytes at
        // the miss's commit (sidecar, rename, index entry), which may come even after the hit joined the fill
        Tools.await("the pool's counters after both transfers and the miss's commit", Duration.ofSeconds(30), () -> {
            String now = jmx.session("get -b " + POOL + " Files Hits Misses OriginBytes");
            return now.contains("Hits = " + (hits + 1) + ";") && now.contains("Files = " + (files + 1) + ";")
                    && now.contains("Misses = " + (misses + 1) + ";")
                    && now.contains("OriginBytes = " + (originBytes + 1048576) + ";");
        });
        String out = jmx.session("domain org.gridcache", "beans",
                "get -b " + POOL + " State Files Hits Misses OriginBytes CapacityBytes FreeBytes ActiveTransfers",
                "get -b org.gridcache:type=Door Redirects RequestsTotal OpenConnections",
                "get -b org.gridcache:type=Cluster LivePools SelectablePools Policy Pools",
                "get -b org.gridcache:type=Config ExplicitSettings LastError");
        for (String expected : List.of("org.gridcache:name=pool1,type=Pool", "org.gridcache:type=Door", "org.gridcache:type=Cluster",
                "org.gridcache:type=Config", "State = enabled;", "Files = " + (files + 1) + ";", "Hits = " + (hits + 1) + ";",
                "Misses = " + (misses + 1) + ";", "OriginBytes = " + (originBytes + 1048576) + ";", "CapacityBytes = 10737418240;",
                "Redirects = " + (redirects + 2) + ";", "LivePools = 1;", "Policy = affinity;",
                "pool1 site=local state=enabled")) {
            assertTrue(out.contains(expected), "'" + expected + "' in\n" + out);
        }
    }

    @Test
    void evictMakesTheNextReadMissAtTheOrigin() throws Exception {
        read("b.bin");
        assertEquals("HIT", read("b.bin"));
        assertEquals(1, origin.count("GET", "/b.bin"));
        // the client has its bytes a moment before the pool's transfer lets go of the file: an admin retries
        evict("/b.bin");
        assertEquals("MISS", read("b.bin"));
        assertEquals(2, origin.count("GET", "/b.bin"), "the evicted file came from the origin again");
        String notCached = jmx.session("run -b " + POOL + " evict /never-read.bin");
        assertTrue(notCached.contains("not cached in pool pool1: /never-read.bin"), notCached);
    }

    @Test
    void aDrainedPoolGetsNoClientsAndTheDoorSays503UntilItResumes() throws Exception {
        read("a.bin"); // cached before the drain
        assertEquals("302", status("/a.bin"));
        String drained = jmx.session("run -b " + POOL + " drain", "get -b " + POOL + " State");
        boolean resumed = false;
        try {
            assertTrue(drained.contains("pool pool1 draining") && drained.contains("State = draining;"), drained);
            Tools.await("the door to stop choosing the drained pool", Duration.ofSeconds(30), () -> status("/a.bin").equals("503"));
            assertTrue(Tools.curl(door + "/a.bin").out().contains("drained for maintenance"));
            String cluster = jmx.session("get -b org.gridcache:type=Cluster SelectablePools Pools");
            assertTrue(cluster.contains("SelectablePools = 0;") && cluster.contains("state=draining"), cluster);
            assertTrue(jmx.session("run -b " + POOL + " resume").contains("pool pool1 enabled"));
            resumed = true;
        } finally {
            if (!resumed) {
                jmx.session("run -b " + POOL + " resume");
            }
        }
        Tools.await("the door to send clients to the pool again", Duration.ofSeconds(30), () -> status("/a.bin").equals("302"));
        assertEquals("HIT", read("a.bin"));
    }

    @Test
    void readOnlyIsAWritableAttributeAndAnOperation() {
        String out = jmx.session("run -b " + POOL + " setReadOnly true", "get -b " + POOL + " State ReadOnly",
                "set -b " + POOL + " ReadOnly false", "get -b " + POOL + " State");
        assertTrue(out.contains("State = readonly;") && out.contains("ReadOnly = true;") && out.contains("State = enabled;"), out);
    }

    @Test
    void thePolicyChangesLiveThroughJmxForTheWholeCluster() {
        String out = jmx.session("run -b org.gridcache:type=Cluster setPolicy random");
        assertFalse(out.contains("Exception"), out);
        assertEquals("random", gridcache.admin("config", "get", "selection.policy").assertOk().out().trim());
        Tools.await("the door to apply the policy", Duration.ofSeconds(30),
                () -> jmx.session("get -b org.gridcache:type=Cluster Policy").contains("Policy = random;"));
        Tools.await("the status page to show it", Duration.ofSeconds(30),
                () -> Tools.curl(door + "/.gridcache/status").out().contains("<b id=\"policy\">random</b>"));
        gridcache.admin("config", "unset", "selection.policy").assertOk();
        Tools.await("the door to apply the default policy again", Duration.ofSeconds(30),
                () -> jmx.session("get -b org.gridcache:type=Cluster Policy").contains("Policy = affinity;"));
    }

    @Test
    void badOperationsAndUnknownBeansGetAClearError() {
        String out = jmx.session("run -b " + POOL + " evict /../etc/passwd",
                "run -b org.gridcache:type=Cluster setPolicy fastest");
        assertTrue(out.contains("IllegalArgumentException: bad path '/../etc/passwd': path contains '..'"), out);
        assertTrue(out.contains("invalid value 'fastest' for selection.policy: unknown policy (known: random, least-loaded, affinity)"), out);
        // a pool that does not exist: jmxterm refuses before any operation runs
        String unknown = jmx.session("run -b org.gridcache:name=nosuch,type=Pool drain");
        assertFalse(unknown.contains("operation returns"), unknown);
        assertTrue(unknown.contains("#IllegalArgumentException") || unknown.contains("InstanceNotFound"), unknown);
        assertTrue(jmx.session("get -b " + POOL + " State").contains("State = enabled;"), "nothing changed");
    }

    @Test
    void metricsOnTheDoorAndThePoolAreGridcachePrometheusText() throws Exception {
        String poolUrl = jmx.session("get -b " + POOL + " Url").replaceAll("(?s).*Url = (http://[^;]+);.*", "$1");
        assertTrue(poolUrl.startsWith("http://127.0.0.1:"), poolUrl);
        String evictions = "gridcache_pool_evictions_total{pool=\"pool1\"}";
        double evictionsBefore = sample(Tools.curl("-f", poolUrl + "/.gridcache/metrics").assertOk().out(), evictions);
        read("metrics.bin"); // a redirect, a miss, then an eviction to count
        evict("/metrics.bin");
        Tools.Result doorMetrics = Tools.curl("-f", "-D", "-", door + "/.gridcache/metrics").assertOk();
        assertTrue(doorMetrics.out().contains("text/plain; version=0.0.4"), doorMetrics.out());
        assertTrue(doorMetrics.out().matches("(?s).*gridcache_door_requests_total\\{door=\"[^\"]+\",method=\"GET\",status=\"302\"} [1-9].*"),
                doorMetrics.out());
        String poolMetrics = Tools.curl("-f", poolUrl + "/.gridcache/metrics").assertOk().out();
        for (String name : List.of("gridcache_pool_hits_total{pool=\"pool1\"}", "gridcache_pool_misses_total{pool=\"pool1\"}",
                "gridcache_pool_origin_bytes_total{pool=\"pool1\"}", evictions,
                "gridcache_pool_free_bytes{pool=\"pool1\"}", "gridcache_pool_active_transfers{pool=\"pool1\"}")) {
            assertTrue(poolMetrics.contains(name), name + " in\n" + poolMetrics);
        }
        assertEquals(evictionsBefore + 1, sample(poolMetrics, evictions), "the eviction counted: " + poolMetrics);
        // the miss read its origin into a receive slab (1 MiB), which the pool keeps for the next fetch
        assertTrue(sample(poolMetrics, "gridcache_pool_receive_memory_allocated_bytes_total{pool=\"pool1\"}") >= 1 << 20, poolMetrics);
        assertTrue(sample(poolMetrics, "gridcache_pool_receive_memory_bytes{pool=\"pool1\"}") >= 1 << 20, poolMetrics);
        assertEquals("404", Tools.curl("-o", "/dev/null", "-w", "%{http_code}", poolUrl + "/.gridcache/a.bin").out(), "never data");
    }

    @Test
    void everyTransferIsAJsonLineInHomeLogsTransfersJsonl() throws Exception {
        assertEquals("MISS", read("records.bin"));
        for (int i = 0; i < 5; i++) {
            assertEquals("HIT", read("records.bin"));
        }
        Path file = home.resolve("logs/transfers.jsonl");
        Tools.await("the six transfer records of records.bin", Duration.ofSeconds(30)).until(() ->
                Tools.readLog(file).lines().filter(l -> l.contains("\"path\":\"/records.bin\"")).count() == 6);
        List<String> lines = Tools.readLog(file).lines().toList();
        assertTrue(lines.size() >= 6, lines.toString());
        assertTrue(lines.stream().allMatch(l -> l.startsWith("{\"time\":\"") && l.endsWith("}")), lines.toString());
        assertTrue(lines.stream().anyMatch(l -> l.contains("\"path\":\"/records.bin\"") && l.contains("\"source\":\"miss\"")
                && l.contains("\"originBytes\":1048576") && l.contains("\"subject\":\"anonymous\"") && l.contains("\"vo\":null")
                && l.contains("\"status\":200") && l.contains("\"client\":\"127.0.0.1\"")), lines.toString());
        assertTrue(lines.stream().anyMatch(l -> l.contains("\"path\":\"/records.bin\"") && l.contains("\"source\":\"hit\"")
                && l.contains("\"bytes\":1048576") && l.contains("\"originBytes\":0")), lines.toString());
        assertFalse(Tools.readLog(home.resolve("logs/standalone.log")).contains("\"originBytes\""), "records go to their own file only");
    }

    @Test
    void jmxOffLoopbackWithoutPasswordAndAccessFilesDoesNotStart() throws Exception {
        Path passwords = tmp.resolve("jmx-off-loopback.password");
        Files.writeString(passwords, "admin s3cret\n");
        Files.setPosixFilePermissions(passwords, PosixFilePermissions.fromString("rw-------"));
        for (List<String> files : List.of(List.<String>of(), List.of("--jmx-password-file", passwords.toString()))) {
            List<String> args = new java.util.ArrayList<>(List.of("zk", "--home", tmp.resolve("zk-open").toString(), "--port",
                    String.valueOf(Tools.freePort()), "--jmx-port", String.valueOf(Tools.freePort()), "--jmx-bind", "0.0.0.0"));
            args.addAll(files);
            Tools.Result open = Gridcache.admin(args.toArray(String[]::new));
            assertNotEquals(0, open.exit(), files.toString());
            assertTrue(open.err().contains("needs --jmx-password-file and --jmx-access-file"), open.err());
        }
    }

    @Test
    void anEnsembleMemberWhoseClientPortIsTakenExitsWithTheReason() throws Exception {
        // before, it printed "is up" and ran on with no port open: this run then timed out
        int clientPort = Tools.freePort();
        String ensemble = "127.0.0.1:" + clientPort + ":" + Tools.freePort() + ":" + Tools.freePort() + ",127.0.0.1:" + Tools.freePort()
                + ":" + Tools.freePort() + ":" + Tools.freePort() + ",127.0.0.1:" + Tools.freePort() + ":" + Tools.freePort() + ":" + Tools.freePort();
        try (java.net.ServerSocket squatter = new java.net.ServerSocket()) {
            squatter.bind(new java.net.InetSocketAddress("127.0.0.1", clientPort));
            Tools.Result taken = Gridcache.admin("zk", "--home", tmp.resolve("zk-taken").toString(), "--ensemble", ensemble, "--id", "1",
                    "--log-dir", tmp.resolve("zk-taken-logs").toString());
            assertEquals(1, taken.exit(), taken.out() + taken.err());
            assertFalse(taken.out().contains("is up"), taken.out());
            assertTrue(taken.err().contains("ZooKeeper member 1 stopped: java.net.BindException: Address already in use"), taken.err());
        }
    }

    @Test
    void jmxWithAPasswordFileRefusesStrangersAndAnUnsafeFile() throws Exception {
        Path passwords = tmp.resolve("jmx.password");
        Files.writeString(passwords, "admin s3cret\n");
        Files.setPosixFilePermissions(passwords, PosixFilePermissions.fromString("rw-r--r--"));
        int port = Tools.freePort();
        Tools.Result unsafe = Gridcache.admin("zk", "--home", tmp.resolve("zk1").toString(), "--port", String.valueOf(Tools.freePort()),
                "--jmx-port", String.valueOf(port), "--jmx-password-file", passwords.toString());
        assertNotEquals(0, unsafe.exit());
        assertTrue(unsafe.err().contains("must be readable by its owner only"), unsafe.err());

        Files.writeString(passwords, "admin s3cret\nmonitor m0n\n");
        Files.setPosixFilePermissions(passwords, PosixFilePermissions.fromString("rw-------"));
        Path access = tmp.resolve("jmx.access");
        Files.writeString(access, "admin readwrite\nmonitor readonly\n");
        Path dump = tmp.resolve("heap.hprof");
        try (Gridcache zk = Gridcache.start(tmp.resolve("zk2.out"), "zk", "--home", tmp.resolve("zk2").toString(),
                "--port", String.valueOf(Tools.freePort()), "--jmx-port", String.valueOf(port), "--jmx-password-file",
                passwords.toString(), "--jmx-access-file", access.toString()).awaitOutput("is up")) {
            Path transcript = tmp.resolve("password-session.txt");
            String stranger = new Jmxterm("127.0.0.1:" + port, transcript).session("get -b java.lang:type=Runtime VmName");
            assertFalse(stranger.contains("VmName = "), stranger);
            assertTrue(stranger.contains("SecurityException") || stranger.toLowerCase(Locale.ROOT).contains("credentials"), stranger);
            String admin = new Jmxterm("127.0.0.1:" + port, transcript).as("admin", "s3cret").session("get -b java.lang:type=Runtime VmName",
                    "run -b com.sun.management:type=HotSpotDiagnostic dumpHeap " + dump + " true");
            assertTrue(admin.contains("VmName = "), admin);
            assertTrue(admin.contains("dumpHeap is not available over remote JMX"), admin);
            String monitor = new Jmxterm("127.0.0.1:" + port, transcript).as("monitor", "m0n").session(
                    "get -b java.lang:type=Runtime VmName", "run -b java.lang:type=Memory gc");
            assertTrue(monitor.contains("VmName = "), monitor);
            assertTrue(monitor.contains("Access denied"), "read-only: no operation: " + monitor);
        }
        assertFalse(Files.exists(dump), "no heap dump written");
    }
}
