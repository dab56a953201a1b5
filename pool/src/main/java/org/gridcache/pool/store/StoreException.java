package org.gridcache.pool.store;

import java.io.IOException;

/**
 * A storage-level failure of the store, in the store's own words: which {@link Reason}, and one line saying why.
 * The layers that serve clients map it to a status (no space: 507). An {@link IOException}, so that a caller writing
 * a file handles it with the file's other errors.
 */
public final class StoreException extends IOException {
    private static final long serialVersionUID = 1L;

    /** What went wrong. */
    public enum Reason {
        /** No room: by the pool's capacity, or on its file system. */
        NO_SPACE,
        /** The replica was dropped, evicted or replaced meanwhile. */
        GONE
    }

    private final Reason reason;

    StoreException(Reason reason, String message) {
        super(message);
        this.reason = reason;
    }

    static StoreException noSpace(String message) {
        return new StoreException(Reason.NO_SPACE, message);
    }

    static StoreException gone(String message) {
        return new StoreException(Reason.GONE, message);
    }

    /** Whether an I/O error is the file system's "no space" (the JDK gives only strerror's text for ENOSPC and EDQUOT). */
    public static boolean isNoSpace(IOException e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            String m = t.getMessage();
            if (m != null && (m.contains("No space left on device") || m.contains("Disk quota exceeded"))) {
                return true;
            }
        }
        return false;
    }

    public Reason reason() {
        return reason;
    }

    /** A reason, not a bug: no stack trace. */
    @Override
    public synchronized Throwable fillInStackTrace() {
        return this;
    }
}
