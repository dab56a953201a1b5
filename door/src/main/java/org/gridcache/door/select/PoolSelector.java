package org.gridcache.door.select;

import java.util.List;
import java.util.Optional;
import org.gridcache.common.cluster.PoolRecord;

/**
 * One policy for choosing the pools that serve a read (ARCHITECTURE.md, "Choosing a pool"). Rival policies ({@link RandomSelector},
 * {@link LeastLoadedSelector}, {@link AffinitySelector}) sit behind this interface and are switched live by the
 * cluster setting {@code selection.policy} ({@link SelectionPolicies}).
 */
public interface PoolSelector {

    /**
     * Up to {@code max} pools for {@code path}, best first: the first gets the client, the others are named as
     * {@code Link: rel="duplicate"} fallbacks. Empty when {@code live} is.
     */
    List<Choice> rank(String path, List<PoolRecord> live, int max);

    /** A client was sent to {@code choice}: a policy may count it until the pool publishes its load again. */
    default void redirected(Choice choice) {
    }

    /** The pool that serves the read, if any is live. */
    default Optional<PoolRecord> choose(String path, List<PoolRecord> live) {
        List<Choice> ranked = rank(path, live, 1);
        return ranked.isEmpty() ? Optional.empty() : Optional.of(ranked.get(0).pool());
    }

    /**
     * A pool and the peers it should consult on a miss, carried in its ticket: pool ids to pull from before the
     * origin, best first; {@code [*]} to ask them all (the seed design); empty to go straight to the origin.
     */
    record Choice(PoolRecord pool, List<String> peers) {
    }
}
