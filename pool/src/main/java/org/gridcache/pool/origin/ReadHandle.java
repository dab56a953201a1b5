package org.gridcache.pool.origin;

import java.util.function.Consumer;

/**
 * The handle of a ranged read: closes its connection, whether the connection exists yet or not (a close before it
 * is set refuses it, and the read gives up). The client's event loop closes it; the fetcher's thread sets it.
 */
public final class ReadHandle<C> implements AutoCloseable {
    private final Consumer<C> closer;
    private C connection;
    private boolean closed;

    public ReadHandle(Consumer<C> closer) {
        this.closer = closer;
    }

    /** False when the read was cut before its connection came: the caller closes it and stops. */
    public synchronized boolean set(C c) {
        if (closed) {
            return false;
        }
        connection = c;
        return true;
    }

    /**
     * After a read without error, the connection is no longer the client's to close (a GridFTP connection goes back
     * to its pool); false if the client closed it first.
     */
    public synchronized boolean release() {
        connection = null;
        return !closed;
    }

    @Override
    public void close() {
        C c;
        synchronized (this) {
            closed = true;
            c = connection;
        }
        if (c != null) {
            closer.accept(c);
        }
    }
}
