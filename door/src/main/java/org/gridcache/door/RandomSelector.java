package org.gridcache.door;

import java.util.List;
import java.util.Optional;
import java.util.concurrent.ThreadLocalRandom;
import org.gridcache.common.PoolRecord;

/** Any pool, uniformly: the baseline that the other policies must beat (DESIGN.md §5). */
public final class RandomSelector implements PoolSelector {
    @Override
    public Optional<PoolRecord> choose(String path, List<PoolRecord> live) {
        return live.isEmpty() ? Optional.empty() : Optional.of(live.get(ThreadLocalRandom.current().nextInt(live.size())));
    }
}
