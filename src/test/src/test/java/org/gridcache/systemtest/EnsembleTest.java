package org.gridcache.systemtest;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * Cooperating pools on a real three-server ZooKeeper ensemble, every part its own process ({@code gridcache zk
 * --ensemble … --id N}, three pools, two doors), against real nginx origins: a burst on a new file reaches the
 * origin once with {@code affinity} and once per pool with {@code random}; and what happens when a pool is killed,
 * when the ensemble's leader is killed, when a pool's session expires, and when the whole ensemble goes down. The
 * processes are started once for the class; each test that kills or stops a part brings it back and waits until the
 * doors see it again, and after each test every part is checked (and brought back if a failed test left it down),
 * so the tests run in any order.
 */
@Timeout(value = 5, unit = TimeUnit.MINUTES)
class EnsembleTest {
    @RegisterExtension
    static final ZkEnsemble.DescribedOnFailure ENSEMBLE_ON_FAILURE = ZkEnsemble.describedOnFailure(() -> EnsembleTest.zk);
    private static final String SESSION = "4s";
    private static final int FILES = 30;
    @TempDir
    static Path tmp;
    static NginxOrigin origin;
    static NginxOrigin slowOrigin;
    static Path data;
    static ZkEnsemble zk;
    static String zkConnect;
    static final Gridcache[] pools = new Gridcache[3];
    static Gridcache door1;
    static Gridcache door2;
    static String door1Url;
    static String door2Url;
    static Path conf;

    @BeforeAll
    static void start() throws Exception {
        Tools.require("curl", "nginx");
        data = Files.createDirectories(tmp.resolve("data"));
        for (int i = 0; i < FILES; i++) {
            Tools.randomFile(data.resolve("f" + i + ".bin"), 256 * 1024 + i, 100 + i);
        }
        Tools.randomFile(data.resolve("burst-affinity.bin"), 4 << 20, 7);
        Tools.randomFile(data.resolve("burst-random.bin"), 4 << 20, 8);
        origin = NginxOrigin.start(tmp.resolve("nginx"), data);
        slowOrigin = NginxOrigin.start(tmp.resolve("nginx-slow"), data, "2m"); // a 4 MiB file takes 2 s per connection
        zk = ZkEnsemble.start(tmp);
        zkConnect = zk.connectString();
        Gridcache.admin("origins", "add", "fast", "--prefix", "/fast", "--url", origin.url(), "--zk", zkConnect).assertOk();
        Gridcache.admin("origins", "add", "slow", "--prefix", "/slow", "--url", slowOrigin.url(), "--zk", zkConnect).assertOk();
        // the tests identify pools by where a path goes: no spilling, except in the burst test, which turns it on
        Gridcache.admin("config", "set", "selection.spill-load", "1000", "--zk", zkConnect).assertOk();
        conf = tmp.resolve("gridcache.properties");
        Files.writeString(conf, "plain-http=true\nzk=" + zkConnect + "\nlog-dir=" + tmp.resolve("logs")
                + "\nzk-session-timeout=" + SESSION + "\n");
        pools[0] = startPool(0);
        pools[0].awaitOutput("is up");
        pools[1] = startPool(1);
        pools[2] = startPool(2);
        int p1 = Tools.freePort();
        int p2 = Tools.freePort();
        door1 = Gridcache.start(tmp.resolve("door1.out"), "door", "--config", conf.toString(), "--port", String.valueOf(p1), "--id", "d1");
        door2 = Gridcache.start(tmp.resolve("door2.out"), "door", "--config", conf.toString(), "--port", String.valueOf(p2), "--id", "d2");
        for (Gridcache g : List.of(pools[1], pools[2], door1, door2)) {
            g.awaitOutput("is up");
        }
        door1Url = "http://127.0.0.1:" + p1;
        door2Url = "http://127.0.0.1:" + p2;
        for (String door : List.of(door1Url, door2Url)) {
            Tools.await("all three pools seen by " + door, Duration.ofSeconds(60), () -> poolsChosen(door).size() == 3);
        }
    }

    private static Gridcache startPool(int i) throws IOException {
        return Gridcache.pool(tmp, conf, i + 1, "2G");
    }

