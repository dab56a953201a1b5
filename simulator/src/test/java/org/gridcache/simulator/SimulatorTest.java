package org.gridcache.simulator;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import org.gridcache.common.transfer.TransferRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/** The command line: what a user types and reads. */
class SimulatorTest {
    private final StringWriter out = new StringWriter();
    private final StringWriter err = new StringWriter();

    private int run(String... args) {
        CommandLine cmd = Simulator.commandLine();
        cmd.setOut(new PrintWriter(out));
        cmd.setErr(new PrintWriter(err));
        return cmd.execute(args);
    }

    @Test
    void theDefaultRunPrintsATableOfEveryPolicyForEveryWorkload() {
        assertEquals(0, run(), err.toString());

        String[] rows = Arrays.stream(out.toString().split("\n")).filter(l -> l.startsWith("| ") && !l.startsWith("| workload")).toArray(String[]::new);
        assertEquals(9, rows.length, out.toString());
        for (String workload : new String[] {"zipf", "same file", "different files"}) {
            for (String policy : Policies.NAMES) {
                assertTrue(Arrays.stream(rows).anyMatch(r -> r.startsWith("| " + workload) && r.contains("| " + policy + " |")),
                        workload + " × " + policy + " in\n" + out);
            }
        }
    }

    @Test
    void oneWorkloadAndPolicyCanBeChosenWithTheirParameters() {
        assertEquals(0, run("--pools", "5", "--capacity", "1G", "--workload", "zipf", "--files", "100", "--reads", "1000",
                "--policy", "affinity"), err.toString());

        String table = out.toString();
        assertTrue(table.startsWith("5 pools × 1.0 GiB"), table);
        assertTrue(table.contains("| zipf s=0.8, 100 files | affinity | 1000 |"), table);
    }

    @Test
    void aTraceFileIsReplayedWhenGivenAlone(@TempDir Path dir) throws IOException {
        Path file = dir.resolve("transfers-pool-p1.jsonl");
        Files.write(file, List.of(new TransferRecord("2026-11-23T10:00:00Z", "pool", "p1", "anonymous", null, "127.0.0.1",
                "GET", "/data/a", 100, 12, TransferRecord.MISS, 100, 200, true, "p1").toJson()));

        assertEquals(0, run("--trace", file.toString(), "--pools", "2"), err.toString());

        assertTrue(out.toString().contains("| transfers transfers-pool-p1.jsonl | affinity | 1 |"), out.toString());
    }

    @Test
    void aMalformedTraceIsRefusedNamingTheLine(@TempDir Path dir) throws IOException {
        Path file = dir.resolve("transfers.jsonl");
        Files.write(file, List.of("not json"));

        assertEquals(2, run("--trace", file.toString()));

        assertTrue(err.toString().contains("transfers.jsonl line 1: not a transfer record"), err.toString());
    }

    @Test
    void anUnknownPolicyIsRefusedWithTheKnownOnes() {
        assertEquals(2, run("--policy", "fastest"));

        assertTrue(err.toString().contains("unknown policy (known: random, least-loaded, affinity)"), err.toString());
    }

    @Test
    void theTransfersWorkloadWithoutATraceFileIsRefused() {
        assertEquals(2, run("--workload", "transfers"));

        assertTrue(err.toString().contains("--trace"), err.toString());
    }
}
