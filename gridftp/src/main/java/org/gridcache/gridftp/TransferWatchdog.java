package org.gridcache.gridftp;

import java.time.Duration;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;

/**
 * Gives up a transfer that receives nothing for a limit ({@code gridftp.timeout}): jGlobus waits for the server's final
 * reply without a limit, and a server that stalls (alive, sending nothing) would hold the fetch, and every client
 * waiting on it, forever. A pause of the pool's own making (its write-behind memory full) also counts: the fetcher
 * gives up on those after the same time. Every watchdog shares one daemon thread, so {@code progress} must not block.
 */
final class TransferWatchdog implements Runnable {
    private static final ScheduledExecutorService WATCHDOGS = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "gridftp-watchdog");
        t.setDaemon(true);
        return t;
    });

    private final LongSupplier progress;
    private final LongSupplier nanoClock;
    private final long limitNanos;
    private final Runnable onStall;
    private long lastProgress = -1;
    private long since;
    private volatile boolean fired;
    private ScheduledFuture<?> task;

    /** Not scheduled: {@link #run} is called by {@link #watch} or a test's clock. */
    TransferWatchdog(LongSupplier progress, Duration limit, LongSupplier nanoClock, Runnable onStall) {
        this.progress = progress;
        this.nanoClock = nanoClock;
        this.limitNanos = limit.toNanos();
        this.onStall = onStall;
        this.since = nanoClock.getAsLong();
    }

    /** A watchdog checking {@code progress} (a count of bytes received) a few times per {@code limit}. */
    static TransferWatchdog watch(LongSupplier progress, Duration limit, Runnable onStall) {
        TransferWatchdog w = new TransferWatchdog(progress, limit, System::nanoTime, onStall);
        long period = Math.max(100, Math.min(1000, limit.toMillis() / 4));
        w.task = WATCHDOGS.scheduleWithFixedDelay(w, period, period, TimeUnit.MILLISECONDS);
        return w;
    }

    @Override
    public void run() {
        long p = progress.getAsLong();
        long now = nanoClock.getAsLong();
        if (p != lastProgress) {
            lastProgress = p;
            since = now;
        } else if (now - since > limitNanos && !fired) {
            fired = true;
            onStall.run();
        }
    }

    /** Whether it gave the transfer up. */
    boolean fired() {
        return fired;
    }

    void stop() {
        if (task != null) {
            task.cancel(false);
        }
    }
}
