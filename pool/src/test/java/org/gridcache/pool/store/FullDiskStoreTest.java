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
import org.gridcache.common.settings.ClusterSettings;
import org.gridcache.pool.http.FetchException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A store whose file system fills from outside (issue 15, R5): its capacity is far from reached, but the disk is full.
 * The disk here is a fake of {@link #DISK} bytes that counts as a file system does: every file (sidecars too) in
 * whole blocks of {@link #U} bytes, plus what "something else" took.
 */
class FullDiskStoreTest {
    static final int U = 4096;
    private static final long DISK = 1000L * U;
    @TempDir
    Path dir;
    final AtomicLong outside = new AtomicLong();

    private long diskUsed() {
        try (Stream<Path> files = Files.walk(dir.resolve("data"))) {
            return files.filter(Files::isRegularFile).mapToLong(f -> (f.toFile().length() + U - 1) / U * U).sum();
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    private long diskFree() {
        return Math.max(0, DISK - diskUsed() - outside.get());
    }

    /** Something else takes the disk but {@code free} bytes. */
    private void leaveFree(long free) {
        outside.set(DISK - diskUsed() - free);
    }

    private Store open() throws IOException {
        return Store.open(dir, 1 << 30, ClusterSettings::defaults, StoreMode.PRIVATE, url -> null, this::diskFree);
    }

    @Test
    void aDiskFilledFromOutsideEvictsTheLeastRecentlyUsedUntilTheReservationFits() throws Exception {
        Store store = open();
        StoreKey a = StoreTest.put(store, "http://o/a", 300 * U);
        StoreKey b = StoreTest.put(store, "http://o/b", 300 * U);
        StoreKey c = StoreTest.put(store, "http://o/c", 300 * U);
        leaveFree(50 * U);
        store.lookup(a); // a used last: b is the least recently used

        store.reserve(200 * U); // lacks 151 blocks with its sidecar: b goes
        assertNull(store.lookup(b));
        assertFalse(Files.exists(store.disk().dataFile(b)));
        assertNotNull(store.lookup(a));
        assertNotNull(store.lookup(c));
        assertEquals(1, store.counters().evictions());
    }

    @Test
    void aDiskFullOfPinnedDataRefusesWith507() throws Exception {
        Store store = open();
        StoreKey a = StoreTest.put(store, "http://o/a", 400 * U);
        StoreKey b = StoreTest.put(store, "http://o/b", 400 * U);
        leaveFree(50 * U);
        store.pin(a);
        store.pin(b);

        StoreException e = assertThrows(StoreException.class, () -> store.reserve(100 * U));
        assertEquals(StoreException.Reason.NO_SPACE, e.reason());
        assertThrows(StoreException.class, () -> store.reserve(500 * U));
        assertTrue(e.getMessage().contains("disk is full"), e.getMessage());
        assertNotNull(store.lookup(a));
        assertNotNull(store.lookup(b));
        assertEquals(800 * U, store.used(), "the refused reservation holds nothing");
        store.unpin(b);
        assertThrows(StoreException.class, () -> store.reserve(500 * U), "b's 401 blocks would leave 50 lacking");
        assertNotNull(store.lookup(b), "so nothing is evicted in vain");
        assertEquals(0, store.counters().evictions());
        store.reserve(100 * U); // b may go now, and that makes room
        assertNull(store.lookup(b));
    }

    @Test
    void reservationsInFlightCountAgainstTheDisk() throws Exception {
        Store store = open();
        StoreKey a = StoreTest.put(store, "http://o/a", 300 * U);
        leaveFree(700 * U);
        store.reserve(500 * U); // a fetch in flight, none of its bytes written yet: 200 blocks free for the others
        assertThrows(StoreException.class, () -> store.reserve(600 * U), "evicting a would still leave 100 lacking");
        assertNotNull(store.lookup(a));
        assertEquals(800 * U, store.used());
        store.reserve(400 * U); // lacks 201 blocks: a goes
        assertNull(store.lookup(a));
    }

    /**
     * The sidecar and the last block count: a disk with room for a file's bytes but not for its sidecar would take
     * the fill and refuse its commit (ENOSPC on the sidecar, the fill lost, and the same again on every read of the
     * file). The reservation evicts for its whole footprint first.
     */
    @Test
    void aReservationCountsItsSidecarAndItsLastBlock() throws Exception {
        Store store = open();
        StoreKey old = StoreTest.put(store, "http://o/old", 100 * U);
        leaveFree(16 * U); // room for 16 blocks of data, none for the sidecar
        store.reserve(16 * U);
        assertNull(store.lookup(old), "evicted for the sidecar's block");
        assertTrue(diskFree() >= SpaceAllocator.footprint(16 * U));
        store.release(16 * U);

        StoreKey second = StoreTest.put(store, "http://o/second", 100 * U);
        leaveFree(16 * U + 1);
        store.reserve(16 * U - 100); // 16 blocks and a sidecar: one block lacking
        assertNull(store.lookup(second));
    }

    /**
     * A fill written to its end but not yet committed is on the disk once: its reservation does not count again. Else
     * on a disk with room for two files, the next file's reservation would lack the previous fill's bytes (or only its
     * sidecar's block) whatever eviction did, as sequential reads of 16 MiB files on a 48 MiB disk met.
     */
    @Test
    void aReservationWrittenAheadOfItsCommitCountsOnce() throws Exception {
        Store store = open();
        StoreKey a = StoreTest.put(store, "http://o/a", 300 * U);
        store.reserve(300 * U); // b's fill, all of it written below, not yet committed
        AtomicLong written = new AtomicLong();
        store.reservationsWritten(written::get);
        Files.createDirectories(store.disk().partFile(StoreKey.ofOrigin("http://o/b")).getParent());
        Files.write(store.disk().partFile(StoreKey.ofOrigin("http://o/b")), new byte[300 * U]);
        written.set(300 * U);
        leaveFree(250 * U);

        store.reserve(300 * U); // lacks 51 blocks and a sidecar's: a goes, and that is enough
        assertNull(store.lookup(a));
        assertEquals(1, store.counters().evictions());
    }

    /**
     * A disk that frees less than eviction counted (the first file evicted still open elsewhere, its blocks taken
     * until it is closed) is measured again and evicted again, rather than refusing with a few blocks lacking.
     */
    @Test
    void evictionIsMeasuredAgainAndRetriedUntilTheDiskTakesTheReservation() throws Exception {
        Store store = open();
        StoreKey a = StoreTest.put(store, "http://o/a", 100 * U);
        StoreKey b = StoreTest.put(store, "http://o/b", 100 * U);
        StoreKey c = StoreTest.put(store, "http://o/c", 100 * U);
        java.util.concurrent.atomic.AtomicBoolean first = new java.util.concurrent.atomic.AtomicBoolean(true);
        store.whenGone(e -> outside.addAndGet(first.getAndSet(false) ? 101L * U : 0)); // a's blocks stay taken
        leaveFree(10 * U);
        store.reserve(60 * U); // a frees nothing yet: measured again, b goes too
        assertNull(store.lookup(a));
        assertNull(store.lookup(b));
        assertNotNull(store.lookup(c));
        assertTrue(diskFree() >= SpaceAllocator.footprint(60 * U));
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
