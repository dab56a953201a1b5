package org.gridcache.door.select;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.gridcache.common.cluster.PoolRecord;
import org.junit.jupiter.api.Test;

class LeastLoadedSelectorTest {
    private static PoolRecord pool(String id, double load) {
        return new PoolRecord(id, "http://" + id, "default", 1, 1, 0, 0, load, "t", 0);
    }

    @Test
    void picksTheLowestLoadAndSpreadsTiesAtRandom() {
        LeastLoadedSelector selector = new LeastLoadedSelector();
        assertTrue(selector.choose("/f", List.of()).isEmpty());
        assertEquals("b", selector.choose("/f", List.of(pool("a", 3), pool("b", 1), pool("c", 2))).orElseThrow().id());
        Set<String> seen = new HashSet<>();
        for (int i = 0; i < 500 && seen.size() < 3; i++) {
            seen.add(selector.choose("/f", List.of(pool("a", 1), pool("b", 1), pool("c", 1), pool("d", 9))).orElseThrow().id());
        }
        assertEquals(Set.of("a", "b", "c"), seen);
    }
}
