package org.gridcache.pool.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import org.gridcache.common.settings.ClusterSettings;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The store on its own: commit, pins, eviction order, reservations, rebuild. */
class StoreTest {
    @TempDir
    Path dir;

    static StoreKey put(Store store, String url, int size) throws Exception {
        return put(store, url, size, 1, null);
    }

    /** A fetched file committed as the fetch commits it: reserved, written, sidecar, rename. */
    static StoreKey put(Store store, String url, int size, long mtime, String etag) throws Exception {
        StoreKey key = StoreKey.ofOrigin(url);
        ReplicaWriter fill = store.openFill(key, size);
        Files.write(fill.path(), new byte[size]);
        fill.commit(new Sidecar(url, size, mtime, etag, 0), false);
        return key;
    }

    @Test
    void pinnedFilesAreNeverEvicted() throws Exception {
        Store store = Store.open(dir, 1000, ClusterSettings::defaults);
        StoreKey a = put(store, "http://o/a", 300);
        StoreKey b = put(store, "http://o/b", 300);
        StoreKey c = put(store, "http://o/c", 300);
        store.pin(a); // the oldest, but being read

        store.reserve(300);
        assertNotNull(store.lookup(a));
        assertNull(store.lookup(b)); // the oldest unpinned one went
        assertNotNull(store.lookup(c));
        assertFalse(Files.exists(store.disk().dataFile(b)));
        assertTrue(Files.exists(store.disk().dataFile(a)));
        assertEquals(900, store.used());
    }

    @Test
    void everyEntryLeavingTheIndexIsHeardOf() throws Exception {
        Store store = Store.open(dir, 1000, ClusterSettings::defaults);
        List<StoreEntry> gone = new ArrayList<>();
        store.whenGone(gone::add);
        StoreKey a = put(store, "http://o/a", 300);
        StoreEntry firstA = store.lookup(a);
        StoreKey b = put(store, "http://o/b", 300);
        StoreEntry firstB = store.lookup(b);
        put(store, "http://o/a", 200); // a newer copy replaces the first
        assertEquals(List.of(firstA), gone);
        store.drop(b); // stale, vanished at the origin
        assertEquals(List.of(firstA, firstB), gone);
        StoreEntry c = store.lookup(put(store, "http://o/c", 300));
        StoreEntry d = store.lookup(put(store, "http://o/d", 300));
        store.reserve(400); // evicts the least recently used: the second a, then c
        assertEquals(4, gone.size());
        assertTrue(gone.contains(c));
        assertFalse(gone.contains(d));
    }

    @Test
    void reservationFailsWhenEverythingIsPinned() throws Exception {
        Store store = Store.open(dir, 1000, ClusterSettings::defaults);
        StoreKey a = put(store, "http://o/a", 400);
        StoreKey b = put(store, "http://o/b", 400);
        store.pin(a);
        store.pin(b);
        StoreException e = assertThrows(StoreException.class, () -> store.reserve(300));
        assertEquals(StoreException.Reason.NO_SPACE, e.reason());
        assertEquals("store full of pinned data", e.getMessage());
        store.unpin(b);
        store.reserve(300);
        assertNull(store.lookup(b));
        assertEquals(700, store.used());
    }

    @Test
    void fileLargerThanTheStoreIsRefused() throws Exception {
        Store store = Store.open(dir, 1000, ClusterSettings::defaults);
        assertEquals(StoreException.Reason.NO_SPACE, assertThrows(StoreException.class, () -> store.reserve(1001)).reason());
    }

    @Test
    void rebuildKeepsOnlyProvenFiles() throws Exception {
        Store store = Store.open(dir, 10_000, ClusterSettings::defaults);
        StoreKey good = put(store, "http://o/good", 100);
        StoreKey shortened = put(store, "http://o/short", 100);
        try (FileChannel ch = FileChannel.open(store.disk().dataFile(shortened), java.nio.file.StandardOpenOption.WRITE)) {
            ch.truncate(50); // e.g. a disk problem after the commit
        }
        Path part = store.disk().partFile(StoreKey.ofOrigin("http://o/partial"));
        Files.createDirectories(part.getParent());
        Files.write(part, new byte[10]);

        Store reopened = Store.open(dir, 10_000, ClusterSettings::defaults);
        assertNotNull(reopened.lookup(good));
        assertNull(reopened.lookup(shortened));
        // the verifier thread may be dropping it now (index first, then the file): its end is when the file is gone
        assertTrue(reopened.awaitVerified(java.time.Duration.ofSeconds(30)));
        assertFalse(Files.exists(store.disk().dataFile(shortened)));
        assertFalse(Files.exists(part));
        assertEquals(100, reopened.used());
    }

