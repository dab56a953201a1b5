package org.gridcache.common.transfer;

import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Writes {@link TransferRecord}s, one JSON object a line, to the SLF4J logger {@code org.gridcache.transfers}. The
 * distribution's Logback configuration sends that logger to its own rotating file ({@code transfers.jsonl} beside
 * the process log) and nowhere else; where no such appender is configured the lines go wherever INFO goes.
 *
 * <p>A transfer's thread (a pool's event loop, a door's request thread) only queues its record: a thread of this
 * class's own wakes every {@link #BATCH_MILLIS} and writes what is queued, in order, several records (lines) to a
 * logging event, so one write to the file per batch. Records handed one by one to a waiting writer thread (Logback's
 * asynchronous appender) woke that thread and wrote the file for every small-file hit, which cost a pool 30 % of its
 * small-file rate (ARCHITECTURE.md, "Performance design"). Nothing is dropped: beyond {@link #MAX_QUEUED} records the
 * caller writes its own, and a shutdown hook writes what is queued at exit (the distribution's Logback stops its
 * appenders a moment later, for that).
 */
public final class TransferLog {
    public static final String LOGGER = "org.gridcache.transfers";
    /** How long a record may wait in the queue: a transfer's record is in its file this long after it ends. */
    static final long BATCH_MILLIS = 20;
    /** Records queued beyond this many are written by their caller, so memory stays bounded when the file is slow. */
    static final int MAX_QUEUED = 65_536;
    /** Records in one logging event at most (about 250 bytes each). */
    static final int BATCH_LINES = 512;
    private static final Logger LOG = LoggerFactory.getLogger(LOGGER);
    /** Not the records' logger: its lines are JSON records only. */
    private static final Logger PROBLEMS = LoggerFactory.getLogger(TransferLog.class);
    private static final Queue<TransferRecord> QUEUED = new ConcurrentLinkedQueue<>();
    private static final AtomicInteger COUNT = new AtomicInteger();

    static {
        Thread writer = new Thread(TransferLog::writeBatches, "transfer-records");
        writer.setDaemon(true);
        writer.start();
        Runtime.getRuntime().addShutdownHook(new Thread(TransferLog::flush, "transfer-records-at-exit"));
    }

    private TransferLog() {
    }

    public static void write(TransferRecord record) {
        if (!LOG.isInfoEnabled()) {
            return;
        }
        if (COUNT.incrementAndGet() > MAX_QUEUED) {
            COUNT.decrementAndGet();
            LOG.info(record.toJson());
            return;
        }
        QUEUED.add(record);
    }

    /**
     * Writes every queued record now, in the order they were queued, as logging events of up to {@link #BATCH_LINES}
     * lines each: one write to the file per batch, not per record.
     */
    static void flush() {
        StringBuilder lines = new StringBuilder();
        int n = 0;
        for (TransferRecord r; (r = QUEUED.poll()) != null; ) {
            COUNT.decrementAndGet();
            if (n > 0) {
                lines.append('\n');
            }
            r.appendJson(lines);
            if (++n == BATCH_LINES) {
                LOG.info(lines.toString());
                lines.setLength(0);
                n = 0;
            }
        }
        if (n > 0) {
            LOG.info(lines.toString());
        }
    }

    private static void writeBatches() {
        while (true) {
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(BATCH_MILLIS));
            try {
                flush();
            } catch (RuntimeException e) {
                PROBLEMS.warn("writing transfer records: {}", e.toString()); // the thread goes on: the next batch may work
            }
        }
    }

    /** The IP address of a socket address, without port or host name. */
    public static String ip(SocketAddress address) {
        if (address instanceof InetSocketAddress inet && inet.getAddress() != null) {
            return inet.getAddress().getHostAddress();
        }
        return String.valueOf(address);
    }
}
