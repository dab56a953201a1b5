package org.gridcache.systemtest;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A randomized stress of one real pool (issue 40, item 7): a standalone whose store is far smaller than its origin's
 * files, so eviction runs all along, in front of a writable nginx origin. For {@link #SECONDS} (the system property
 * {@code gridcache.stress.seconds} runs it longer by hand) {@link #WORKERS} clients at once read whole files (misses
 * and hits), read random ranges (block reads), read one file together, upload new files through the door and go away
 * mid-transfer; every transfer that completes is checked byte for byte against the origin (see {@link StressClient}).
 * At the end the pool serves every file byte-exact and its metrics agree with its disk: no transfer still counted, no
 * reservation left (the store's used bytes are the sum of its files' footprints).
 *
 * <p>The seed is printed at the start; {@code -Dgridcache.stress.seed=N} replays each client's sequence of requests
 * (their interleaving is the machine's).
 */
@Timeout(value = 10, unit = TimeUnit.MINUTES)
class StressTest {
    static final long SECONDS = Long.getLong("gridcache.stress.seconds", 60);
    static final int WORKERS = 6;
    static final int FILES = 20;
    /** The store: under the origin's files, and far under the uploads', so that they evict one another. */
    static final String CAPACITY = "24M";
    @TempDir
    static Path tmp;
    static NginxOrigin origin;
    static Standalone gridcache;
    static Path data;
    static long seed;

    @BeforeAll
    static void start() throws Exception {
        Tools.require("nginx");
        seed = Long.getLong("gridcache.stress.seed", System.nanoTime());
        System.out.println("StressTest seed " + seed + " (replay: -Dgridcache.stress.seed=" + seed + ")");
        data = Files.createDirectories(tmp.resolve("data"));
        Files.createDirectories(data.resolve("up"));
        Random random = new Random(seed);
        long[] sizes = {1, 4095, 4097}; // about a file-system block
        for (int i = 0; i < FILES; i++) {
            long size = i < sizes.length ? sizes[i] : 64 * 1024 + random.nextInt(3 << 20);
            Tools.randomFile(data.resolve("f" + i + ".bin"), size, seed + i);
        }
        origin = NginxOrigin.startWritable(tmp.resolve("nginx"), data);
        gridcache = Standalone.start(tmp, origin.url(), "--capacity", CAPACITY);
    }

    @AfterAll
    static void stop() throws Exception {
        Tools.closeAll(origin, gridcache);
    }

    @Test
    void aPoolUnderRandomLoadServesEveryFileExactlyAndLeaksNothing() throws Exception {
        StressClient client = new StressClient(gridcache.door(), data);
        List<String> originals = new ArrayList<>();
        for (int i = 0; i < FILES; i++) {
            originals.add("/f" + i + ".bin");
            client.digests.put("/f" + i + ".bin", Tools.sha256(data.resolve("f" + i + ".bin")));
        }
        ExecutorService readers = Executors.newCachedThreadPool();
        ExecutorService workers = Executors.newFixedThreadPool(WORKERS);
        long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(SECONDS);
        for (int w = 0; w < WORKERS; w++) {
            int worker = w;
            workers.execute(() -> run(client, readers, originals, worker, end));
        }
        workers.shutdown();
        assertTrue(workers.awaitTermination(SECONDS + 240, TimeUnit.SECONDS), "the clients finished");
        readers.shutdown();
        System.out.println("StressTest seed " + seed + ": " + new TreeMap<>(client.counts));
        assertEquals(List.of(), List.copyOf(client.violations), "seed " + seed);
        assertTrue(client.counts.keySet().stream().anyMatch(k -> k.startsWith("upload 20")), "uploads ran: " + client.counts);

        for (String path : new TreeMap<>(client.digests).keySet()) {
            assertTrue(client.read(path), path + " served byte-exact after the load: " + client.violations);
        }
        URI pool = client.pool("/f0.bin");
        Tools.await("the pool's metrics to agree with its store", Duration.ofSeconds(30))
                .untilAsserted(() -> assertConsistent(client.metrics(pool)));
        assertFalse(gridcache.output().contains("LEAK:"), "no buffer leaked: " + gridcache.output());
    }

    /** One client's loop until {@code end}: a random request at a time, as {@code seed} and its number draw them. */
    private static void run(StressClient client, ExecutorService readers, List<String> originals, int worker, long end) {
        Random random = new Random(seed * 31 + worker);
        List<String> uploaded = new ArrayList<>();
        for (int step = 0; System.nanoTime() < end; step++) {
            String path = random.nextInt(5) == 0 && !uploaded.isEmpty() ? uploaded.get(random.nextInt(uploaded.size()))
                    : originals.get(random.nextInt(originals.size()));
            int op = random.nextInt(100);
            try {
                if (op < 35) {
                    client.read(path);
                } else if (op < 60) {
                    long size = Files.size(data.resolve(path.substring(1)));
                    long from = (long) (random.nextDouble() * size);
                    client.range(path, from, (int) Math.max(1, Math.min(size - from, 1 + random.nextInt(1 << 20))));
                } else if (op < 70) {
                    CompletableFuture<?>[] together = new CompletableFuture<?>[3];
                    for (int i = 0; i < together.length; i++) {
                        together[i] = CompletableFuture.runAsync(() -> readQuietly(client, path), readers);
                    }
                    CompletableFuture.allOf(together).join();
                } else if (op < 80) {
                    String up = "/up/w" + worker + "-" + step + ".bin";
                    client.upload(up, StressClient.bytes(seed + 1000L * worker + step, 1 + random.nextInt(2 << 20)));
                    if (client.digests.containsKey(up)) {
                        uploaded.add(up);
                    }
                } else {
                    long size = Files.size(data.resolve(path.substring(1)));
                    client.abandon(path, (int) (random.nextDouble() * size), random.nextBoolean()); // mid-body
                }
            } catch (Exception | AssertionError e) {
                client.violations.add("worker " + worker + " step " + step + " (op " + op + ", " + path + "): " + e);
            }
        }
    }

    private static void readQuietly(StressClient client, String path) {
        try {
            client.read(path);
        } catch (Exception e) {
            client.violations.add("reader of " + path + ": " + e);
        }
    }

    /**
     * The pool's metrics against its disk, once quiet: nothing in flight, its complete files as many as it counts,
     * its used bytes their sizes (the store counts data bytes; footprints only for the file-system check) plus at
     * most the bytes its partial files hold.
     */
    private static void assertConsistent(String metrics) throws Exception {
        long complete = 0;
        long sizes = 0;
        long partial = 0;
        List<String> parts = new ArrayList<>();
        try (Stream<Path> walk = Files.walk(gridcache.home().resolve("pool/data"))) {
            for (Path f : walk.filter(Files::isRegularFile).toList()) {
                String name = f.getFileName().toString();
                if (!name.contains(".")) {
                    complete++;
                    sizes += Files.size(f);
                } else if (name.endsWith(".blocks")) {
                    partial += Files.size(f);
                } else if (!name.endsWith(".json")) {
                    parts.add(name);
                }
            }
        }
        assertEquals(List.of(), parts, "no part or temporary file left");
        assertEquals(0, sample(metrics, "gridcache_pool_active_transfers"), "no transfer still counted");
        assertEquals(complete, sample(metrics, "gridcache_pool_files"), "files counted as stored");
        long used = sample(metrics, "gridcache_pool_used_bytes");
        if (partial == 0) {
            assertEquals(sizes, used, "used bytes: the sizes of the files stored, no reservation left");
        } else {
            assertTrue(used >= sizes && used <= sizes + partial,
                    "used " + used + " within the files' " + sizes + " and the partial files' " + partial);
        }
    }

    private static long sample(String metrics, String name) {
        Matcher m = Pattern.compile("(?m)^" + name + "(\\{[^}]*})? (\\S+)$").matcher(metrics);
        assertTrue(m.find(), "no " + name + " in the pool's metrics:\n" + metrics);
        return (long) Double.parseDouble(m.group(2));
    }
}
