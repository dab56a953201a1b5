package org.gridcache.systemtest;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * {@code gridcache zk}, {@code door} and {@code pool} as separate processes in front of one nginx origin mounted at
 * {@code /}, for tests that kill and restart the pool alone and look into its store. The pool may run under a
 * wrapper (a mount namespace holding a small file system at its store); {@code storeView} is where this process
 * sees that store.
 */
final class PoolProcesses implements AutoCloseable {
    /** nginx: {@code /slow/} at 1 MiB/s per connection, so that a fetch is still under way seconds later. */
    static final String SLOW_LOCATION = "location /slow/ { dav_ext_methods PROPFIND OPTIONS; limit_rate 1m; }\n";
    private static final Pattern HEX = Pattern.compile("[0-9a-f]{64}");
    private final Path tmp;
    private final List<String> poolArgs;
    private final List<String> wrapper;
    private final Path storeView;
    private final int poolPort;
    private final Gridcache zk;
    private final Gridcache door;
    private final String doorUrl;
    private Gridcache pool;
    private int starts;

    private PoolProcesses(Path tmp, List<String> poolArgs, List<String> wrapper, Path storeView, int poolPort,
                          Gridcache zk, Gridcache door, String doorUrl) {
        this.tmp = tmp;
        this.poolArgs = poolArgs;
        this.wrapper = wrapper;
        this.storeView = storeView;
        this.poolPort = poolPort;
        this.zk = zk;
        this.door = door;
        this.doorUrl = doorUrl;
    }

    /** Starts them all; the pool's store is {@code store} as the pool sees it, {@code storeView} as we do. */
    static PoolProcesses start(Path tmp, NginxOrigin origin, Path store, Path storeView, String capacity, List<String> wrapper)
            throws Exception {
        int zkPort = Tools.freePort();
        String zkConnect = "127.0.0.1:" + zkPort;
        Gridcache zk = Gridcache.start(tmp.resolve("zk.out"), "zk", "--home", tmp.resolve("zk").toString(), "--port",
                String.valueOf(zkPort)).awaitOutput("is up");
        Gridcache.admin("origins", "add", "data", "--prefix", "/", "--url", origin.url(), "--zk", zkConnect).assertOk();
        Path conf = tmp.resolve("gridcache.properties");
        Files.writeString(conf, "zk=" + zkConnect + "\nlog-dir=" + tmp.resolve("logs") + "\nplain-http=true\n");
        int poolPort = Tools.freePort();
        List<String> poolArgs = List.of("pool", "--config", conf.toString(), "--name", "p1", "--store", store.toString(),
                "--capacity", capacity, "--port", String.valueOf(poolPort));
        int doorPort = Tools.freePort();
        Gridcache door = Gridcache.start(tmp.resolve("door.out"), "door", "--config", conf.toString(), "--port",
                String.valueOf(doorPort), "--signing-key", tmp.resolve("keys/door.jwk").toString()).awaitOutput("is up");
        PoolProcesses cluster = new PoolProcesses(tmp, poolArgs, wrapper, storeView, poolPort, zk, door,
                "http://127.0.0.1:" + doorPort);
        cluster.startPool();
        return cluster;
    }

    /** As {@link #start(Path, NginxOrigin, Path, Path, String, List)}, the store seen the same by both. */
    static PoolProcesses start(Path tmp, NginxOrigin origin, Path store, String capacity, List<String> wrapper) throws Exception {
        return start(tmp, origin, store, store, capacity, wrapper);
    }

    /** Starts the pool and returns its output once it is up. */
    private String startPool() throws IOException {
        starts++;
        pool = Gridcache.start(java.util.Map.of(), wrapper, tmp.resolve("pool-" + starts + ".out"), poolArgs.toArray(String[]::new))
                .awaitOutput("is up");
        return pool.output();
    }

    String door() {
        return doorUrl;
    }

    String poolOutput() {
        return pool.output();
    }

    /** SIGKILL, as a crash would. */
    void killPool() throws InterruptedException {
        pool.kill();
    }

    /** Starts the pool again on the same store (after {@link #killPool}, or stopping it cleanly first); its output. */
    String restartPool() throws Exception {
        if (pool.isAlive()) {
            pool.close();
        }
        return startPool();
    }