    @AfterAll
    static void stop() throws Exception {
        List<AutoCloseable> all = new ArrayList<>(List.of(door1, door2));
        all.addAll(List.of(pools));
        all.add(zk);
        for (AutoCloseable g : all) {
            if (g != null) {
                g.close();
            }
        }
        for (NginxOrigin o : new NginxOrigin[] {origin, slowOrigin}) {
            if (o != null) {
                o.close();
            }
        }
    }

    /**
     * Whatever a test did or left undone on failure, the next starts from the whole cluster: three members in a
     * quorum, three pools alive and seen by both doors (a failure stays the test's own instead of cascading).
     */
    @AfterEach
    void everyPartUpAgain() throws Exception {
        zk.restoreAll();
        for (int i = 0; i < 3; i++) {
            if (!pools[i].isAlive()) {
                pools[i] = startPool(i).awaitOutput("is up");
            }
        }
        for (String door : List.of(door1Url, door2Url)) {
            Tools.await("all three pools seen by " + door, Duration.ofSeconds(90), () -> poolsChosen(door).size() == 3);
        }
    }

    /** The pool a door redirects {@code path} to (its Location's port identifies it), or "" for no redirect. */
    private static String poolFor(String door, String path) {
        Tools.Result r = Tools.curl("-o", "/dev/null", "-w", "%{http_code} %{redirect_url}", door + path);
        String[] parts = r.out().trim().split(" ", 2);
        if (!parts[0].equals("302") || parts.length < 2) {
            return "";
        }
        String url = parts[1];
        return url.substring(0, url.indexOf('/', "http://".length()));
    }

    private static Set<String> poolsChosen(String door) {
        Set<String> seen = new HashSet<>();
        for (int i = 0; i < FILES; i++) {
            String p = poolFor(door, "/fast/f" + i + ".bin");
            if (!p.isEmpty()) {
                seen.add(p);
            }
        }
        return seen;
    }

    /** A read as a retrying client does it, through the door, checked byte for byte. */
    private static void readAndCheck(String door, String file) throws IOException {
        Path out = tmp.resolve("read-" + System.nanoTime());
        Tools.curl("-fL", "--retry", "10", "--retry-all-errors", "--retry-delay", "1", "-o", out.toString(), door + "/fast/" + file).assertOk();
        assertEquals(Tools.sha256(data.resolve(file)), Tools.sha256(out), "no wrong bytes for " + file);
        Files.delete(out);
    }

    /** 100 concurrent clients (one curl, 100 parallel transfers) on one file; all checksummed. */
    private static void burst(String door, String path, Path expected) throws IOException {
        Path dir = Files.createDirectories(tmp.resolve("burst-" + System.nanoTime()));
        List<String> args = new ArrayList<>(List.of("-fL", "-Z", "--parallel-max", "100"));
        for (int i = 0; i < 100; i++) {
            args.addAll(List.of("-o", dir.resolve("c" + i).toString(), door + path));
        }
        Tools.curl(args.toArray(String[]::new)).assertOk();
        String sha = Tools.sha256(expected);
        for (int i = 0; i < 100; i++) {
            assertEquals(sha, Tools.sha256(dir.resolve("c" + i)), "client " + i);
            Files.delete(dir.resolve("c" + i));
        }
    }

    /** Whether pool i wrote a complete 200 transfer record for the path (its transfers-pool-p<i+1>.jsonl). */
    private static boolean servedByPool(int i, String path) {
        Path records = tmp.resolve("logs").resolve("transfers-pool-p" + (i + 1) + ".jsonl");
        List<String> lines = Tools.readLog(records).lines().toList();
        return lines.stream().anyMatch(l -> l.contains("\"path\":\"" + path + "\"")
                && l.contains("\"status\":200") && l.contains("\"complete\":true"));
    }

