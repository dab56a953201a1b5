package org.gridcache.simulator;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.Arrays;
import org.junit.jupiter.api.Test;
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
    void anUnknownPolicyIsRefusedWithTheKnownOnes() {
        assertEquals(2, run("--policy", "fastest"));

        assertTrue(err.toString().contains("unknown selection policy 'fastest' (known: random, least-loaded, affinity)"), err.toString());
    }

    @Test
    void theTransfersWorkloadWithoutATraceFileIsRefused() {
        assertEquals(2, run("--workload", "transfers"));

        assertTrue(err.toString().contains("--trace"), err.toString());
    }
}
