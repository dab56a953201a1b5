package org.gridcache.door.select;

import static org.junit.jupiter.api.Assertions.assertEquals;
import org.gridcache.common.settings.SelectionPolicy;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.gridcache.common.cluster.PoolRecord;
import org.gridcache.common.ticket.Ticket;
import org.junit.jupiter.api.Test;

class AffinitySelectorTest {
    private static final int PATHS = 20_000;
    private double spill = 16;
    private final AffinitySelector affinity = new AffinitySelector(() -> spill);

    private static PoolRecord pool(String id, long capacityGiB, double load) {
        return new PoolRecord(id, "http://" + id, "default", capacityGiB << 30, capacityGiB << 30, 0, 0, load, "t", 0);
    }

    private static List<PoolRecord> pools(int n) {
        List<PoolRecord> out = new ArrayList<>();
        for (int i = 1; i <= n; i++) {
            out.add(pool("pool" + i, 100, 0));
        }
        return out;
    }

    private Map<String, String> owners(List<PoolRecord> live) {
        Map<String, String> owner = new HashMap<>();
        for (int i = 0; i < PATHS; i++) {
            String path = "/atlas/data/run" + (i % 97) + "/file-" + i + ".root";
            owner.put(path, affinity.choose(path, live).orElseThrow().id());
        }
        return owner;
    }

    @Test
    void aPathAlwaysGoesToTheSamePoolWhateverTheOrderOfTheList() {
        List<PoolRecord> live = pools(5);
        List<PoolRecord> reversed = new ArrayList<>(live);
        java.util.Collections.reverse(reversed);
        for (int i = 0; i < 1000; i++) {
            String path = "/f" + i;
            assertEquals(affinity.choose(path, live).orElseThrow().id(), affinity.choose(path, List.copyOf(reversed)).orElseThrow().id());
        }
    }

    @Test
    void equalPoolsShareThePathsEvenly() {
        Map<String, Integer> share = new HashMap<>();
        owners(pools(4)).values().forEach(id -> share.merge(id, 1, Integer::sum));
        assertEquals(4, share.size());
        share.values().forEach(n -> assertEquals(PATHS / 4.0, n, PATHS * 0.02, "share " + share));
    }

    @Test
    void aJoiningPoolTakesOnlyItsShareAndNothingElseMoves() {
        List<PoolRecord> three = pools(3);
        List<PoolRecord> four = new ArrayList<>(three);
        four.add(pool("pool4", 100, 0));
        Map<String, String> before = owners(three);
        Map<String, String> after = owners(List.copyOf(four));
        int moved = 0;
        for (var e : before.entrySet()) {
            String now = after.get(e.getKey());
            if (!now.equals(e.getValue())) {
                assertEquals("pool4", now, "a path may only move to the new pool");
                moved++;
            }
        }
        assertEquals(PATHS / 4.0, moved, PATHS * 0.02, "the new pool takes a quarter");
    }

    @Test
    void aLeavingPoolGivesAwayOnlyItsOwnPaths() {
        List<PoolRecord> four = pools(4);
        List<PoolRecord> three = four.subList(0, 3).stream().toList();
        Map<String, String> before = owners(four);
        Map<String, String> after = owners(three);
        for (var e : before.entrySet()) {
            if (!e.getValue().equals("pool4")) {
                assertEquals(e.getValue(), after.get(e.getKey()), "only pool4's paths may move");
            }
        }
    }

    @Test
    void capacityWeighsTheShare() {
        List<PoolRecord> live = List.of(pool("small", 100, 0), pool("big", 300, 0));
        long big = owners(live).values().stream().filter("big"::equals).count();
        assertEquals(PATHS * 0.75, big, PATHS * 0.02, "three times the capacity, three times the paths");
    }

    @Test
    void theRankingNamesDistinctPoolsAndEachAsksThoseAboveIt() {
        List<PoolRecord> live = pools(5);
        List<PoolSelector.Choice> ranked = affinity.rank("/hot.bin", live, 4);
        assertEquals(4, ranked.size());
        Set<String> ids = new HashSet<>();
        ranked.forEach(c -> ids.add(c.pool().id()));
        assertEquals(4, ids.size());
        assertEquals(List.of(), ranked.get(0).peers(), "the owner goes to the origin");
        assertEquals(List.of(ranked.get(0).pool().id()), ranked.get(1).peers());
        assertEquals(List.of(ranked.get(0).pool().id(), ranked.get(1).pool().id()), ranked.get(2).peers());
        assertEquals(AffinitySelector.MAX_PEERS, ranked.get(3).peers().size());
        assertTrue(affinity.rank("/x", List.of(), 4).isEmpty());
        assertEquals(2, affinity.rank("/x", pools(2), 4).size());
    }