    @Test
    void twoDoorsOnOneEnsembleRedirectToEveryPoolAndThePoolsAcceptBoth() throws Exception {
        assertEquals(poolsChosen(door1Url), poolsChosen(door2Url), "both doors rank the same way");
        for (int i = 0; i < 6; i++) {
            readAndCheck(i % 2 == 0 ? door1Url : door2Url, "f" + i + ".bin");
        }
        Tools.Result r = Tools.curl("-sS", "-D-", "-o", "/dev/null", door2Url + "/fast/f1.bin");
        assertEquals(3, r.out().lines().filter(l -> l.toLowerCase().startsWith("link:") && l.contains("rel=\"duplicate\"")).count(),
                "three pools named as duplicates: " + r.out());
    }

    @Test
    void aBurstOf100ClientsOnANewFileReachesTheOriginOnceWithAffinityAndOncePerPoolWithRandom() throws Exception {
        Gridcache.admin("config", "set", "selection.spill-load", "16", "--zk", zkConnect).assertOk(); // a burst of 100 spills
        Tools.await("door1 to apply the spill threshold", Duration.ofSeconds(20), () -> door1.output().contains("selection.spill-load=16"));
        try {
            burst(door1Url, "/slow/burst-affinity.bin", data.resolve("burst-affinity.bin"));
        } finally {
            Gridcache.admin("config", "set", "selection.spill-load", "1000", "--zk", zkConnect).assertOk();
        }
        assertEquals(1, slowOrigin.count("GET", "/burst-affinity.bin"), "affinity: one origin GET for the whole cluster");
        // each pool's transfer records (written off the event loop, so awaited) say whether it served the file
        Tools.await("the burst to spill to other pools, which pulled from the owner", Duration.ofSeconds(30))
                .until(() -> java.util.stream.IntStream.range(0, 3).filter(i -> servedByPool(i, "/slow/burst-affinity.bin")).count() >= 2);

        Gridcache.admin("config", "set", "selection.policy", "random", "--zk", zkConnect).assertOk();
        try {
            Tools.await("the doors to apply selection.policy=random", Duration.ofSeconds(30), () -> {
                Set<String> seen = new HashSet<>();
                for (int i = 0; i < 12; i++) {
                    seen.add(poolFor(door1Url, "/fast/f0.bin"));
                }
                return seen.size() > 1;
            });
            burst(door1Url, "/slow/burst-random.bin", data.resolve("burst-random.bin"));
            assertEquals(3, slowOrigin.count("GET", "/burst-random.bin"), "random (the seed design): one origin GET per pool");
        } finally {
            Gridcache.admin("config", "unset", "selection.policy", "--zk", zkConnect).assertOk();
        }
        Tools.await("affinity again: 12 choices of one pool", Duration.ofSeconds(30), () -> {
            Set<String> seen = new HashSet<>();
            for (int i = 0; i < 12; i++) {
                seen.add(poolFor(door1Url, "/fast/f0.bin"));
            }
            return seen.size() == 1;
        });
    }

    @Test
    void aKilledPoolIsNoLongerChosenWithinTheSessionTimeoutAndRetryingClientsSucceed() throws Exception {
        String victim = poolFor(door1Url, "/fast/f3.bin");
        int index = indexOfPool(victim);
        pools[index].kill();
        long killed = System.nanoTime();
        readAndCheck(door1Url, "f3.bin"); // a client that retries through the door
        Tools.await("door1 to stop choosing the killed pool", Duration.ofSeconds(20), () -> !poolFor(door1Url, "/fast/f3.bin").equals(victim));
        long millis = (System.nanoTime() - killed) / 1_000_000;
        assertTrue(millis < 4000 + 6000, "gone from the door within the session timeout (4 s) and a little: " + millis + " ms");
        assertNotEquals(victim, poolFor(door2Url, "/fast/f3.bin"));
        readAndCheck(door2Url, "f3.bin");
        pools[index] = startPool(index).awaitOutput("is up");
        Tools.await("the restarted pool chosen again", Duration.ofSeconds(30), () -> poolFor(door1Url, "/fast/f3.bin").equals(poolUrlOf(index)));
    }

    private static int indexOfPool(String url) {
        for (int i = 0; i < 3; i++) {
            if (poolUrlOf(i).equals(url)) {
                return i;
            }
        }
        throw new AssertionError("no pool at " + url);
    }

