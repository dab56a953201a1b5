package org.gridcache.pool.fetch;

import java.util.ArrayList;
import java.util.List;
import java.util.function.LongSupplier;

/**
 * The pool-wide bound on bytes received from origins but not yet written to disk. Fetches take from it as bytes
 * arrive and give back as the disk writer catches up; a fetch that finds it exhausted pauses its origin read and is
 * resumed when room comes back. This is what lets clients be served from memory at network speed while the disk
 * lags (XCache's RAM blocks play the same part), without letting a slow disk fill the heap.
 */
final class WriteBehindBudget {
    private final LongSupplier limit;
    private long used; // guarded by this
    private final List<Runnable> paused = new ArrayList<>(); // guarded by this

    WriteBehindBudget(LongSupplier limit) {
        this.limit = limit;
    }

    /**
     * Takes {@code bytes} (always: the bytes are already here); false when the budget is now exhausted and the
     * caller should pause, in which case {@code resume} runs once when room comes back.
     */
    boolean take(long bytes, Runnable resume) {
        synchronized (this) {
            used += bytes;
            if (used < limit.getAsLong()) {
                return true;
            }
            paused.add(resume);
            return false;
        }
    }

    void give(long bytes) {
        List<Runnable> wake;
        synchronized (this) {
            used -= bytes;
            // wake everyone at half the limit: hysteresis, so fetches do not flap on every chunk
            if (paused.isEmpty() || used > limit.getAsLong() / 2) {
                return;
            }
            wake = new ArrayList<>(paused);
            paused.clear();
        }
        wake.forEach(Runnable::run);
    }

    /** True while the bytes not yet on disk are less than {@code 1/divisor} of the limit. */
    synchronized boolean under(int divisor) {
        return used < limit.getAsLong() / divisor;
    }

    synchronized long used() {
        return used;
    }
}
