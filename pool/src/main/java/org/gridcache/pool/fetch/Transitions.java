package org.gridcache.pool.fetch;

import java.util.concurrent.atomic.AtomicReference;
import org.gridcache.pool.fetch.Download.State;

/**
 * The one place a {@link Download}'s state changes: an atomic compare-and-set along {@link State#canBecome}, so that
 * of two threads racing (the fetcher completing and a disk writer finishing, a failure and the commit) exactly one
 * moves the fill on, and a move the table forbids is a bug that shows at once.
 */
final class Transitions {
    private final AtomicReference<State> state = new AtomicReference<>(State.CONNECTING);

    State current() {
        return state.get();
    }

    /**
     * Moves from {@code from} to {@code to} if the state is {@code from} now; false when it is not (another thread
     * moved it first). Throws {@link IllegalStateException} when the table has no such move.
     */
    boolean move(State from, State to) {
        if (!from.canBecome(to)) {
            throw new IllegalStateException("a download never goes from " + from + " to " + to);
        }
        return state.compareAndSet(from, to);
    }

    /** Moves to {@link State#FAILED} from whichever state it is in; false once it has ended (complete or failed). */
    boolean fail() {
        for (State now = state.get(); !now.ended(); now = state.get()) {
            if (state.compareAndSet(now, State.FAILED)) {
                return true;
            }
        }
        return false;
    }
}
