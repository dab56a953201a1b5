package org.gridcache.pool.store;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * What the store holds or fills for one key, with its one {@link ReplicaState}. The state changes only by
 * {@link #become}, a compare-and-set that the transition table guards: no lock, and no move the table lacks. A
 * field (not an object) keeps an index entry small.
 */
public abstract class Replica {
    private static final VarHandle STATE;
    private static final ReplicaState[] STATES = ReplicaState.values();

    static {
        try {
            STATE = MethodHandles.lookup().findVarHandle(Replica.class, "state", int.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    @SuppressWarnings("unused") // through STATE
    private volatile int state;

    protected Replica(ReplicaState initial) {
        this.state = initial.ordinal();
    }

    public final ReplicaState state() {
        return STATES[state];
    }

    /**
     * Moves from {@code from} to {@code to}, atomically; false when the replica is not in {@code from} (another thread
     * moved it first). A move the table lacks is a bug of the caller: it throws.
     */
    public final boolean become(ReplicaState from, ReplicaState to) {
        if (!from.canBecome(to)) {
            throw new IllegalStateException("a replica cannot go from " + from + " to " + to);
        }
        return STATE.compareAndSet(this, from.ordinal(), to.ordinal());
    }

    /** Moves to REMOVED from whatever state it is in; false when it was REMOVED already. */
    public final boolean remove() {
        while (true) {
            ReplicaState now = state();
            if (now == ReplicaState.REMOVED) {
                return false;
            }
            if (become(now, ReplicaState.REMOVED)) {
                return true;
            }
        }
    }
}
