package org.gridcache.door.select;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import org.gridcache.common.cluster.PoolRecord;

/**
 * Policy {@code least-loaded}: the pools with the lowest published load, ties broken at random so equal pools share
 * the work. A miss goes straight to the origin (no peers), as in the backbone.
 */
public final class LeastLoadedSelector implements PoolSelector {
    @Override
    public List<Choice> rank(String path, List<PoolRecord> live, int max) {
        TopK best = new TopK(Math.min(max, live.size()));
        ThreadLocalRandom random = ThreadLocalRandom.current();
        for (int i = 0; i < live.size(); i++) {
            // the jitter is far below any real load difference (a mover is 1.0): it only orders ties, at random
            best.offer(i, -live.get(i).load() - random.nextDouble() * 1e-9);
        }
        List<Choice> out = new ArrayList<>(best.size());
        for (int r = 0; r < best.size(); r++) {
            out.add(new Choice(live.get(best.index(r)), List.of()));
        }
        return out;
    }
}
