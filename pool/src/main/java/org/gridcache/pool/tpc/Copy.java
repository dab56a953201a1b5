package org.gridcache.pool.tpc;

import java.util.concurrent.atomic.AtomicLong;

/** One third-party copy, run on a worker thread (its I/O blocks), cancelled from the event loop when the client leaves. */
interface Copy {
    /**
     * Does the copy, counting the bytes moved in {@code moved} as they go; returns the transfer record's source
     * ({@code remote} for a pull; {@code hit} or {@code miss} for a push), or throws why it failed, having left nothing
     * behind.
     */
    String run(AtomicLong moved) throws CopyFailure;

    /** The client left: stop, and leave nothing behind (the running {@link #run} fails). */
    void cancel();
}
