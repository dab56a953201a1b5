package org.gridcache.pool.fetch;

import io.netty.util.concurrent.DefaultThreadFactory;
import java.util.concurrent.Executor;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

/**
 * One pool's disk writes: a queue of write tasks served by {@link #WRITERS} threads of normal priority, in the manner
 * of XrdPfc's write queue. A fill queues one task at a time (its next turn, {@link Download}); a turn writes at most
 * {@link #TURN_BYTES} and queues the fill again behind the others, so one large fill cannot hold every writer while
 * small files wait for their commit. Uploads queue their writes and checksums here too.
 *
 * <p>The queue is bounded by what it can hold, not by a count: each fill has at most one task in it, and the bytes
 * those tasks will write are within {@code pool.write-behind} ({@link WriteBehindBudget}), beyond which origin reads
 * pause. The writers run at the priority of every other thread of the pool, so a commit that event loops wait for is
 * never behind a thread that runs only on idle cores.
 */
public final class WriteQueue implements Executor {
    /** Two writers keep one slow file (an fsync, a costly checksum) from holding up every other fill's writes. */
    static final int WRITERS = 2;
    /** Bytes one fill writes in one turn before it queues again behind the other fills. */
    static final long TURN_BYTES = 8L << 20;

    private final ThreadPoolExecutor writers = new ThreadPoolExecutor(WRITERS, WRITERS, 0, TimeUnit.MILLISECONDS,
            new LinkedBlockingQueue<>(), new DefaultThreadFactory("pool-disk-writer", true));

    /** Queues {@code task}; throws {@link java.util.concurrent.RejectedExecutionException} once shut down. */
    @Override
    public void execute(Runnable task) {
        writers.execute(task);
    }

    void shutdown() {
        writers.shutdown();
    }
}
