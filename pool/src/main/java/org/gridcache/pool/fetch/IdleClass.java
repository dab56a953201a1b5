package org.gridcache.pool.fetch;

import com.sun.jna.LastErrorException;
import com.sun.jna.Library;
import com.sun.jna.Native;
import com.sun.jna.Platform;
import io.netty.util.concurrent.DefaultThreadFactory;
import java.util.concurrent.ThreadFactory;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Threads in Linux's SCHED_IDLE scheduling class: they run only on cores that no other thread of any process wants,
 * and give way at once when one wakes. A thread enters the class itself as it starts
 * ({@code sched_setscheduler(0, SCHED_IDLE)}: pid 0 is the calling thread), which needs no privilege; leaving it again
 * would, so these threads never do. The JDK has no call for a thread's scheduling class ({@code Thread.setPriority}
 * is ignored on Linux unless {@code -XX:ThreadPriorityPolicy=1} remaps every thread's, the JIT's among them), so the C
 * library is called through JNA. Elsewhere than Linux, or where JNA cannot load its native part, the threads are
 * ordinary ones, {@link #available} is false, and one warning says why.
 */
final class IdleClass {
    private static final Logger LOG = LoggerFactory.getLogger(IdleClass.class);
    private static final int SCHED_IDLE = 5;
    private static final ThreadLocal<Boolean> ENTERED = ThreadLocal.withInitial(() -> false);
    private static final CLibrary LIBC = load();

    private IdleClass() {
    }

    interface CLibrary extends Library {
        int sched_setscheduler(int pid, int policy, int[] param) throws LastErrorException;
    }

    /** Whether threads can enter the idle class here. */
    static boolean available() {
        return LIBC != null;
    }

    /** Daemon threads named {@code name-…} that enter the idle class as they start, where it is {@link #available}. */
    static ThreadFactory threads(String name) {
        ThreadFactory threads = new DefaultThreadFactory(name, true);
        return task -> threads.newThread(() -> {
            enter();
            task.run();
        });
    }

    /** Whether the calling thread is one of {@link #threads}' that entered the idle class. */
    static boolean isCurrent() {
        return ENTERED.get();
    }

    private static void enter() {
        if (LIBC == null) {
            return;
        }
        try {
            LIBC.sched_setscheduler(0, SCHED_IDLE, new int[] {0}); // struct sched_param { int sched_priority; }: 0
            ENTERED.set(true);
        } catch (LastErrorException e) {
            LOG.warn("thread {} stays in the normal scheduling class: sched_setscheduler(SCHED_IDLE) failed, errno {}",
                    Thread.currentThread().getName(), e.getErrorCode());
        }
    }

    private static CLibrary load() {
        if (!Platform.isLinux()) {
            LOG.warn("fills are written by threads of the normal scheduling class: SCHED_IDLE is a Linux feature");
            return null;
        }
        try {
            return Native.load(Platform.C_LIBRARY_NAME, CLibrary.class);
        } catch (LinkageError e) {
            LOG.warn("fills are written by threads of the normal scheduling class: JNA could not load the C library ({})",
                    e.toString());
            return null;
        }
    }
}
