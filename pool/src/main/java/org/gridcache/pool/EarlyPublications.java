package org.gridcache.pool;

import java.time.Duration;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.LongSupplier;

/**
 * The pool record's publications between the periodic ones, when the mover count changed a lot ({@code Movers}):
 * off the event loop, a burst collapsed into one write, and at most one per {@link #MIN_INTERVAL}. The first change
 * after a quiet spell goes out after {@link #SETTLE} (a pool going from 0 to 1 movers is news to the doors); later
 * ones wait for the interval and publish the record as it is then. The settle keeps the write, with the ZooKeeper
 * server's fsync and the doors' reads it sets off, out of the way of the request that caused it: published at once,
 * it shared the CPU with that request's start (ARCHITECTURE.md, "Performance design"). Small-file hits start and
 * end movers thousands of times a second, and each was a ZooKeeper write (fsync'ed, sent to every door watching):
 * that took as much CPU as serving the files (ibid.).
 */
final class EarlyPublications {
    static final Duration MIN_INTERVAL = Duration.ofMillis(100);
    static final Duration SETTLE = Duration.ofMillis(20);

    /** Runs a task after a delay on one thread; throws {@link RejectedExecutionException} when closing. */
    @FunctionalInterface
    interface Scheduler {
        void schedule(Runnable task, long delayNanos);
    }

    private final Runnable publish;
    private final Scheduler scheduler;
    private final LongSupplier nanoTime;
    private final long intervalNanos;
    private final long settleNanos;
    private final AtomicBoolean queued = new AtomicBoolean();
    /** When the last early publication ran; only the scheduler's thread writes it. */
    private volatile long lastNanos;
    private volatile boolean ranOnce;

    EarlyPublications(Runnable publish, Scheduler scheduler, LongSupplier nanoTime, Duration minInterval, Duration settle) {
        this.publish = publish;
        this.scheduler = scheduler;
        this.nanoTime = nanoTime;
        this.intervalNanos = minInterval.toNanos();
        this.settleNanos = settle.toNanos();
    }

    /** Asks for a publication soon; a no-op while one is already queued. */
    void request() {
        if (!queued.compareAndSet(false, true)) {
            return;
        }
        long delay = ranOnce ? Math.max(settleNanos, lastNanos + intervalNanos - nanoTime.getAsLong()) : settleNanos;
        try {
            scheduler.schedule(this::run, delay);
        } catch (RejectedExecutionException e) {
            queued.set(false); // closing
        }
    }

    private void run() {
        queued.set(false); // a change while this one publishes asks for the next
        lastNanos = nanoTime.getAsLong();
        ranOnce = true;
        publish.run();
    }
}
