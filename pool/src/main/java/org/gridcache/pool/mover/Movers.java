package org.gridcache.pool.mover;

import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;
import org.gridcache.common.transfer.TransferLog;
import org.gridcache.common.transfer.TransferRecord;
import org.gridcache.pool.http.Exchange;

/**
 * Counts the pool's movers (client transfers in progress) and its outgoing bytes, and turns them into the load it
 * publishes. Asks for an early publication when the mover count changes a lot relative to itself (a pool going
 * from 0 to 1 movers is news to the doors; from 80 to 81 is not).
 */
public final class Movers {
    /** Outgoing bandwidth that counts as much load as one mover: 100 MB/s. */
    static final double BYTES_PER_SEC_PER_LOAD_UNIT = 100e6;
    private static final int FEW = 4;

    private final AtomicInteger active = new AtomicInteger();
    private final ActiveTransfers transfers = new ActiveTransfers();
    private final LongAdder bytesOut = new LongAdder();
    private final Runnable onLargeChange;
    private final String poolName;
    private final PoolStats stats;
    private long lastSampleNanos = System.nanoTime();
    private long lastSampleBytes;
    private long bytesPerSec;

    public Movers(Runnable onLargeChange, String poolName, PoolStats stats) {
        this.onLargeChange = onLargeChange;
        this.poolName = poolName;
        this.stats = stats;
    }

    /** A mover ended: counted, and written as one transfer record. */
    void finished(Exchange ex, boolean hit, boolean fromPeer, int status, long sent, long originBytes, boolean complete) {
        stats.transfer(hit, sent);
        stats.response(status);
        String subject = ex.ticket != null ? ex.ticket.subject() : null;
        TransferLog.write(new TransferRecord(Instant.now().truncatedTo(ChronoUnit.MILLIS).toString(), "pool", poolName,
                subject, ex.ticket != null ? ex.ticket.vo() : null, TransferLog.ip(ex.ctx.channel().remoteAddress()), ex.method, ex.path, sent, ex.millis(),
                hit ? TransferRecord.HIT : fromPeer ? TransferRecord.PEER : TransferRecord.MISS, originBytes, status, complete, poolName,
                ex.ticket != null ? ex.ticket.authentication() : null));
    }

    void started() {
        if (active.incrementAndGet() <= FEW) {
            onLargeChange.run();
        }
    }

    void ended() {
        if (active.decrementAndGet() < FEW) {
            onLargeChange.run();
        }
    }

    /**
     * A transfer that is no mover's (a third-party copy) began: it counts in the active transfers and the load, so a
     * drain waits for it and the doors see it. {@link #otherTransferEnded} when it ends.
     */
    public void otherTransferStarted() {
        started();
    }

    public void otherTransferEnded() {
        ended();
    }

    void sent(long bytes) {
        bytesOut.add(bytes);
    }

    /** The transfers in progress, as the pool's record lists them. */
    public ActiveTransfers transfers() {
        return transfers;
    }

    public int active() {
        return active.get();
    }

    /** Outgoing bytes per second since the previous call (at least a second apart, else the previous rate). */
    public synchronized long bytesPerSecOut() {
        long now = System.nanoTime();
        long elapsed = now - lastSampleNanos;
        if (elapsed >= 1_000_000_000L) {
            long total = bytesOut.sum();
            bytesPerSec = (total - lastSampleBytes) * 1_000_000_000L / elapsed;
            lastSampleBytes = total;
            lastSampleNanos = now;
        }
        return bytesPerSec;
    }

    /**
     * load = active movers + outgoing bytes per second / 100 MB/s. A mover is the unit (each holds a connection,
     * a file and a pin), and bandwidth adds to it: one mover filling a 1 Gbit/s link (125 MB/s) counts 2.25, while
     * ten clients waiting on a slow origin count 10. Same formula on every pool, so doors can compare.
     */
    public static double load(int activeMovers, long bytesPerSecOut) {
        return activeMovers + bytesPerSecOut / BYTES_PER_SEC_PER_LOAD_UNIT;
    }
}