    /** Under the usual umask 022 the files would be 0644: what is left is the store's own mode, not the umask's. */
    @Test
    void whatTheStoreWritesIsReadableByThePoolAlone() throws Exception {
        Store store = Store.open(dir, 10_000, ClusterSettings::defaults);
        put(store, "http://o/private", 100);
        store.openFill(StoreKey.ofOrigin("http://o/in-flight"), 10);
        assertModes(dir.resolve("data"), "rw-------", "rwx------");
    }

    @Test
    void theGroupReadableModeLetsTheGroupRead() throws Exception {
        Files.createDirectories(dir.resolve("data"), PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwxrwxrwx")));
        Files.setPosixFilePermissions(dir.resolve("data"), PosixFilePermissions.fromString("rwxrwxrwx")); // as an older version left it
        Store store = Store.open(dir, 10_000, ClusterSettings::defaults, StoreMode.GROUP_READABLE, url -> null);
        put(store, "http://o/shared", 100);
        assertModes(dir.resolve("data"), "rw-r-----", "rwxr-x---");
    }

    /** Every file below {@code root} has {@code file}'s permissions, every directory (root included) {@code directory}'s. */
    private static void assertModes(Path root, String file, String directory) throws Exception {
        List<Path> all;
        try (var walk = Files.walk(root)) {
            all = walk.toList();
        }
        assertTrue(all.stream().anyMatch(Files::isRegularFile), "nothing written below " + root);
        for (Path p : all) {
            String expected = Files.isDirectory(p) ? directory : file;
            assertEquals(expected, PosixFilePermissions.toString(Files.getPosixFilePermissions(p)), p.toString());
        }
    }

    @Test
    void keyIsTheSha256OfTheOriginUrl() {
        StoreKey key = StoreKey.ofOrigin("abc");
        assertEquals("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad", key.hex());
        assertEquals(key, StoreKey.ofHex(key.hex()));
        String zeros = "0000000000000001" + "f".repeat(16) + "0".repeat(16) + "00000000000a0b0c";
        assertEquals(zeros, StoreKey.ofHex(zeros).hex(), "leading zeros of each part kept");
        assertNull(StoreKey.ofHex("xyz"));
    }

    /** A finished transfer unpins without the store's monitor, which every event loop's next request wants too. */
    @Test
    void anUnpinTakesNoMonitor() throws Exception {
        Store store = Store.open(dir, 1000, ClusterSettings::defaults);
        StoreKey a = put(store, "http://o/a", 100);
        store.pin(a);
        java.util.concurrent.CountDownLatch held = new java.util.concurrent.CountDownLatch(1);
        java.util.concurrent.CountDownLatch release = new java.util.concurrent.CountDownLatch(1);
        Thread holder = new Thread(() -> {
            synchronized (store) {
                held.countDown();
                try {
                    release.await();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
        });
        holder.start();
        try {
            assertTrue(held.await(30, java.util.concurrent.TimeUnit.SECONDS));
            java.util.concurrent.CompletableFuture.runAsync(() -> store.unpin(a)).get(30, java.util.concurrent.TimeUnit.SECONDS);
        } finally {
            release.countDown();
            holder.join();
        }
        assertFalse(store.index().isPinned(a));
    }

    /** Whether a copy found earlier is still the one stored: not after a drop, an eviction or a replacement. */
    @Test
    void aCopyFoundEarlierIsHeldUntilDroppedEvictedOrReplaced() throws Exception {
        Store store = Store.open(dir, 1000, ClusterSettings::defaults);
        StoreKey a = put(store, "http://o/a", 100);
        StoreEntry first = store.lookup(a);
        assertTrue(store.holds(a, first));
        put(store, "http://o/a", 100, 2, null); // a new copy committed over it
        assertFalse(store.holds(a, first));
        StoreEntry second = store.lookup(a);
        assertTrue(store.holds(a, second));
        store.evict(a);
        assertFalse(store.holds(a, second));
        StoreKey b = put(store, "http://o/b", 100);
        StoreEntry third = store.lookup(b);
        store.drop(b);
        assertFalse(store.holds(b, third));
    }
}
