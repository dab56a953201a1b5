package org.gridcache.door.select;

import java.util.EnumMap;
import java.util.Map;
import java.util.function.DoubleSupplier;
import org.gridcache.common.settings.SelectionPolicy;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The door's selection policies ({@code random}, {@code least-loaded}, {@code affinity}) and the one in force,
 * switched live from the cluster setting {@code selection.policy} (or by an operator, through {@link #set}).
 */
public final class SelectionPolicies {
    private static final Logger LOG = LoggerFactory.getLogger(SelectionPolicies.class);
    private final Map<SelectionPolicy, PoolSelector> selectors = new EnumMap<>(SelectionPolicy.class);
    private volatile SelectionPolicy current;
    private volatile PoolSelector selector;

    public SelectionPolicies(DoubleSupplier spillLoad, SelectionPolicy initial) {
        selectors.put(SelectionPolicy.RANDOM, new RandomSelector());
        selectors.put(SelectionPolicy.LEAST_LOADED, new LeastLoadedSelector());
        selectors.put(SelectionPolicy.AFFINITY, new AffinitySelector(spillLoad));
        set(initial);
    }

    public void set(SelectionPolicy policy) {
        if (policy != current) {
            LOG.info("selection policy now {}", policy);
        }
        selector = selectors.get(policy);
        current = policy;
    }

    public SelectionPolicy current() {
        return current;
    }

    public PoolSelector selector() {
        return selector;
    }
}
