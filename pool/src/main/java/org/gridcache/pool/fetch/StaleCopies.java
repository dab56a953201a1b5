package org.gridcache.pool.fetch;

import java.time.Clock;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;
import org.gridcache.pool.store.Store;
import org.gridcache.pool.store.StoreKey;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Drops this pool's copy of a file that a door wrote (PUT, DELETE, MOVE; ZooKeeper's {@code WriteNotices}), at once,
 * rather than when a later ticket's size or mtime disagrees with it (which misses a rewrite of the same size
 * within the origin's mtime resolution). A copy the pool is taking from an upload through itself, or took in the last
 * {@link #OWN_UPLOAD} seconds, is kept: the door tells of a redirected PUT when it redirects, so that notice is
 * older than the copy, which the origin confirmed. A notice for a collection drops only the path named (the store
 * is keyed by a hash of the origin URL, not by path): files below a moved or deleted collection stay until a
 * ticket's size or mtime shows them stale, or eviction.
 */
public final class StaleCopies {
    private static final Logger LOG = LoggerFactory.getLogger(StaleCopies.class);
    static final Duration OWN_UPLOAD = Duration.ofSeconds(5);
    private final Store store;
    private final Function<String, Optional<String>> originUrlOf;
    private final Clock clock;
    /** Uploads in flight (no end time yet) and recently committed ones: key to the instant they ended, or -1. */
    private final Map<StoreKey, Long> uploads = new ConcurrentHashMap<>();

    /** {@code originUrlOf}: the origin URL the mount table gives a namespace path, if any serves it. */
    public StaleCopies(Store store, Function<String, Optional<String>> originUrlOf, Clock clock) {
        this.store = store;
        this.originUrlOf = originUrlOf;
        this.clock = clock;
    }

    public void uploadStarted(StoreKey key) {
        uploads.put(key, -1L);
    }

    public void uploadEnded(StoreKey key) {
        uploads.put(key, clock.millis());
    }

    /** A door wrote {@code path}: drop this pool's copy unless it comes from an upload through this pool. */
    public void written(String path) {
        Optional<String> url = originUrlOf.apply(path);
        if (url.isEmpty()) {
            return;
        }
        StoreKey key = StoreKey.ofOrigin(url.get());
        long now = clock.millis();
        uploads.values().removeIf(ended -> ended >= 0 && now - ended > OWN_UPLOAD.toMillis());
        Long own = uploads.get(key);
        if (own != null) {
            LOG.debug("write notice for {}: kept, the copy comes from an upload through this pool", path);
            return;
        }
        long dropped = store.contains(key) ? store.drop(key) : -1;
        if (dropped >= 0) {
            LOG.info("write notice: dropped the copy of {} ({} bytes), written through a door", path, dropped);
        }
    }

    /** A door wrote more than its notice window holds: nothing to drop by path; tickets still catch stale copies. */
    public void writtenUnknown() {
        LOG.info("write notices: a door wrote more paths than its notice holds; stale copies are found by size and mtime");
    }
}
