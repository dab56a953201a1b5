package org.gridcache.pool.store;

import com.github.benmanes.caffeine.cache.Cache;
import org.gridcache.common.settings.ClusterSettings.Keys;
import com.github.benmanes.caffeine.cache.Policy.CacheEntry;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.function.Predicate;
import java.util.function.Supplier;
import org.gridcache.common.settings.ClusterSettings;

/**
 * Least-recently-used eviction between two watermarks (ARCHITECTURE.md, "Disk layout"): nothing happens while the store plus the
 * incoming file stay under the high watermark; once above, the oldest unpinned files go until the store plus the
 * incoming file are back under the low watermark. The gap between the marks keeps eviction from running on every
 * fetch. Watermarks are read live from {@code /config}. Public for the policy simulator, which replays traces
 * through this very policy.
 */
public final class Eviction {
    private final long capacity;
    private final Supplier<ClusterSettings> settings;

    public Eviction(long capacity, Supplier<ClusterSettings> settings) {
        this.capacity = capacity;
        this.settings = settings;
    }

    /** Bytes to free so that {@code used + incoming} reaches the low watermark; 0 while under the high one. */
    public long bytesToFree(long used, long incoming) {
        ClusterSettings s = settings.get();
        double high = s.get(Keys.WATERMARK_HIGH);
        double low = Math.min(s.get(Keys.WATERMARK_LOW), high); // a low mark above the high one would evict forever
        long total = used + incoming;
        if (total <= (long) (high * capacity)) {
            return 0;
        }
        return Math.max(0, total - (long) (low * capacity));
    }

    /** A replica as eviction sees it: the bytes it holds (or takes on disk) and how long ago it was last read. */
    record Candidate(StoreKey key, long bytes, long ageNanos) {
    }

    /**
     * The least recently used unpinned files, complete and partial, whose bytes add up to at least {@code needed}
     * (or all there are): each partial file goes before the first complete file used more recently than it, so
     * blocks nobody reads do not outlive complete files that are. {@code disk}: count each complete file by its
     * footprint on disk ({@link SpaceAllocator#footprint}), not its length.
     */
    static List<Candidate> victims(Cache<StoreKey, StoreEntry> index, Predicate<StoreKey> pinned, long needed,
                                   List<Candidate> partials, boolean disk) {
        List<Candidate> older = new ArrayList<>(partials);
        older.removeIf(c -> pinned.test(c.key()));
        older.sort(java.util.Comparator.comparingLong(Candidate::ageNanos).reversed());
        var policy = index.policy().expireAfterAccess().orElseThrow();
        return policy.oldest(stream -> {
            List<Candidate> out = new ArrayList<>();
            long freed = 0;
            int next = 0;
            for (Iterator<CacheEntry<StoreKey, StoreEntry>> it = stream.iterator(); it.hasNext() && freed < needed; ) {
                CacheEntry<StoreKey, StoreEntry> e = it.next();
                long age = policy.ageOf(e.getKey(), java.util.concurrent.TimeUnit.NANOSECONDS).orElse(0);
                while (next < older.size() && older.get(next).ageNanos() >= age && freed < needed) {
                    out.add(older.get(next));
                    freed += older.get(next++).bytes();
                }
                if (freed < needed && !pinned.test(e.getKey()) && e.getValue().state() == ReplicaState.COMPLETE) {
                    long size = e.getValue().size();
                    long bytes = disk ? SpaceAllocator.footprint(size) : size;
                    out.add(new Candidate(e.getKey(), bytes, age));
                    freed += bytes;
                }
            }
            while (next < older.size() && freed < needed) {
                out.add(older.get(next));
                freed += older.get(next++).bytes();
            }
            return out;
        });
    }
}
