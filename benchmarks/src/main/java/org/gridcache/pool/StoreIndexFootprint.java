package org.gridcache.pool;

import com.github.benmanes.caffeine.cache.Cache;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;
import java.util.Locale;
import org.gridcache.pool.store.Store;
import org.gridcache.pool.store.StoreEntry;
import org.gridcache.pool.store.StoreKey;

/**
 * Heap per cached-file metadata entry in the pool's real index ({@link Store#newIndex()}): fills it with N entries
 * shaped like real ones (SHA-256 key of an origin URL, size, mtime, a 20-character ETag) and divides the heap growth
 * after full GCs by N. Run: {@code java -cp benchmarks/target/benchmarks.jar org.gridcache.pool.StoreIndexFootprint [N]}
 * (use -XX:+UseSerialGC for the steadiest figure).
 */
public final class StoreIndexFootprint {
    private StoreIndexFootprint() {
    }

    public static void main(String[] args) {
        int n = args.length > 0 ? Integer.parseInt(args[0]) : 1_000_000;
        StoreKey[] keys = new StoreKey[n];
        for (int i = 0; i < n; i++) { // keys made first: the index holds references to them, so they count below
            keys[i] = StoreKey.ofOrigin("https://se.example.org:2880/atlas/data/run" + (i / 1000) + "/file-" + i + ".root");
        }
        long before = usedAfterGc();
        Cache<StoreKey, StoreEntry> index = Store.newIndex();
        for (int i = 0; i < n; i++) {
            index.put(keys[i], new StoreEntry(1L << 30, 1_795_000_000L + i, String.format(Locale.ROOT, "\"%08x-%08x\"", i, n)));
        }
        long withIndex = usedAfterGc();
        long keyBytes = estimateKeys(n);
        double perEntry = (withIndex - before) / (double) n;
        System.out.printf(Locale.ROOT, "entries: %d%nheap growth per entry (index + entry): %.1f bytes%n"
                + "plus the key (4 longs + header): %d bytes%ntotal per cached file: %.1f bytes%n",
                index.estimatedSize(), perEntry, keyBytes / n, perEntry + keyBytes / (double) n);
        if (keys[n - 1] == null) { // keep keys reachable until after the measurement
            System.out.println();
        }
    }

    /** A StoreKey is a 12-byte header (compressed oops) + 4 longs, padded to 8: 48 bytes. */
    private static long estimateKeys(int n) {
        return 48L * n;
    }

    private static long usedAfterGc() {
        MemoryMXBean memory = ManagementFactory.getMemoryMXBean();
        for (int i = 0; i < 5; i++) {
            System.gc();
        }
        return memory.getHeapMemoryUsage().getUsed();
    }
}
