package org.gridcache.simulator;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.function.Function;
import org.gridcache.common.ByteSize;
import org.gridcache.common.settings.ClusterSettings;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * Replays traces through the door's selection policies and the pools' eviction in this one process (no ZooKeeper,
 * no network), and prints hit ratio, origin bytes and per-pool load as a Markdown table: new policies are compared
 * here first. Build and run:
 *
 * <pre>
 *   mvn -B -q -o -pl simulator -am package -DskipTests
 *   java -jar simulator/target/gridcache-simulator.jar                 # every policy × zipf, same-file, different-files
 *   java -jar simulator/target/gridcache-simulator.jar --pools 3 --capacity 10G --workload zipf --files 10000 --reads 100000
 *   java -jar simulator/target/gridcache-simulator.jar --trace logs/transfers-pool-p1.jsonl --pools 5
 *   java -jar simulator/target/gridcache-simulator.jar --policy affinity --set selection.spill-load=4
 * </pre>
 *
 * Zipf draws are seeded; the random and least-loaded policies draw from the JVM's own random source (as in the door),
 * so their rows may differ slightly between runs.
 */
@Command(name = "gridcache-simulator", mixinStandardHelpOptions = true, sortOptions = false,
        description = "Replays a trace through the door's selection policies and the pools' LRU eviction, without starting any process.")
public final class Simulator implements Callable<Integer> {
    /** Workload name to trace: the two-line dispatch of {@link #trace}. */
    private static final Map<String, Function<Simulator, Trace>> WORKLOADS = new LinkedHashMap<>();

    static {
        WORKLOADS.put("zipf", s -> new ZipfTrace(s.files, s.exponent, s.reads, ByteSize.parse(s.fileSize), s.seed));
        WORKLOADS.put("same-file", s -> new SameFileTrace(s.jobs, ByteSize.parse(s.fileSize)));
        WORKLOADS.put("different-files", s -> new DifferentFilesTrace(s.jobs, ByteSize.parse(s.fileSize)));
        WORKLOADS.put("transfers", s -> {
            if (s.trace == null) {
                throw new IllegalArgumentException("workload transfers needs --trace FILE (a transfers.jsonl)");
            }
            return new TransferTrace(s.trace);
        });
    }

    private static final List<String> DEFAULT_WORKLOADS = List.of("zipf", "same-file", "different-files");

    @Option(names = "--pools", defaultValue = "3", description = "pools in the cluster (default: ${DEFAULT-VALUE}, as the seed experiment)")
    int pools;
    @Option(names = "--capacity", defaultValue = "20G", description = "each pool's store, e.g. 500M, 10G (default: ${DEFAULT-VALUE})")
    String capacity;
    @Option(names = "--concurrency", defaultValue = "20",
            description = "reads under way at once: each read lasts this many reads of the trace (default: ${DEFAULT-VALUE})")
    int concurrency;
    @Option(names = "--policy", split = ",", description = "policies to compare (default: all: random, least-loaded, affinity)")
    List<String> policies;
    @Option(names = "--workload", split = ",",
            description = "zipf, same-file, different-files, transfers (default: the first three; transfers when --trace is given)")
    List<String> workloads;
    @Option(names = "--files", defaultValue = "10000", description = "zipf: distinct files (default: ${DEFAULT-VALUE})")
    int files;
    @Option(names = "--exponent", defaultValue = "0.8", description = "zipf: skew, 0 is uniform (default: ${DEFAULT-VALUE})")
    double exponent;
    @Option(names = "--reads", defaultValue = "100000", description = "zipf: reads (default: ${DEFAULT-VALUE})")
    long reads;
    @Option(names = "--seed", defaultValue = "42", description = "zipf: random seed (default: ${DEFAULT-VALUE})")
    long seed;
    @Option(names = "--file-size", defaultValue = "64M", description = "size of each synthetic file (default: ${DEFAULT-VALUE}, as the seed experiment)")
    String fileSize;
    @Option(names = "--jobs", defaultValue = "20", description = "same-file, different-files: jobs at once (default: ${DEFAULT-VALUE})")
    int jobs;
    @Option(names = "--trace", description = "transfers: a transfers.jsonl (or .jsonl.gz) of the pools")
    Path trace;
    @Option(names = "--set", description = "a cluster setting the policies read, e.g. --set selection.spill-load=4 "
            + "--set pool.watermark.high=0.9 (default: the cluster's defaults)")
    Map<String, String> settings = new LinkedHashMap<>();

    @Spec
    CommandSpec spec;

    public static void main(String[] args) {
        System.exit(commandLine().execute(args));
    }

    static CommandLine commandLine() {
        return new CommandLine(new Simulator())
                .setExecutionExceptionHandler((e, cmd, parsed) -> {
                    if (!(e instanceof IllegalArgumentException)) {
                        throw e;
                    }
                    cmd.getErr().println("gridcache-simulator: " + e.getMessage()); // a bad argument: its reason, not a trace
                    return 2;
                });
    }

    @Override
    public Integer call() {
        Cluster cluster = new Cluster(pools, ByteSize.parse(capacity), concurrency, ClusterSettings.of(settings));
        List<String> policyNames = policies == null ? Policies.NAMES : policies;
        List<String> workloadNames = workloads != null ? workloads : trace != null ? List.of("transfers") : DEFAULT_WORKLOADS;
        policyNames.forEach(name -> Policies.named(name, cluster::settings)); // refuses an unknown name before any run
        List<Trace> traces = new ArrayList<>();
        for (String name : workloadNames) {
            traces.add(trace(name));
        }
        List<Result> results = new ArrayList<>();
        for (Trace t : traces) {
            for (String policy : policyNames) {
                results.add(Simulation.run(policy, cluster, t));
            }
        }
        spec.commandLine().getOut().print(Report.markdown(cluster, results));
        spec.commandLine().getOut().flush();
        return 0;
    }

    Trace trace(String workload) {
        Function<Simulator, Trace> make = WORKLOADS.get(workload);
        if (make == null) {
            throw new IllegalArgumentException("unknown workload '" + workload + "' (known: " + String.join(", ", WORKLOADS.keySet()) + ")");
        }
        return make.apply(this);
    }
}
