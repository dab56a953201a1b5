package org.gridcache.pool.fetch;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * The listeners of one fill (the movers of its waiting clients), told of every change of its state or progress on
 * the thread that made it, never under a lock; a listener must not block.
 */
final class FillListeners {
    private final List<Download.Listener> listeners = new CopyOnWriteArrayList<>();

    /** Adds {@code listener} and tells it the fill's current state at once, so a late joiner misses nothing. */
    void add(Download download, Download.Listener listener) {
        listeners.add(listener);
        listener.changed(download);
    }

    void remove(Download.Listener listener) {
        listeners.remove(listener);
    }

    void tell(Download download) {
        for (Download.Listener l : listeners) {
            l.changed(download);
        }
    }
}
