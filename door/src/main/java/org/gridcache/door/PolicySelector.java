package org.gridcache.door;

import java.util.List;
import java.util.Optional;
import java.util.function.Supplier;
import org.gridcache.common.ClusterSettings;
import org.gridcache.common.PoolRecord;

/** The policy named by the cluster setting {@code selection.policy}, looked up per read so a change applies live. */
final class PolicySelector implements PoolSelector {
    private final Supplier<ClusterSettings> settings;
    private final PoolSelector leastLoaded = new LeastLoadedSelector();
    private final PoolSelector random = new RandomSelector();

    PolicySelector(Supplier<ClusterSettings> settings) {
        this.settings = settings;
    }

    @Override
    public Optional<PoolRecord> choose(String path, List<PoolRecord> live) {
        PoolSelector policy = "random".equals(settings.get().selectionPolicy()) ? random : leastLoaded;
        return policy.choose(path, live);
    }
}
