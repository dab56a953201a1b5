package org.gridcache.systemtest;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.gridcache.systemtest.OutageLoad.Kind;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.CleanupMode;
import org.junit.jupiter.api.io.TempDir;

/**
 * ZooKeeper outages under a bounded load of clients (issue 15, R3): a real three-member ensemble, a door and two
 * pools, each its own process, over a writable nginx origin. First the ensemble's leader is killed (kill -9) and
 * restarted; then the whole ensemble is down for 60 s — longer than every session (4 s), so each node's session
 * expires during the outage — and back. Throughout, clients read cached files and new ones (misses), write, lock and
 * list through the door. No answer may be a 5xx other than 503 with {@code Retry-After}, no request may outlive the
 * client's timeout, every 200 is byte-exact; reads go on during both outages, and afterwards everything works again
 * without restarting any gridcache process.
 */
@Timeout(value = 5, unit = TimeUnit.MINUTES)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class ZooKeeperOutageTest {
    @RegisterExtension
    static final ZkEnsemble.DescribedOnFailure ENSEMBLE_ON_FAILURE = ZkEnsemble.describedOnFailure(() -> ZooKeeperOutageTest.zk);
    private static final String SESSION = "4s";
    private static final Duration OUTAGE = Duration.ofSeconds(60);
    private static final int CACHED = 12;
    private static final int MISSES = 2000;
    @TempDir(cleanup = CleanupMode.ON_SUCCESS) // the processes' output and logs stay for a failure's diagnosis
    static Path tmp;
    static NginxOrigin origin;
    static Path data;
    static ZkEnsemble zk;
    static final Gridcache[] pools = new Gridcache[2];
    static Gridcache door;
    static int doorPort;
    static String doorUrl;
    static final Map<String, byte[]> cached = new LinkedHashMap<>();
    static final List<Map.Entry<String, byte[]>> misses = new ArrayList<>();

    @BeforeAll
    static void start() throws Exception {
        Tools.require("curl", "nginx");
        data = Files.createDirectories(tmp.resolve("data"));
        Files.createDirectories(data.resolve("up"));
        for (int i = 0; i < CACHED; i++) {
            Path f = Tools.randomFile(data.resolve("cached" + i + ".bin"), 128 * 1024 + i, 500 + i);
            cached.put("/d/cached" + i + ".bin", Files.readAllBytes(f));
        }
        for (int i = 0; i < MISSES; i++) {
            Path f = Tools.randomFile(data.resolve("miss" + i + ".bin"), 4 * 1024 + i, 5000 + i);
            misses.add(Map.entry("/d/miss" + i + ".bin", Files.readAllBytes(f)));
        }
        origin = NginxOrigin.startWritable(tmp.resolve("nginx"), data);
        zk = ZkEnsemble.start(tmp);
        Gridcache.admin("origins", "add", "d", "--prefix", "/d", "--url", origin.url(), "--zk", zk.connectString()).assertOk();
        Path conf = tmp.resolve("gridcache.properties");
        Files.writeString(conf, "plain-http=true\nzk=" + zk.connectString() + "\nlog-dir=" + tmp.resolve("logs")
                + "\nzk-session-timeout=" + SESSION + "\n");
        for (int i = 0; i < pools.length; i++) {
            pools[i] = Gridcache.start(tmp.resolve("pool" + (i + 1) + ".out"), "pool", "--config", conf.toString(),
                    "--name", "p" + (i + 1), "--store", tmp.resolve("store" + (i + 1)).toString(), "--capacity", "1G",
                    "--port", String.valueOf(Tools.freePort()));
        }
        doorPort = Tools.freePort();
        door = Gridcache.start(tmp.resolve("door.out"), "door", "--config", conf.toString(), "--port", String.valueOf(doorPort), "--id", "d1");
        for (Gridcache g : List.of(pools[0], pools[1], door)) {
            g.awaitOutput("is up");
        }
        doorUrl = "http://127.0.0.1:" + doorPort;
        Tools.await("both pools seen by the door", Duration.ofSeconds(60), () -> poolsSeen() == 2);
        for (String path : cached.keySet()) { // the cached files: on their pools before the load starts
            Tools.curl("-fL", "-o", "/dev/null", doorUrl + path).assertOk();
        }
    }

    @AfterAll
    static void stop() throws Exception {
        List<AutoCloseable> all = new ArrayList<>(List.of(origin, zk));
        all.addAll(List.of(pools));
        all.add(door);
        Tools.closeAll(all.toArray(AutoCloseable[]::new));
    }

    /** The number of pools the door's pools API lists. */
    private static int poolsSeen() {
        String json = Tools.curl(doorUrl + "/.gridcache/api/v1/pools").out();
        return (int) json.lines().flatMap(l -> java.util.Arrays.stream(l.split("\"id\"")).skip(1)).count();
    }

    /** What a test does to the cluster while the load runs. */
    @FunctionalInterface
    private interface Scenario {
        void run(OutageLoad load) throws Exception;
    }

    /**
     * Starts the load, waits for answers in phase "steady", runs {@code scenario}, then stops the load and prints its
     * counts (the figures of the report) and violations, whatever happened; returns the stopped load to assert on.
     */
    private static OutageLoad underLoad(String title, Scenario scenario) throws Exception {
        OutageLoad load = OutageLoad.start(doorUrl, cached, i -> i < misses.size() ? misses.get(i) : null, "/d/up", "/d/",
                4, Duration.ofMillis(100));
        try {
            awaitAnswers(load, "steady");
            scenario.run(load);
        } finally {
            load.close();
            System.out.println("ZooKeeperOutageTest, " + title + " (output in " + tmp + "):\n" + load.report()
                    + String.join("\n", load.violations()));
        }
        return load;
    }

    @Test
    @Order(1)
    void killingTheLeaderLosesNoRequest() throws Exception {
        OutageLoad load = underLoad("leader killed", l -> {
            Tools.await("a leader", Duration.ofSeconds(60), () -> zk.leader() >= 0);
            int leader = zk.leader();
            l.phase("leader-down");
            zk.kill(leader);
            Tools.await("a new leader among the other two", Duration.ofSeconds(60), () -> zk.leader() >= 0 && zk.leader() != leader);
            awaitAnswers(l, "leader-down");
            zk.startMember(leader).awaitOutput("is up");
            Tools.await("the old leader back as a follower", Duration.ofSeconds(60), () -> zk.state(leader).equals("follower"));
            l.phase("leader-back");
            awaitAnswers(l, "leader-back");
        });
        assertEquals(List.of(), load.violations(), load.violationCount() + " violations; counts:\n" + load.report());
        for (String phase : List.of("leader-down", "leader-back")) {
            assertEquals(0, load.count(phase, Kind.HIT, "door", 503) + load.count(phase, Kind.MISS, "door", 503),
                    "no read refused while a quorum stands: " + load.report());
        }
    }

    @Test
    @Order(2)
    void theWholeEnsembleDownFor60sLosesNoRequestAndEverythingWorksAfterwards() throws Exception {
        OutageLoad load = underLoad("ensemble down " + OUTAGE.toSeconds() + " s", l -> {
            l.phase("ensemble-down");
            for (int i = 0; i < 3; i++) {
                zk.kill(i);
            }
            long down = System.nanoTime();
            // the outage itself lasts OUTAGE: the clients' answers during it are what the test is about
            Tools.await("an outage of " + OUTAGE.toSeconds() + " s", OUTAGE.plusSeconds(30))
                    .pollInterval(Duration.ofSeconds(1))
                    .until(() -> System.nanoTime() - down >= OUTAGE.toNanos());
            l.phase("ensemble-back");
            for (int i = 0; i < 3; i++) {
                zk.startMember(i);
            }
            for (int i = 0; i < 3; i++) {
                zk.member(i).awaitOutput("is up");
            }
            Tools.await("the door to write, lock and list again", Duration.ofSeconds(90), () ->
                    l.count("ensemble-back", Kind.PUT, "door", 201) > 0 && locked(l, "ensemble-back"));
            // the ensemble kept the old sessions and expires them now: their ephemeral records vanish, and each node's
            // new session registers it again (EphemeralRegistration), all under load
            Tools.await("the pools and the door registered again with new sessions", Duration.ofSeconds(60), () ->
                    registrations("pool-p1.log", "/pools/p1") >= 2 && registrations("pool-p2.log", "/pools/p2") >= 2
                            && registrations("door-" + doorPort + ".log", "/doors/d1") >= 2);
            Tools.await("both pools seen by the door", Duration.ofSeconds(60), () -> poolsSeen() == 2);
            l.phase("after");
            awaitAnswers(l, "after");
            Tools.await("a write and a lock after the outage", Duration.ofSeconds(30), () ->
                    l.count("after", Kind.PUT, "door", 201) > 0 && locked(l, "after"));
        });
        assertEquals(List.of(), load.violations(), load.violationCount() + " violations; counts:\n" + load.report());
        assertEquals(0, load.count("ensemble-down", Kind.HIT, "door", 503), "cached files read throughout: " + load.report());
        assertTrue(load.count("ensemble-down", Kind.HIT, "pool", 200) > 100, "cached files read throughout: " + load.report());
        assertTrue(load.count("ensemble-down", Kind.MISS, "pool", 200) > 20, "new misses go on: " + load.report());
        assertTrue(load.count("ensemble-down", Kind.PUT, "door", 503) > 0, "writes wait for ZooKeeper: " + load.report());
        for (int i = 1; i <= pools.length; i++) {
            assertTrue(Tools.readLog(tmp.resolve("logs").resolve("pool-p" + i + ".log")).contains("Session expired"),
                    "the outage outlived pool p" + i + "'s session");
        }
    }

    /** How many times the log {@code file} says the node {@code znode} was registered in ZooKeeper. */
    private static int registrations(String file, String znode) {
        return (int) Tools.readLog(tmp.resolve("logs").resolve(file)).lines()
                .filter(l -> l.contains("registered " + znode + " ")).count();
    }

    /** Whether a LOCK was granted in {@code phase} (201 for a new, empty file). */
    private static boolean locked(OutageLoad load, String phase) {
        return load.count(phase, Kind.LOCK, "door", 200) + load.count(phase, Kind.LOCK, "door", 201) > 0;
    }

    /** Waits until the load had at least 20 cached reads and a miss answered 200 by a pool in {@code phase}. */
    private static void awaitAnswers(OutageLoad load, String phase) {
        Tools.await("reads answered in phase " + phase, Duration.ofSeconds(60), () ->
                load.count(phase, Kind.HIT, "pool", 200) >= 20 && load.count(phase, Kind.MISS, "pool", 200) >= 2);
    }
}
