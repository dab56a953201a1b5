package org.gridcache.simulator;

/**
 * The load the pools publish, as the simulator evolves it: the reads each pool is serving. Time is counted in steps,
 * one per read of the trace, and every read (and every fetch, and every pull a pool serves a peer) lasts the same
 * {@code duration} steps, the run's concurrency. So a pool's load is what it was handed in the last {@code duration}
 * steps: it rises while a policy sends reads there and decays as they end.
 *
 * <p>Why this simple: a real pool publishes active movers plus bytes per second out over 100 MB/s, every 2 s, and
 * the door adds its own redirects since. The simulator knows no bandwidths and no wall time, only the order of the
 * reads; one duration for every read keeps one knob (how many reads overlap), makes a run repeatable, and is enough
 * to show what load does to a policy: when the loads cross {@code selection.spill-load}, and how evenly they spread.
 * The door is shown the load of the current step, as if pools published continuously.
 */
final class ActiveReads {
    private final int duration;
    /** Per step of the window, what each pool started then; the slot of the step that ends is reused. */
    private final int[][] started;
    private final int[] active;
    private long step = -1;

    ActiveReads(int pools, int duration) {
        if (duration < 1) {
            throw new IllegalArgumentException("reads last at least one step, not " + duration);
        }
        this.duration = duration;
        this.started = new int[duration][pools];
        this.active = new int[pools];
    }

    /** The next step: what started {@code duration} steps ago ends. Returns the new step. */
    long advance() {
        step++;
        int[] slot = started[(int) (step % duration)];
        for (int p = 0; p < slot.length; p++) {
            active[p] -= slot[p];
            slot[p] = 0;
            if (active[p] < 0) {
                throw new IllegalStateException("pool " + p + " has " + active[p] + " active reads");
            }
        }
        return step;
    }

    /** Pool {@code p} starts serving a read (or a pull) now. */
    void start(int p) {
        started[(int) (step % duration)][p]++;
        active[p]++;
    }

    int load(int p) {
        return active[p];
    }

    /** The step from which something started now is over (a fetch started now is complete). */
    long endOfNow() {
        return step + duration;
    }
}