    @Test
    void aLoadedOwnerIsPassedOverAndBecomesThePeerToPullFrom() {
        List<PoolRecord> calm = pools(3);
        String path = "/hot.bin";
        String owner = affinity.choose(path, calm).orElseThrow().id();
        List<PoolRecord> loaded = calm.stream().map(p -> p.id().equals(owner) ? pool(p.id(), 100, 50) : p).toList();
        List<PoolSelector.Choice> ranked = affinity.rank(path, loaded, 3);
        assertNotEquals(owner, ranked.get(0).pool().id(), "spilled to the next-ranked pool");
        assertEquals(owner, ranked.get(0).peers().get(0), "which pulls from the owner before the origin");
        assertEquals(owner, ranked.get(2).pool().id(), "the loaded owner is still named, last");

        List<PoolRecord> allLoaded = calm.stream().map(p -> pool(p.id(), 100, 50)).toList();
        assertEquals(owner, affinity.choose(path, allLoaded).orElseThrow().id(), "all over the threshold: plain ranking");
        spill = 100;
        assertEquals(owner, affinity.choose(path, loaded).orElseThrow().id(), "the threshold is read live");
    }

    @Test
    void thePrunedRankingIsTheFullRanking() {
        java.util.Random r = new java.util.Random(3);
        List<PoolRecord> live = new ArrayList<>();
        for (int i = 0; i < 300; i++) {
            live.add(pool("p" + i, 10 + r.nextInt(200), r.nextInt(5) == 0 ? 40 : r.nextInt(10)));
        }
        for (int j = 0; j < 2000; j++) {
            String path = "/d/" + r.nextLong();
            long h = AffinitySelector.hash(path);
            List<PoolRecord> byScore = new ArrayList<>(live);
            byScore.sort(java.util.Comparator.comparingDouble(
                    (PoolRecord p) -> AffinitySelector.score(AffinitySelector.weight(p), AffinitySelector.hash(p.id()), h)).reversed());
            List<String> expected = byScore.stream().filter(p -> p.load() <= spill).limit(4).map(PoolRecord::id).toList();
            assertEquals(expected, affinity.rank(path, live, 4).stream().map(c -> c.pool().id()).toList());
            List<String> peersOfFirst = byScore.stream().takeWhile(p -> !p.id().equals(expected.get(0))).limit(3).map(PoolRecord::id).toList();
            assertEquals(peersOfFirst, affinity.rank(path, live, 4).get(0).peers());
        }
    }

    @Test
    void aBurstSpillsBeforeThePoolsPublishTheirLoad() {
        List<PoolRecord> live = pools(3);
        java.util.Map<String, Integer> sent = new HashMap<>();
        for (int i = 0; i < 60; i++) {
            PoolSelector.Choice c = affinity.rank("/hot", live, 4).get(0);
            affinity.redirected(c);
            sent.merge(c.pool().id(), 1, Integer::sum);
        }
        assertEquals(3, sent.size(), "spilled to every pool: " + sent);
        sent.values().forEach(n -> assertEquals(20, n, 1, "and then spread evenly: " + sent));
        assertEquals(List.of(), affinity.rank("/hot", List.copyOf(live), 1).get(0).peers(), "a new snapshot forgets the count");
    }

    @Test
    void randomNamesDistinctPoolsThatAskAllPeers() {
        RandomSelector random = new RandomSelector();
        Set<String> first = new HashSet<>();
        for (int i = 0; i < 300; i++) {
            List<PoolSelector.Choice> ranked = random.rank("/same", pools(3), 4);
            assertEquals(3, ranked.size());
            assertEquals(3, ranked.stream().map(c -> c.pool().id()).distinct().count());
            ranked.forEach(c -> assertEquals(List.of(Ticket.ALL_PEERS), c.peers()));
            first.add(ranked.get(0).pool().id());
        }
        assertEquals(3, first.size(), "every pool gets clients for the same path");
    }

    @Test
    void policiesSwitchByNameAndRefuseUnknownOnes() {
        SelectionPolicies policies = new SelectionPolicies(() -> 16, SelectionPolicy.AFFINITY);
        assertTrue(policies.selector() instanceof AffinitySelector);
        policies.set(SelectionPolicy.parse("random"));
        assertTrue(policies.selector() instanceof RandomSelector);
        assertEquals("random", policies.current().label());
        policies.set(SelectionPolicy.parse("least-loaded"));
        assertTrue(policies.selector() instanceof LeastLoadedSelector);
        org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class, () -> policies.set(SelectionPolicy.parse("closest")));
        assertEquals("least-loaded", policies.current().label());
    }
}
