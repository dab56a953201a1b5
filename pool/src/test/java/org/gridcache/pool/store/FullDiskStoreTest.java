package org.gridcache.pool.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Stream;
import org.gridcache.common.ClusterSettings;
import org.gridcache.pool.fetch.FetchException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A store whose file system fills from outside (issue 15, R5): its capacity is far from reached, but the disk is full.
 * The disk here is a fake of 1,000 bytes: what the store's data files hold plus what "something else" took.
 */
class FullDiskStoreTest {
    private static final long DISK = 1000;
    @TempDir
    Path dir;
    final AtomicLong outside = new AtomicLong();

    private long diskFree() {
        try (Stream<Path> files = Files.walk(dir.resolve("data"))) {
            long stored = files.filter(Files::isRegularFile).filter(f -> !f.toString().endsWith(Store.SIDECAR))
                    .mapToLong(f -> f.toFile().length()).sum();
            return Math.max(0, DISK - stored - outside.get());
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    private Store open() throws IOException {
        return Store.open(dir, 1 << 30, ClusterSettings::defaults, StoreMode.PRIVATE, this::diskFree);
    }

    @Test
    void aDiskFilledFromOutsideEvictsTheLeastRecentlyUsedUntilTheReservationFits() throws Exception {
        Store store = open();
        StoreKey a = StoreTest.put(store, "http://o/a", 300);
        StoreKey b = StoreTest.put(store, "http://o/b", 300);
        StoreKey c = StoreTest.put(store, "http://o/c", 300);
        outside.set(50); // 50 bytes free of 1,000
        store.lookup(a); // a used last: b is the least recently used

        store.reserve(200); // lacks 150: b goes
        assertNull(store.lookup(b));
        assertFalse(Files.exists(store.dataFile(b)));
        assertNotNull(store.lookup(a));
        assertNotNull(store.lookup(c));
        assertEquals(1, store.evictions());
    }

    @Test
    void aDiskFullOfPinnedDataRefusesWith507() throws Exception {
        Store store = open();
        StoreKey a = StoreTest.put(store, "http://o/a", 400);
        StoreKey b = StoreTest.put(store, "http://o/b", 400);
        outside.set(150); // 50 free
        store.pin(a);
        store.pin(b);

        FetchException e = assertThrows(FetchException.class, () -> store.reserve(100));
        assertEquals(507, e.status().code());
        assertThrows(FetchException.class, () -> store.reserve(500));
        assertTrue(e.getMessage().contains("disk is full"), e.getMessage());
        assertNotNull(store.lookup(a));
        assertNotNull(store.lookup(b));
        assertEquals(800, store.used(), "the refused reservation holds nothing");
        store.unpin(b);
        assertThrows(FetchException.class, () -> store.reserve(500), "b's 400 bytes would leave 50 lacking");
        assertNotNull(store.lookup(b), "so nothing is evicted in vain");
        assertEquals(0, store.evictions());
        store.reserve(100); // b may go now, and that makes room
        assertNull(store.lookup(b));
    }

    @Test
    void reservationsInFlightCountAgainstTheDisk() throws Exception {
        Store store = open();
        StoreKey a = StoreTest.put(store, "http://o/a", 300);
        store.reserve(500); // a fetch in flight, none of its bytes written yet: 200 free on the fake disk
        assertThrows(FetchException.class, () -> store.reserve(600), "evicting a would still leave 100 lacking");
        assertNotNull(store.lookup(a));
        assertEquals(800, store.used());
        store.reserve(400); // lacks 200: a goes
        assertNull(store.lookup(a));
    }

    @Test
    void theNoSpaceErrorIsToldFromOtherWriteErrors() {
        assertTrue(FetchException.isNoSpace(new IOException("No space left on device")));
        assertTrue(FetchException.isNoSpace(new IOException("wrapped", new IOException("Disk quota exceeded"))));
        assertFalse(FetchException.isNoSpace(new IOException("Input/output error")));
        assertEquals(507, FetchException.storeWrite("write the file", new IOException("No space left on device")).status().code());
        assertEquals(500, FetchException.storeWrite("write the file", new IOException("Input/output error")).status().code());
    }
}
