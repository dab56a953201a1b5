package org.gridcache.door.select;

import java.util.Map;
import java.util.function.DoubleSupplier;
import org.gridcache.common.ClusterSettings;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The door's selection policies by name ({@code random}, {@code least-loaded}, {@code affinity}) and the one in
 * force, switched live from the cluster setting {@code selection.policy} (or by an operator, through {@link #set}).
 */
public final class SelectionPolicies {
    private static final Logger LOG = LoggerFactory.getLogger(SelectionPolicies.class);
    private final Map<String, PoolSelector> byName;
    private volatile String current;
    private volatile PoolSelector selector;

    public SelectionPolicies(DoubleSupplier spillLoad, String initial) {
        byName = Map.of("random", new RandomSelector(), "least-loaded", new LeastLoadedSelector(),
                "affinity", new AffinitySelector(spillLoad));
        set(initial);
    }

    /** Switches to the policy of that name; throws {@link IllegalArgumentException} for an unknown one. */
    public void set(String name) {
        PoolSelector next = byName.get(name);
        if (next == null) {
            throw new IllegalArgumentException("unknown selection policy '" + name + "' (known: "
                    + String.join(", ", ClusterSettings.POLICIES) + ")");
        }
        if (!name.equals(current)) {
            LOG.info("selection policy now {}", name);
        }
        selector = next;
        current = name;
    }

    public String name() {
        return current;
    }

    public PoolSelector selector() {
        return selector;
    }
}
