package org.gridcache.pool.fetch;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import org.gridcache.pool.http.FetchException;
import org.gridcache.pool.store.Sidecar;
import org.gridcache.pool.store.Store;
import org.gridcache.pool.store.StoreException;
import org.gridcache.pool.store.StoreKey;

/**
 * The fetches in flight, one per key, in a concurrent map changed only by per-key atomic operations: a miss puts its
 * {@link Fill} by {@code putIfAbsent} (the winner starts the fetch, the others join it), and a fetch's reservation
 * ({@link Download#reserved}) is read and changed only inside the map's per-key {@code compute}. No system call
 * runs inside one: renames, deletes and reservations happen before or after, and a fetch leaves the map only after
 * its copy is published or its part file deleted.
 */
final class FetchesInFlight {
    private final Store store;
    private final Map<StoreKey, Fill> inFlight = new ConcurrentHashMap<>();

    FetchesInFlight(Store store) {
        this.store = store;
    }

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

    /**
     * Grows the download's reservation to {@code total} bytes (507 when the store has no room). The reservation is
     * made first, then counted in {@link Download#reserved} inside the in-flight map's per-key {@code compute} (which
     * guards that field), or given back when the fetch left the map meanwhile.
     */
    void reserve(Download d, long total) throws FetchException {
        long more = total - reservedOf(d);
        if (more <= 0) {
            return;
        }
        try {
            store.reserve(more);
        } catch (StoreException e) {
            throw FetchException.fromStore(e);
        }
        boolean[] kept = {false};
        inFlight.computeIfPresent(d.key(), (k, f) -> {
            if (f.now() == d) {
                d.reserved += more;
                kept[0] = true;
            }
            return f;
        });
        if (!kept[0]) {
            store.release(more);
        }
    }

    long reservedOf(Download d) {
        long[] reserved = {0};
        inFlight.computeIfPresent(d.key(), (k, f) -> {
            if (f.now() == d) {
                reserved[0] = d.reserved;
            }
            return f;
        });
        return reserved[0];
    }

    /**
     * Writes the sidecar, then makes the file a hit; throws if the fetch was abandoned meanwhile. The reservation
     * passes to the commit inside the map's per-key {@code compute}; the rename runs outside it, and the fetch
     * leaves the map only once its copy is published, so a request finds one or the other.
     */
    void commit(Download d, Sidecar sidecar) throws IOException {
        store.writeSidecar(d.key(), sidecar); // safe unlocked: only this fetch writes this key's files now
        long reserved = takeReservation(d);
        if (reserved < 0) {
            throw new IOException("fetch was abandoned");
        }
        try {
            store.commit(d.key(), store.origins().entryOf(sidecar), reserved, d.fromPeer());
        } catch (IOException | RuntimeException e) {
            store.release(reserved);
            throw e;
        }
        inFlight.computeIfPresent(d.key(), (k, f) -> f.now() == d ? null : f);
    }

    /** The download's reservation, now the caller's to commit or release; -1 when it is no longer in the map. */
    private long takeReservation(Download d) {
        long[] reserved = {-1};
        inFlight.computeIfPresent(d.key(), (k, f) -> {
            if (f.now() == d) {
                reserved[0] = d.reserved;
                d.reserved = 0;
            }
            return f;
        });
        return reserved[0];
    }

    /**
     * Forgets a failed fetch: closes and deletes its part file, returns its reservation. It leaves the map only
     * after its part file is deleted, so a new fetch of the key never has its part file deleted by this one.
     */
    void abandon(Download d) {
        d.closeQuietly();
        long reserved = takeReservation(d);
        if (reserved < 0) {
            return;
        }
        store.deletePart(d.key());
        store.release(reserved);
        inFlight.computeIfPresent(d.key(), (k, f) -> f.now() == d ? null : f);
    }
}
