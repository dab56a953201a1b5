package org.gridcache.simulator;

import org.gridcache.common.settings.SelectionPolicy;
import java.util.List;
import org.gridcache.common.settings.ClusterSettings.Keys;
import java.util.function.Supplier;
import org.gridcache.common.settings.ClusterSettings;
import org.gridcache.door.select.PoolSelector;
import org.gridcache.door.select.SelectionPolicies;

/**
 * The door's selection policies, made as the door makes them (ARCHITECTURE.md, "Choosing a pool"): through
 * {@link SelectionPolicies}, with the spill threshold read from the settings. A fresh set per run, because a policy
 * keeps state between reads (affinity counts redirects).
 */
final class Policies {
    static final List<String> NAMES = SelectionPolicy.labels();

    private Policies() {
    }

    static PoolSelector named(String name, Supplier<ClusterSettings> settings) {
        return new SelectionPolicies(() -> settings.get().get(Keys.SPILL_LOAD), SelectionPolicy.parse(name)).selector();
    }
}
