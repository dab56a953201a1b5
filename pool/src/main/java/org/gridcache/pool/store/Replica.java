package org.gridcache.pool.store;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * What the store holds or fills for one key, with its one {@link ReplicaState}. The state changes only by
 * {@link #become}, a compare-and-set that the transition table guards: no lock, and no move the table lacks. The
 * state shares one word with an immutable value of the subclass's (a size, {@link #MAX_VALUE} at most), so that an
 * index entry stays small: the compare-and-set changes the state's bits only.
 */
public abstract class Replica {
    private static final VarHandle STATE;
    private static final ReplicaState[] STATES = ReplicaState.values();
    private static final int STATE_BITS = 8;
    private static final long STATE_MASK = (1L << STATE_BITS) - 1;
    /** The largest value a replica keeps beside its state: 2^55 - 1 (a size of 32 PiB). */
    public static final long MAX_VALUE = Long.MAX_VALUE >>> STATE_BITS;

    static {
        try {
            STATE = MethodHandles.lookup().findVarHandle(Replica.class, "word", long.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /** The value in the upper bits (immutable), the state's ordinal in the lower {@link #STATE_BITS}. */
    private volatile long word;

    /** {@code value}: what the subclass keeps here, 0 to {@link #MAX_VALUE}. */
    protected Replica(ReplicaState initial, long value) {
        if (value < 0 || value > MAX_VALUE) {
            throw new IllegalArgumentException("a replica keeps 0 to " + MAX_VALUE + ", not " + value);
        }
        this.word = value << STATE_BITS | initial.ordinal();
    }

    public final ReplicaState state() {
        return STATES[(int) (word & STATE_MASK)];
    }

    /** The subclass's value given at construction. */
    protected final long value() {
        return word >>> STATE_BITS;
    }

    /**
     * Moves from {@code from} to {@code to}, atomically; false when the replica is not in {@code from} (another thread
     * moved it first). A move the table lacks is a bug of the caller: it throws.
     */
    public final boolean become(ReplicaState from, ReplicaState to) {
        if (!from.canBecome(to)) {
            throw new IllegalStateException("a replica cannot go from " + from + " to " + to);
        }
        long now = word;
        if ((now & STATE_MASK) != from.ordinal()) {
            return false;
        }
        return STATE.compareAndSet(this, now, now & ~STATE_MASK | to.ordinal());
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
