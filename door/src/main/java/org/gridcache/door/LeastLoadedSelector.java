package org.gridcache.door;

import java.util.List;
import java.util.Optional;
import java.util.concurrent.ThreadLocalRandom;
import org.gridcache.common.PoolRecord;

/** The pool with the lowest published load; ties broken at random so equal pools share the work. */
public final class LeastLoadedSelector implements PoolSelector {
    @Override
    public Optional<PoolRecord> choose(String path, List<PoolRecord> live) {
        PoolRecord best = null;
        int ties = 0;
        for (PoolRecord pool : live) {
            if (best == null || pool.load() < best.load()) {
                best = pool;
                ties = 1;
            } else if (pool.load() == best.load() && ThreadLocalRandom.current().nextInt(++ties) == 0) {
                best = pool; // reservoir sampling: each tied pool wins with probability 1/ties
            }
        }
        return Optional.ofNullable(best);
    }
}
