package org.gridcache.pool.fetch;

import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.function.Supplier;
import org.gridcache.common.FillWriters;

/**
 * Where a fill's disk writes run ({@code pool.fill-writers}). With {@code idle}, on two threads of the idle
 * scheduling class ({@link IdleClass}): a miss's copy into the page cache then takes the cores that its fetch and its
 * clients' transfers leave over, and catches up after them, while the write-behind memory holds the bytes. (On a VM
 * whose free memory the host takes back, each new page-cache page costs a host fault, and a 256 MiB GridFTP miss
 * spent as much CPU on the copy as on the fetch: ARCHITECTURE.md, "Performance design".) So that a pool whose cores are never
 * idle still fills, a write goes to the normal disk writers instead once a quarter of {@code pool.write-behind} waits
 * for the disk, and an idle-class writer that sees that hands its fill over ({@link #handOver}). So do the writes of
 * a fill that a client waits for whole ({@link Download#expedite}), whose copy is on that client's path. With
 * {@code normal}, every write runs on the normal disk writers, as uploads' always do.
 */
final class FillWriterThreads {
    private final ExecutorService idle = Executors.newFixedThreadPool(2, IdleClass.threads("pool-fill-writer"));
    private final Executor normal;
    private final Supplier<FillWriters> setting;
    private final WriteBehindBudget budget;
    private final java.util.concurrent.atomic.AtomicLong handOvers = new java.util.concurrent.atomic.AtomicLong();

    FillWriterThreads(Executor normal, Supplier<FillWriters> setting, WriteBehindBudget budget) {
        this.normal = normal;
        this.setting = setting;
        this.budget = budget;
    }

    /** Runs a fill's write task: on an idle-class writer unless the fill is {@code expedited} or the disk far behind. */
    void execute(Runnable task, boolean expedited) {
        (!expedited && idleNow() ? idle : normal).execute(task);
    }

    /**
     * True when the calling thread is an idle-class writer that should end its task and let the fill's next write be
     * {@linkplain #execute scheduled} again: the fill became {@code expedited}, the disk is far behind, or the setting
     * changed to {@code normal}.
     */
    boolean handOver(boolean expedited) {
        if (IdleClass.isCurrent() && (expedited || !idleNow())) {
            handOvers.incrementAndGet();
            return true;
        }
        return false;
    }

    /** How many times an idle-class writer handed its fill over. */
    long handOvers() {
        return handOvers.get();
    }

    private boolean idleNow() {
        return setting.get() == FillWriters.IDLE && IdleClass.available() && budget.under(4);
    }

    void shutdown() {
        idle.shutdown();
    }
}
