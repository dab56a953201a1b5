package org.gridcache.pool.store;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.gridcache.common.settings.ClusterSettings;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The store's hit path, as every small-file hit takes it ({@code Downloads.hit}): the index lookup, the pin, the
 * open of the data file and its state checked again ({@link Store#pinAndOpen}), then the close and the unpin when
 * the transfer ends. {@code pin} leaves out the open and close (two system calls) to show the store's own part.
 * {@code files}: 1 (every thread hits one file: one pin-map bin for all) or 1,024 (each hit a random one). Run at
 * 1, 2, 4 and 8 threads with {@code -t}; JMH reports ops/s over all threads.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class StoreHitBenchmark {
    @Param({"1", "1024"})
    public int files;
    private Path root;
    private Store store;
    private StoreKey[] keys;

    @Setup(Level.Trial)
    public void setUp() throws IOException {
        root = Files.createTempDirectory("store-hit-bench");
        store = Store.open(root, 1L << 30, ClusterSettings::defaults);
        keys = new StoreKey[files];
        for (int i = 0; i < files; i++) {
            String url = "http://origin/f" + i;
            StoreKey key = StoreKey.ofOrigin(url);
            ReplicaWriter fill = store.openFill(key, 5939);
            Files.write(fill.path(), new byte[5939]);
            fill.commit(new Sidecar(url, 5939, 1, null, 0), false);
            keys[i] = key;
        }
    }

    @TearDown(Level.Trial)
    public void tearDown() throws IOException {
        store.close();
        try (Stream<Path> all = Files.walk(root)) {
            all.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        }
    }

    private StoreKey next() {
        return files == 1 ? keys[0] : keys[ThreadLocalRandom.current().nextInt(files)];
    }

    /** A hit as a request takes it: lookup, pin, open, checks; then close and unpin. */
    @Benchmark
    public long hit() throws IOException {
        StoreKey key = next();
        Store.Opened opened = store.pinAndOpen(key);
        long size = opened.entry().size();
        opened.file().close();
        store.unpin(key);
        return size;
    }

    /** The store's part alone: lookup, pin, state check, unpin. */
    @Benchmark
    public long pin() {
        StoreKey key = next();
        StoreEntry e = store.lookup(key);
        store.pin(key);
        long size = e.state() == ReplicaState.COMPLETE ? e.size() : -1;
        store.unpin(key);
        return size;
    }
}
