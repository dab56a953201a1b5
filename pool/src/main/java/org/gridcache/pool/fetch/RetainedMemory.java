package org.gridcache.pool.fetch;

import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;

/**
 * The bytes that fills wrote past the page cache and still keep in memory for their readers (a cut-through client
 * behind the disk writer), pool-wide. They share {@code pool.write-behind} with the bytes not yet on disk, so a fill's
 * memory stays within that bound as before: a fill may keep written bytes while both together are within it; beyond
 * it, the fill lets its written bytes go and its clients read them back from the disk.
 */
final class RetainedMemory {
    private final LongSupplier limit;
    private final LongSupplier writeBehind;
    private final AtomicLong held = new AtomicLong();

    /** {@code limit}: {@code pool.write-behind}; {@code writeBehind}: the bytes received and not yet on disk. */
    RetainedMemory(LongSupplier limit, LongSupplier writeBehind) {
        this.limit = limit;
        this.writeBehind = writeBehind;
    }

    /** Adds {@code delta} bytes (negative: let go); false when a growth took the pool beyond its bound. */
    boolean add(long delta) {
        long now = held.addAndGet(delta);
        return delta <= 0 || now + writeBehind.getAsLong() <= limit.getAsLong();
    }

    long held() {
        return held.get();
    }
}
