package org.gridcache.pool.store;

import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.LinkedBlockingQueue;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The store's one maintenance thread: it evicts, so no request's thread deletes a file. Woken when room runs short
 * (a reservation that does not fit, the file system short of bytes) or after a commit that may have crossed the high
 * watermark; it walks the replicas in LRU order ({@link Eviction#victims}) and evicts the unpinned COMPLETE and
 * PARTIAL ones ({@link ReplicaIndex#evict}, {@link PartialFiles#evict}), skipping pinned and in-flight ones. A
 * request that needs the room waits for the answer (a future), holding no lock.
 */
final class Evictor implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(Evictor.class);

    /** What to free: {@code bytes} of data, or of disk ({@code disk}: counted by footprint); answered with bytes freed. */
    private record Request(long bytes, boolean disk, CompletableFuture<Long> freed) {
    }

    private static final Request WATERMARKS = new Request(-1, false, null);
    private static final Request STOP = new Request(-2, false, null);

    private final Store store;
    private final LinkedBlockingQueue<Request> requests = new LinkedBlockingQueue<>();
    private final Thread thread;

    Evictor(Store store, String name) {
        this.store = store;
        this.thread = new Thread(this::run, "store-evictor-" + name);
        this.thread.setDaemon(true);
    }

    void start() {
        thread.start();
    }

    /** Frees at least {@code bytes} (by the store's accounting, or on disk), or all that may go; the bytes freed. */
    CompletableFuture<Long> free(long bytes, boolean disk) {
        CompletableFuture<Long> freed = new CompletableFuture<>();
        if (!thread.isAlive()) {
            freed.complete(0L);
            return freed;
        }
        requests.add(new Request(bytes, disk, freed));
        return freed;
    }

    /** Evicts down to the low watermark if the store is above the high one; does not wait. */
    void wake() {
        if (!requests.contains(WATERMARKS)) {
            requests.add(WATERMARKS);
        }
    }

    /** Runs one request on the caller's thread: for tests, and for a store whose thread is not running. */
    long freeNow(long bytes, boolean disk) {
        return evict(victims(bytes, disk), disk);
    }

    private void run() {
        while (true) {
            Request r;
            try {
                r = requests.take();
            } catch (InterruptedException e) {
                return;
            }
            if (r == STOP) {
                return;
            }
            try {
                if (r == WATERMARKS) {
                    long needed = store.bytesToFree(0);
                    if (needed > 0) {
                        evict(victims(needed, false), false);
                    }
                } else {
                    r.freed().complete(evict(victims(r.bytes(), r.disk()), r.disk()));
                }
            } catch (RuntimeException e) {
                LOG.error("store: eviction failed: {}", e.toString(), e);
                if (r.freed() != null) {
                    r.freed().complete(0L);
                }
            }
        }
    }

    /** The least recently used unpinned replicas whose bytes (or footprints) add up to {@code needed}, or all there are. */
    List<Eviction.Candidate> victims(long needed, boolean disk) {
        return Eviction.victims(store.index().cache(), store.index()::isPinned, needed, store.blocks().candidates(), disk);
    }

    /** The bytes that {@code victims} would free, data or footprint. */
    static long bytesOf(List<Eviction.Candidate> victims) {
        long bytes = 0;
        for (Eviction.Candidate c : victims) {
            bytes += c.bytes();
        }
        return bytes;
    }

    /**
     * Evicts {@code victims} unless pinned meanwhile; the bytes freed. For room on disk, the deletes are then made
     * durable (one directory fsync): a journalling file system (ext4) gives deleted blocks back only when its
     * transaction commits, and until then the free bytes the next reservation measures do not show them.
     */
    private long evict(List<Eviction.Candidate> victims, boolean disk) {
        long freed = 0;
        StoreKey last = null;
        for (Eviction.Candidate victim : victims) {
            long size = evictIfUnpinned(victim.key());
            if (size >= 0) {
                store.counters().evicted(size);
                freed += disk ? victim.bytes() : size;
                last = victim.key();
                LOG.info("store: evicted {} ({} bytes), {} of {} bytes used", victim.key(), size, store.used(), store.capacity());
            }
        }
        if (disk && last != null) {
            StoreFiles.forceDirectory(store.disk().dataFile(last).getParent());
        }
        return freed;
    }

    /** On the evictor's thread: the key's replica evicted unless pinned; its bytes, or -1 when it stays. */
    long evictIfUnpinned(StoreKey key) {
        StoreEntry e = store.index().peek(key);
        if (e != null) {
            if (!store.index().evict(key, e)) {
                return -1;
            }
            store.space().remove(e.size());
            store.disk().deleteComplete(key);
            return e.size();
        }
        PartialFile p = store.blocks().get(key);
        return p == null ? -1 : store.blocks().evict(p, store.index());
    }

    @Override
    public void close() {
        requests.add(STOP);
    }
}