    private static String poolUrlOf(int i) {
        String out = pools[i].output();
        int at = out.indexOf("is up on ");
        String url = out.substring(at + "is up on ".length()).lines().findFirst().orElseThrow().trim();
        return url.endsWith("/") ? url.substring(0, url.length() - 1) : url;
    }

    @Test
    void killingTheEnsemblesLeaderDoesNotStopReads() throws Exception {
        Tools.await("a leader", Duration.ofSeconds(30), () -> zk.leader() >= 0);
        int leader = zk.leader();
        zk.kill(leader);
        for (int i = 0; i < FILES; i += 3) {
            readAndCheck(i % 2 == 0 ? door1Url : door2Url, "f" + i + ".bin");
        }
        Tools.await("a new leader among the other two", Duration.ofSeconds(60), () -> zk.leader() >= 0 && zk.leader() != leader);
        Gridcache.admin("config", "set", "ticket.lifetime", "61s", "--zk", zkConnect).assertOk(); // writes go on, too
        Gridcache.admin("config", "unset", "ticket.lifetime", "--zk", zkConnect).assertOk();
        zk.startMember(leader).awaitOutput("is up");
        Tools.await("the old leader back as a follower", Duration.ofSeconds(60), () -> zk.state(leader).equals("follower"));
        assertEquals(3, poolsChosen(door1Url).size());
    }

    @Test
    void aPoolWhoseSessionExpiredRegistersAgain() throws Exception {
        String victim = poolFor(door1Url, "/fast/f5.bin");
        int index = indexOfPool(victim);
        pools[index].pause(); // longer than its 4 s session: the ensemble expires it and deletes /pools/<name>
        try {
            Tools.await("door1 to drop the paused pool", Duration.ofSeconds(30), () -> !poolFor(door1Url, "/fast/f5.bin").equals(victim));
        } finally {
            pools[index].resume();
        }
        Tools.await("the pool to register again with a new session", Duration.ofSeconds(60),
                () -> poolFor(door1Url, "/fast/f5.bin").equals(victim) && poolFor(door2Url, "/fast/f5.bin").equals(victim));
        readAndCheck(door2Url, "f5.bin");
    }

    @Test
    void withTheWholeEnsembleDownTheDoorsRedirectToTheLastKnownPoolsForTheGraceThenPoolsRegisterAgain() throws Exception {
        Gridcache.admin("config", "set", "door.zk-grace", "8s", "--zk", zkConnect).assertOk();
        try {
            ensembleDownWithinAndPastTheGrace();
        } finally {
            Gridcache.admin("config", "unset", "door.zk-grace", "--zk", zkConnect).assertOk();
        }
    }

    private static void ensembleDownWithinAndPastTheGrace() throws Exception {
        Tools.await("door1 to apply the grace", Duration.ofSeconds(20), () -> door1.output().contains("door.zk-grace=8s"));
        Set<String> before = poolsChosen(door1Url);
        for (int i = 0; i < 3; i++) {
            zk.kill(i);
        }
        long down = System.nanoTime();
        for (int i = 0; i < 4; i++) {
            readAndCheck(door1Url, "f" + i + ".bin");
        }
        assertEquals(before, poolsChosen(door1Url), "the last known pools, while within the grace");
        Tools.await("503 past the grace", Duration.ofSeconds(60),
                () -> Tools.curl("-o", "/dev/null", "-w", "%{http_code}", door1Url + "/fast/f7.bin").out().equals("503"));
        assertTrue(System.nanoTime() - down >= Duration.ofSeconds(8).toNanos(), "not before the grace");
        assertTrue(Tools.curl(door1Url + "/fast/f7.bin").out().contains("ZooKeeper unreachable"));

        for (int i = 0; i < 3; i++) {
            zk.startMember(i);
        }
        for (int i = 0; i < 3; i++) {
            zk.member(i).awaitOutput("is up");
        }
        for (String door : List.of(door1Url, door2Url)) {
            Tools.await("all three pools registered again, seen by " + door, Duration.ofSeconds(90), () -> poolsChosen(door).size() == 3);
        }
        readAndCheck(door2Url, "f7.bin");
    }
}
