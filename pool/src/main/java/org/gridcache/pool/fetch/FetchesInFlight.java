package org.gridcache.pool.fetch;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import org.gridcache.pool.http.FetchException;
import org.gridcache.pool.store.Sidecar;
import org.gridcache.pool.store.ReplicaWriter;
import org.gridcache.pool.store.StoreException;
import org.gridcache.pool.store.StoreKey;

/**
 * The fetches in flight, one per key, in a concurrent map changed only by per-key atomic operations: a miss puts its
 * {@link Fill} by {@code putIfAbsent} (the winner starts the fetch, the others join it). A fetch's room and part file
 * are its {@link ReplicaWriter}, which ends once: committed or cancelled. A fetch leaves the map only after its copy
 * is published or its part file deleted.
 */
final class FetchesInFlight {
    private final Map<StoreKey, Fill> inFlight = new ConcurrentHashMap<>();

    /**
     * What the in-flight map holds for a key: the fetch once its request has reserved room and created the part
     * file (null when that failed). Joiners wait for it: a few system calls of another request, no lock held.
     */
    static final class Fill {
        final CompletableFuture<Download> started = new CompletableFuture<>();
        /** The fetch replaces a stored copy that the ticket showed stale. */
        final boolean refreshesStale;

        Fill(boolean refreshesStale) {
            this.refreshesStale = refreshesStale;
        }

        Download await() {
            return started.join();
        }

        /** The fetch if it has started, else null (not started yet, or failed to). */
        Download now() {
            return started.getNow(null);
        }
    }

    Fill get(StoreKey key) {
        return inFlight.get(key);
    }

    /** Puts {@code fill} for the key unless one is there; the one there, or null when {@code fill} went in. */
    Fill putIfAbsent(StoreKey key, Fill fill) {
        return inFlight.putIfAbsent(key, fill);
    }

    void remove(StoreKey key, Fill fill) {
        inFlight.remove(key, fill);
    }

    boolean containsKey(StoreKey key) {
        return inFlight.containsKey(key);
    }

    int size() {
        return inFlight.size();
    }

    /** The key's fetch in flight, if one has started; null otherwise. */
    Download running(StoreKey key) {
        Fill f = inFlight.get(key);
        return f == null ? null : f.now();
    }

    /** The fetches that have started. */
    List<Download> started() {
        List<Download> all = new ArrayList<>();
        for (Fill f : inFlight.values()) {
            Download d = f.now();
            if (d != null) {
                all.add(d);
            }
        }
        return all;
    }

    /** Grows the download's reservation to {@code total} bytes (507 when the store has no room). */
    void reserve(Download d, long total) throws FetchException {
        try {
            d.replica.grow(total);
        } catch (StoreException e) {
            throw FetchException.fromStore(e);
        }
    }

    long reservedOf(Download d) {
        return d.replica.reserved();
    }

    /**
     * Makes the file a hit through its write handle (which refuses a fetch abandoned meanwhile); the fetch leaves
     * the map only once its copy is published, so a request finds one or the other.
     */
    void commit(Download d, Sidecar sidecar) throws IOException {
        try {
            d.replica.commit(sidecar, d.fromPeer());
        } finally {
            leave(d); // published, or its part file deleted by the failed commit
        }
    }

    /**
     * Forgets a failed fetch: closes its writer, cancels its write (the part file deleted, the room returned). It
     * leaves the map only after that, so a new fetch of the key never has its part file deleted by this one.
     */
    void abandon(Download d) {
        d.closeQuietly();
        d.replica.cancel();
        leave(d);
    }

    private void leave(Download d) {
        inFlight.computeIfPresent(d.key(), (k, f) -> f.now() == d ? null : f);
    }
}
