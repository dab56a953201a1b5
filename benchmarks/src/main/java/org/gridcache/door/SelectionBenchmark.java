package org.gridcache.door;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.gridcache.common.cluster.PoolRecord;
import org.gridcache.door.read.FileReads;
import org.gridcache.door.select.AffinitySelector;
import org.gridcache.door.select.LeastLoadedSelector;
import org.gridcache.door.select.PoolSelector;
import org.gridcache.door.select.RandomSelector;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * What choosing the pools of one read costs the door, with 1,000 pools registered: the ranking a redirect needs
 * (the chosen pool and three {@code Link} fallbacks, with their peers), per policy. SampleTime gives percentiles;
 * the goal is p99 ≤ 20 µs. Run: {@code java -jar benchmarks/target/benchmarks.jar SelectionBenchmark}.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.SampleTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(1)
public class SelectionBenchmark {
    @Param({"1000"})
    int pools;

    private List<PoolRecord> live;
    private final String[] paths = new String[4096];
    private int next;
    private final AffinitySelector affinity = new AffinitySelector(() -> 16);
    private final RandomSelector random = new RandomSelector();
    private final LeastLoadedSelector leastLoaded = new LeastLoadedSelector();

    @Setup
    public void setUp() {
        Random r = new Random(42);
        List<PoolRecord> list = new ArrayList<>();
        for (int i = 0; i < pools; i++) {
            long capacity = (10L + r.nextInt(90)) << 40; // 10-100 TiB, so weights differ
            double load = r.nextInt(10) == 0 ? 20 + r.nextInt(20) : r.nextDouble() * 8; // a tenth over the spill threshold
            list.add(new PoolRecord("pool-" + i + ".site" + (i % 7) + ".example.org", "http://pool" + i + ":20000", "site" + (i % 7),
                    capacity, capacity / 2, (int) load, 0, load, "bench", 0));
        }
        live = List.copyOf(list);
        for (int i = 0; i < paths.length; i++) {
            paths[i] = "/atlas/rucio/data18_13TeV/" + Integer.toHexString(r.nextInt()) + "/DAOD_PHYS." + r.nextInt(1 << 24) + ".pool.root.1";
        }
    }

    private String path() {
        next = (next + 1) & (paths.length - 1);
        return paths[next];
    }

    @Benchmark
    public List<PoolSelector.Choice> affinity() {
        return affinity.rank(path(), live, FileReads.RANKED);
    }

    @Benchmark
    public List<PoolSelector.Choice> random() {
        return random.rank(path(), live, FileReads.RANKED);
    }

    @Benchmark
    public List<PoolSelector.Choice> leastLoaded() {
        return leastLoaded.rank(path(), live, FileReads.RANKED);
    }
}
