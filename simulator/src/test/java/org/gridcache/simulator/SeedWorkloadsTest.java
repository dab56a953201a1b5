package org.gridcache.simulator;

import static org.junit.jupiter.api.Assertions.assertEquals;
import org.gridcache.common.settings.ClusterSettings.Keys;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;
import org.gridcache.common.settings.ClusterSettings;
import org.junit.jupiter.api.Test;

/** The seed paper's two workloads through the real policies, on the seed experiment's cluster: 3 pools, 20 jobs at once. */
class SeedWorkloadsTest {
    private static final long MIB_64 = 64L << 20;
    private static final int JOBS = 20;
    private static final Cluster SEED = new Cluster(3, 20L << 30, JOBS, ClusterSettings.defaults());

    @Test
    void affinityReadsAHotNewFileFromTheOriginOnce() {
        Result r = Simulation.run("affinity", SEED, new SameFileTrace(JOBS, MIB_64));

        assertEquals(MIB_64, r.originBytes(), "origin bytes");
        assertEquals(1, r.origin(), "origin reads");
    }

    @Test
    void affinityStillReadsTheOriginOnceWhenTheLoadSpillsCopiesOntoOtherPools() {
        Cluster lowSpill = new Cluster(3, 20L << 30, JOBS, ClusterSettings.of(Map.of(Keys.SPILL_LOAD.key(), "2")));

        Result r = Simulation.run("affinity", lowSpill, new SameFileTrace(JOBS, MIB_64));

        assertTrue(r.pulled() >= 1, "spilled pools pull from the owner: " + r);
        assertTrue(countServing(r) >= 2, "more than one pool serves the hot file: " + r);
        assertEquals(MIB_64, r.originBytes(), "origin bytes");
    }

    @Test
    void randomReadsAHotNewFileFromTheOriginAtLeastAsOftenAsAffinityAndAtMostOncePerPool() {
        Result random = Simulation.run("random", SEED, new SameFileTrace(JOBS, MIB_64));
        Result affinity = Simulation.run("affinity", SEED, new SameFileTrace(JOBS, MIB_64));

        assertTrue(random.originBytes() >= affinity.originBytes(), random.originBytes() + " < " + affinity.originBytes());
        assertTrue(random.originBytes() <= 3 * MIB_64, "a pool joins its own fetch: " + random.originBytes());
    }

    @Test
    void everyPolicyReadsEachNewFileFromTheOriginAtLeastOnce() {
        for (String policy : Policies.NAMES) {
            Result r = Simulation.run(policy, SEED, new DifferentFilesTrace(JOBS, MIB_64));

            assertTrue(r.originBytes() >= JOBS * MIB_64, policy + ": " + r.originBytes());
        }
    }

    @Test
    void affinityServesEveryHotReadOfDifferentFilesFromACache() {
        Result r = Simulation.run("affinity", SEED, new DifferentFilesTrace(JOBS, MIB_64));

        assertEquals(JOBS, r.hits(), "hot reads that hit");
        assertEquals(JOBS * MIB_64, r.originBytes(), "origin bytes: each file once");
    }

    @Test
    void randomRedirectsAHotReadToThePeerThatHoldsTheFileInsteadOfReadingTheOrigin() {
        Result r = Simulation.run("random", SEED, new DifferentFilesTrace(JOBS, MIB_64));

        assertEquals(JOBS, r.hits(), "hot reads that hit, here or at a peer");
        assertEquals(JOBS * MIB_64, r.originBytes(), "origin bytes: each file once");
    }

    @Test
    void randomAsksEveryPeerOnEachMissAndAffinityFewer() {
        Result random = Simulation.run("random", SEED, new DifferentFilesTrace(JOBS, MIB_64));
        Result affinity = Simulation.run("affinity", SEED, new DifferentFilesTrace(JOBS, MIB_64));

        assertTrue(random.questions() >= 2L * JOBS, "each cold read asks the two other pools: " + random.questions());
        assertTrue(affinity.questions() < random.questions(), affinity.questions() + " >= " + random.questions());
    }

    @Test
    void hitRatioIsAFractionOfTheReadsForEveryPolicyAndWorkload() {
        for (Trace trace : new Trace[] {new ZipfTrace(500, 0.8, 5_000, 1 << 20, 7), new SameFileTrace(JOBS, MIB_64),
                new DifferentFilesTrace(JOBS, MIB_64)}) {
            for (String policy : Policies.NAMES) {
                Result r = Simulation.run(policy, new Cluster(3, 100L << 20, JOBS, ClusterSettings.defaults()), trace);

                assertTrue(r.hitRatio() >= 0 && r.hitRatio() <= 1, policy + " on " + trace.name() + ": " + r.hitRatio());
                assertEquals((double) r.hits() / r.reads(), r.hitRatio(), 1e-12);
            }
        }
    }

    private static long countServing(Result r) {
        long n = 0;
        for (long requests : r.requests()) {
            n += requests > 0 ? 1 : 0;
        }
        return n;
    }
}
