package org.gridcache.pool.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import org.gridcache.common.origin.OriginEntry;
import org.gridcache.common.settings.ClusterSettings;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The bytes of complete replicas per origin: through fills, uploads, newer copies, eviction, drops and a restart. */
class OriginUsageTest {
    private static final String A = "http://a.example/data";
    private static final String B = "http://b.example";
    /** Two mounts, as a pool's mount table holds them; http://c.example is mounted nowhere. */
    private static final List<OriginEntry> MOUNTS = List.of(OriginEntry.of("a", "/a", A), OriginEntry.of("b", "/b", B));
    private static final Function<String, String> ORIGIN_OF = url -> MOUNTS.stream().filter(m -> m.holds(url))
            .map(OriginEntry::url).findFirst().orElse(null);

    @TempDir
    Path dir;

    private Store open(long capacity) throws Exception {
        return Store.open(dir, capacity, ClusterSettings::defaults, StoreMode.PRIVATE, ORIGIN_OF);
    }

    /** A fetched file committed as a fill commits it: reserved, written, sidecar, rename. */
    private static StoreKey fill(Store store, String url, int size) throws Exception {
        return keep(store, url, size, false);
    }

    /** An upload's copy, kept once the origin confirmed the write (as {@code StoreCopy} commits it). */
    private static StoreKey upload(Store store, String url, int size) throws Exception {
        return keep(store, url, size, true);
    }

    private static StoreKey keep(Store store, String url, int size, boolean upload) throws Exception {
        StoreKey key = StoreKey.ofOrigin(url);
        ReplicaWriter write = upload ? store.openCopy(key, size) : store.openFill(key, size);
        Files.write(write.path(), new byte[size]);
        write.commit(new Sidecar(url, size, 1, null, 0), false);
        return key;
    }

    private static Map<String, Long> usage(Store store) {
        return store.origins().largest(64);
    }

    @Test
    void fillsAndUploadsCountUnderTheirOrigin() throws Exception {
        Store store = open(10_000);
        fill(store, A + "/x.bin", 100);
        fill(store, A + "/sub/y.bin", 200);
        upload(store, B + "/z.bin", 300);
        fill(store, "http://c.example/w.bin", 400); // mounted nowhere: in the store's bytes only
        fill(store, "http://a.example/database/v.bin", 50); // not under A: a segment boundary, not a string prefix
        assertEquals(Map.of(A, 300L, B, 300L), usage(store));
        assertEquals(1050, store.used());

        upload(store, A + "/x.bin", 150); // a newer copy replaces the fill
        fill(store, B + "/z.bin", 30); // and a fill of a newer version the upload
        assertEquals(Map.of(A, 350L, B, 30L), usage(store));
    }

    @Test
    void evictionAndDropsTakeTheBytesOff() throws Exception {
        Store store = open(1000);
        StoreKey x = fill(store, A + "/x.bin", 300);
        fill(store, B + "/y.bin", 300);
        StoreKey z = fill(store, A + "/z.bin", 200);
        assertEquals(Map.of(A, 500L, B, 300L), usage(store));

        assertEquals(300, store.evict(x)); // an admin's evict(path)
        assertEquals(Map.of(A, 200L, B, 300L), usage(store));
        store.reserve(700); // the least recently used goes to make room: y
        assertEquals(Map.of(A, 200L), usage(store), "an origin holding nothing is not published");
        store.release(700);
        store.drop(z); // stale at the origin
        assertEquals(Map.of(), usage(store));
        assertEquals(0, store.used());
    }

    @Test
    void aRestartCountsWhatTheSidecarsProve() throws Exception {
        Store store = open(10_000);
        fill(store, "http://c.example/w.bin", 400);
        upload(store, A + "/y.bin", 200);
        StoreKey x = fill(store, A + "/x.bin", 100);
        StoreKey z = fill(store, B + "/z.bin", 300);
        Map<String, Long> before = usage(store);
        store.close();

        Store reopened = open(10_000);
        reopened.lookup(x); // a request proves x, or finds the verifier did: it counts once either way
        assertTrue(reopened.awaitVerified(Duration.ofSeconds(30)), "the verifier proves every file found");
        assertEquals(before, usage(reopened));
        assertEquals(Map.of(A, 300L, B, 300L), usage(reopened));
        assertEquals(1000, reopened.used());
        reopened.evict(z);
        assertEquals(Map.of(A, 300L), usage(reopened));
        reopened.close();
    }

    @Test
    void onlyTheLargestArePublished() throws Exception {
        Store store = open(10_000);
        fill(store, A + "/x.bin", 100);
        fill(store, B + "/y.bin", 300);
        assertEquals(Map.of(B, 300L), store.origins().largest(1));
        assertEquals(Map.of(A, 100L, B, 300L), store.origins().largest(2));
    }
}
