package org.gridcache.simulator;

import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Supplier;
import org.gridcache.common.settings.ClusterSettings;
import org.gridcache.pool.store.Eviction;

/**
 * One pool as the simulator keeps it: its capacity, its copies in least-recently-used order, and what it served.
 * How much to evict is the pool's own {@link Eviction} (the watermarks); which files go is the pool's rule, oldest
 * access first until enough is freed, applied here to a map in access order instead of the pool's Caffeine index.
 *
 * <p>Two simplifications, both harmless while a store is much larger than concurrency × file size, as in practice:
 * a fetch takes its room when it starts (the pool reserves it then, too) and a file being read is not pinned.
 */
final class PoolModel {
    /** A copy, usable by readers from step {@code readyAt} on; before that its fetch is in flight. */
    private record Copy(long size, long readyAt) {
    }

    final String id;
    final long capacity;
    private final Eviction eviction;
    /** In insertion order, and every access re-inserts: iteration meets the least recently used first. */
    private final LinkedHashMap<String, Copy> copies = new LinkedHashMap<>();
    private long used;
    private long evictions;
    long requests;
    long bytesServed;

    PoolModel(String id, long capacity, Supplier<ClusterSettings> settings) {
        if (capacity <= 0) {
            throw new IllegalArgumentException("a pool needs a positive capacity, not " + capacity);
        }
        this.id = id;
        this.capacity = capacity;
        this.eviction = new Eviction(capacity, settings);
    }

    /** A complete copy: the pool would answer a peer's question with HIT. Asking is not an access. */
    boolean holds(String path, long now) {
        Copy c = copies.get(path);
        return c != null && c.readyAt <= now;
    }

    /** A copy whose fetch is under way: readers join it, and affinity's peers may pull it (IN-FLIGHT). */
    boolean fetching(String path, long now) {
        Copy c = copies.get(path);
        return c != null && c.readyAt > now;
    }

    boolean has(String path) {
        return copies.containsKey(path);
    }

    /** A read of the copy: it becomes the most recently used. */
    void touch(String path) {
        copies.put(path, copies.remove(path));
    }

    /**
     * Makes room as the pool's eviction would and keeps a copy ready at {@code readyAt}; false when the file is larger
     * than the whole store (the pool answers 507 and keeps nothing).
     */
    boolean store(String path, long size, long readyAt) {
        if (copies.containsKey(path)) {
            throw new IllegalStateException(id + " already has " + path + ": the simulator fetched it twice");
        }
        if (size > capacity) {
            return false;
        }
        long needed = eviction.bytesToFree(used, size);
        long freed = 0;
        for (Iterator<Map.Entry<String, Copy>> it = copies.entrySet().iterator(); it.hasNext() && freed < needed; ) {
            freed += it.next().getValue().size;
            it.remove();
            evictions++;
        }
        used -= freed;
        copies.put(path, new Copy(size, readyAt));
        used += size;
        if (used > capacity || used < 0) {
            throw new IllegalStateException(id + " stores " + used + " bytes, capacity " + capacity + " (after " + path + ")");
        }
        return true;
    }

    void served(long bytes) {
        requests++;
        bytesServed += bytes;
    }

    long used() {
        return used;
    }

    long evictions() {
        return evictions;
    }

    int files() {
        return copies.size();
    }
}
