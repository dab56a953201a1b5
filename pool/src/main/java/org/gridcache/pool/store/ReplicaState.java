package org.gridcache.pool.store;

import java.util.EnumMap;
import java.util.EnumSet;
import java.util.Map;
import java.util.Set;

/**
 * The one state of a replica (a file the store holds or is filling), in the manner of dCache's replica states. A
 * replica moves only along this table, through {@link Replica#become}, which refuses every other move:
 *
 * <pre>
 *   NEW ──► FILLING ──► COMPLETE ──► REMOVED
 *    │         └──────────────────────►│
 *    └──► PARTIAL ──► COMPLETE         │
 *    │       └─────────────────────────►│
 *    └──────────────────────────────────►
 * </pre>
 *
 * NEW: created, no room reserved yet. FILLING: room reserved, bytes being written (a fetch, an upload's copy, a
 * third-party pull). PARTIAL: some blocks proven on disk (a file of blocks and its bitmap); it becomes COMPLETE when
 * its bitmap is full. COMPLETE: every byte proven, served as a hit. REMOVED: evicted, dropped, replaced or cancelled;
 * final.
 */
public enum ReplicaState {
    NEW, FILLING, PARTIAL, COMPLETE, REMOVED;

    /** The table: each state's next states (an EnumMap: keyed by ordinal, no hash). */
    private static final Map<ReplicaState, Set<ReplicaState>> NEXT = new EnumMap<>(ReplicaState.class);

    static {
        NEXT.put(NEW, EnumSet.of(FILLING, PARTIAL, REMOVED));
        NEXT.put(FILLING, EnumSet.of(COMPLETE, REMOVED));
        NEXT.put(PARTIAL, EnumSet.of(COMPLETE, REMOVED));
        NEXT.put(COMPLETE, EnumSet.of(REMOVED));
        NEXT.put(REMOVED, EnumSet.noneOf(ReplicaState.class));
    }

    /** Whether the table has a move from this state to {@code next}. */
    public boolean canBecome(ReplicaState next) {
        return NEXT.get(this).contains(next);
    }

    /** Whether a reader may pin a replica in this state and read what it holds. */
    public boolean isReadable() {
        return this == COMPLETE || this == PARTIAL;
    }
}
