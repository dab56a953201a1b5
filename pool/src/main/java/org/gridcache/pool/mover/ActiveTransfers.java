package org.gridcache.pool.mover;

import java.util.Comparator;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.LongSupplier;
import java.util.function.Supplier;
import org.gridcache.common.cluster.ActiveTransfer;
import org.gridcache.common.cluster.PoolRecord;
import org.gridcache.common.ticket.Ticket;

/**
 * The pool's transfers in progress (dCache's {@code show movers}): every mover, range read, upload and third-party
 * copy {@link #begin}s here and {@link Transfer#end}s once; the pool publishes the longest-running
 * {@link PoolRecord#MAX_TRANSFERS} of them in its record ({@link #snapshot}), for the door's status page, its
 * transfers API and {@code gridcache transfers}. A transfer's thread only adds itself to and removes itself from a
 * concurrent set; what is published (subject shortened, rate) is made on the publishing thread.
 *
 * <p>Lock: {@link #snapshot} is synchronized, for the rate samples it keeps in each transfer; it makes no system call
 * and takes no other lock, and the transfers' own threads never take it.
 */
public final class ActiveTransfers {
    /** A rate is measured over this much time at least; a newer sample keeps the previous rate. */
    private static final long RATE_PERIOD_NANOS = 1_000_000_000L;
    private final Set<Transfer> running = ConcurrentHashMap.newKeySet();

    /** One transfer in progress; {@link #end} when it ends, however (more calls do nothing). */
    public final class Transfer {
        private final Supplier<String> kind;
        private final String subject;
        private final String path;
        private final long size;
        private final LongSupplier bytes;
        private final long startedAt = System.currentTimeMillis();
        private final long startNanos = System.nanoTime();
        // the rate's last sample: snapshot() only, under its lock
        private long sampleBytes;
        private long sampleNanos = startNanos;
        private long bytesPerSec = -1;

        private Transfer(Supplier<String> kind, String subject, String path, long size, LongSupplier bytes) {
            this.kind = kind;
            this.subject = subject;
            this.path = path;
            this.size = size;
            this.bytes = bytes;
        }

        public void end() {
            running.remove(this);
        }

        /** What the record says of it now; its rate measured since the previous call. */
        private ActiveTransfer published(long nowNanos) {
            long done = bytes.getAsLong();
            long elapsed = nowNanos - sampleNanos;
            if (bytesPerSec < 0 || elapsed >= RATE_PERIOD_NANOS) {
                bytesPerSec = elapsed > 0 ? Math.max(0, (done - sampleBytes) * 1_000_000_000L / elapsed) : 0;
                sampleBytes = done;
                sampleNanos = nowNanos;
            }
            return new ActiveTransfer(kind.get(), ActiveTransfer.shortSubject(subject), path, done, size, startedAt,
                    bytesPerSec);
        }
    }

    /**
     * A transfer begins: of {@code kind} (asked again at each publication: a miss may turn out a peer's), for the
     * ticket's subject (null: anonymous), of {@code path}, {@code size} bytes (-1: unknown), having moved
     * {@code bytes} so far.
     */
    public Transfer begin(Supplier<String> kind, Ticket ticket, String path, long size, LongSupplier bytes) {
        Transfer t = new Transfer(kind, ticket != null ? ticket.subject() : null, path, size, bytes);
        running.add(t);
        return t;
    }

    public Transfer begin(String kind, Ticket ticket, String path, long size, LongSupplier bytes) {
        return begin(() -> kind, ticket, path, size, bytes);
    }

    /** The longest-running transfers as the pool's record lists them. */
    public synchronized List<ActiveTransfer> snapshot() {
        long now = System.nanoTime();
        return running.stream()
                .sorted(Comparator.comparingLong((Transfer t) -> t.startNanos))
                .limit(PoolRecord.MAX_TRANSFERS)
                .map(t -> t.published(now))
                .toList();
    }
}
