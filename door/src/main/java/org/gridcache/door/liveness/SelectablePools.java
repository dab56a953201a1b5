package org.gridcache.door.liveness;

import java.util.List;
import java.util.function.Supplier;
import org.gridcache.common.cluster.PoolRecord;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The pools a new read, write or copy may go to: those ZooKeeper offers ({@code PoolDirectory.selectable}) less the
 * ones {@link PoolLiveness} holds suspect. When every one of them is suspect the door cannot tell its own trouble
 * (its network, a long pause) from theirs, so it ignores the suspicion and ZooKeeper decides alone, as before.
 *
 * <p>The list is recomputed only when ZooKeeper's list or the suspect set changes, and is ZooKeeper's very list when
 * nobody is suspect: selectors keep per-list data (the affinity policy's hash seeds) by identity.
 */
public final class SelectablePools implements Supplier<List<PoolRecord>> {
    private static final Logger LOG = LoggerFactory.getLogger(SelectablePools.class);
    private final Supplier<List<PoolRecord>> registered;
    private final PoolLiveness liveness;
    private volatile View view = new View(null, -1, List.of(), false);

    private record View(List<PoolRecord> from, long version, List<PoolRecord> pools, boolean allSuspect) {
    }

    /** {@code registered}: the pools ZooKeeper lets a new read go to. */
    public SelectablePools(Supplier<List<PoolRecord>> registered, PoolLiveness liveness) {
        this.registered = registered;
        this.liveness = liveness;
    }

    @Override
    public List<PoolRecord> get() {
        List<PoolRecord> from = registered.get();
        long version = liveness.version(); // read before filtering: a change while filtering makes the next call filter again
        View v = view;
        if (v.from == from && v.version == version) {
            return v.pools;
        }
        List<PoolRecord> reachable = from.stream().filter(p -> !liveness.isSuspect(p)).toList();
        boolean allSuspect = reachable.isEmpty() && !from.isEmpty();
        if (allSuspect) {
            if (!v.allSuspect) {
                LOG.warn("all {} selectable pools are suspect to this door: choosing among them anyway until ZooKeeper "
                        + "drops them or one answers", from.size());
            }
            reachable = from;
        } else if (reachable.size() == from.size()) {
            reachable = from;
        }
        view = new View(from, version, reachable, allSuspect);
        return reachable;
    }
}
