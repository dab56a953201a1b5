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
 *
 * <p>It also frees the transfer's own thread from a wait in jGlobus that never ends: when a transfer fails at once (a
 * refused ERET), jGlobus stops the task thread of its data channel and joins it, but a task thread that starts running
 * only after the stop clears the flag ({@code TaskThread.run} sets {@code stop = false}) and waits for tasks forever,
 * and the join with it, holding the lock a {@code close()} needs. A transfer thread found in that join on two checks
 * in a row is interrupted, which ends the join (jGlobus returns from it on the interrupt) and lets the failure, the
 * server's reply, reach the caller.
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
    /** The thread running the transfer, freed from a stuck join; null: none to watch. */
    private final Thread transfer;
    private boolean inJoin;
    private long lastProgress = -1;
    private long since;
    private volatile boolean fired;
    private ScheduledFuture<?> task;

    /** Not scheduled: {@link #run} is called by {@link #watch} or a test's clock. */
    TransferWatchdog(LongSupplier progress, Duration limit, LongSupplier nanoClock, Thread transfer, Runnable onStall) {
        this.transfer = transfer;
        this.progress = progress;
        this.nanoClock = nanoClock;
        this.limitNanos = limit.toNanos();
        this.onStall = onStall;
        this.since = nanoClock.getAsLong();
    }

    /**
     * A watchdog checking {@code progress} (a count of bytes received) a few times per {@code limit}, and the calling
     * thread, which runs the transfer, for a stuck join.
     */
    static TransferWatchdog watch(LongSupplier progress, Duration limit, Runnable onStall) {
        TransferWatchdog w = new TransferWatchdog(progress, limit, System::nanoTime, Thread.currentThread(), onStall);
        long period = Math.max(100, Math.min(1000, limit.toMillis() / 4));
        w.task = WATCHDOGS.scheduleWithFixedDelay(w, period, period, TimeUnit.MILLISECONDS);
        return w;
    }

    @Override
    public void run() {
        if (transfer != null) {
            boolean stuck = inTaskThreadJoin(transfer);
            if (stuck && inJoin) {
                transfer.interrupt();
            }
            inJoin = stuck;
        }
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

    /** Whether {@code t} waits, without a limit, in jGlobus' join of a data channel's task thread. */
    static boolean inTaskThreadJoin(Thread t) {
        if (t.getState() != Thread.State.WAITING) {
            return false;
        }
        for (StackTraceElement frame : t.getStackTrace()) {
            if (frame.getMethodName().equals("join") && frame.getClassName().equals("org.globus.ftp.dc.TaskThread")) {
                return true;
            }
        }
        return false;
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