    /** Reads every path through the door, 8 at a time, each following the redirect; how many were answered 200. */
    int readAll(List<String> paths) throws IOException {
        Path config = tmp.resolve("urls-" + System.nanoTime() + ".curl");
        StringBuilder lines = new StringBuilder();
        for (String path : paths) {
            lines.append("url = \"").append(doorUrl).append(path).append("\"\noutput = \"/dev/null\"\n");
        }
        Files.writeString(config, lines);
        Tools.Result r = Tools.run(Duration.ofSeconds(240), "curl", "-sS", "--max-time", "60", "--parallel",
                "--parallel-max", "8", "-L", "-w", "%{http_code}\\n", "-K", config.toString());
        return (int) r.out().lines().filter("200"::equals).count();
    }

    /** GET through the door: 200, byte-exact with {@code expected}, with {@code X-Cache: cache}. */
    void assertRead(String path, Path expected, String cache) throws IOException {
        Path out = tmp.resolve("read-" + System.nanoTime());
        Tools.Result r = Tools.curl("-L", "-D", "-", "-o", out.toString(), doorUrl + path).assertOk();
        assertTrue(r.out().contains("X-Cache: " + cache), path + " is a " + cache + ": " + r.out());
        assertEquals(Tools.sha256(expected), Tools.sha256(out), path + " byte-exact");
        Files.delete(out);
    }

    /** The files in the pool's store whose names match, as this process sees them. */
    List<Path> storeFiles(Predicate<String> name) {
        Path data = storeView.resolve("data");
        if (!Files.exists(data)) {
            return List.of();
        }
        try (Stream<Path> walk = Files.walk(data)) {
            return walk.filter(Files::isRegularFile).filter(f -> name.test(f.getFileName().toString())).toList();
        } catch (IOException | java.io.UncheckedIOException e) {
            return storeFiles(name); // a file deleted while we walked: look again
        }
    }

    /** A data file's name: the 64 hex digits of its origin URL's SHA-256 (not a sidecar, part or upload). */
    static boolean isDataFile(String name) {
        return HEX.matcher(name).matches();
    }

    /** The stored data file of a namespace path, found by its sidecar's origin URL. */
    Path dataFileOf(String path) throws IOException {
        for (Path sidecar : storeFiles(n -> n.endsWith(".json") && !n.endsWith(".blocks.json"))) {
            if (Files.readString(sidecar).contains(path + "\"")) {
                return sidecar.resolveSibling(sidecar.getFileName().toString().replace(".json", ""));
            }
        }
        throw new AssertionError("no stored copy of " + path);
    }

    /**
     * Whether the pool's index holds {@code path} now: a complete copy, committed. The store's files cannot tell: the
     * sidecar is written before the part file's rename, and the index entry follows the rename and the directory's
     * fsync, all after the client's last byte. So this asks the pool the door redirects a read to, with a HEAD
     * carrying {@code X-Gridcache-Only-If-Cached} (pools' question to their peers, answered from the index, never
     * fetching): 200 with {@code X-Cache: HIT} when indexed, 200 with {@code IN-FLIGHT} while a fetch is under way or
     * not yet committed, 404 when neither. The question is a lookup, so the pool counts it as a use (LRU order).
     */
    boolean isIndexed(String path) {
        String location = Tools.curl("-o", "/dev/null", "-w", "%{redirect_url}", doorUrl + path).assertOk().out().trim();
        if (location.isEmpty()) {
            throw new AssertionError("the door redirects no read of " + path);
        }
        String head = Tools.curl("-I", "-H", "X-Gridcache-Only-If-Cached: 1", location).assertOk().out();
        Matcher status = Pattern.compile("^HTTP/\\S+ (\\d{3})").matcher(head);
        String code = status.find() ? status.group(1) : "";
        Matcher cache = Pattern.compile("(?im)^X-Cache: *(\\S+)").matcher(head);
        if (code.equals("404")) {
            return false;
        } else if (code.equals("200") && cache.find()) {
            return "HIT".equals(cache.group(1));
        }
        throw new AssertionError("the pool's answer to whether it holds " + path + ": " + head);
    }

    /** A gauge of the pool's {@code /.gridcache/metrics} (Prometheus text, no labels). */
    double metric(String name) {
        String text = Tools.curl("http://127.0.0.1:" + poolPort + "/.gridcache/metrics").assertOk().out();
        Matcher m = Pattern.compile("(?m)^" + name + "(\\{[^}]*})? (\\S+)$").matcher(text);
        if (!m.find()) {
            throw new AssertionError("no " + name + " in the pool's metrics:\n" + text);
        }
        return Double.parseDouble(m.group(2));
    }

    @Override
    public void close() throws Exception {
        List<AutoCloseable> parts = new ArrayList<>(List.of(zk, door));
        parts.add(pool);
        Tools.closeAll(parts.toArray(AutoCloseable[]::new));
    }
}
