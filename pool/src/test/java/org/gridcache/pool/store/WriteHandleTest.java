package org.gridcache.pool.store;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import org.gridcache.common.settings.ClusterSettings;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The store's one write handle, on real files: a fill, an upload's copy and a run of blocks end once, and cleanly. */
class WriteHandleTest {
    private static final String URL = "http://o/f";
    private static final StoreKey KEY = StoreKey.ofOrigin(URL);
    @TempDir
    Path dir;

    private static Sidecar sidecar(long size, long mtime) {
        return new Sidecar(URL, size, mtime, null, 0);
    }

    @Test
    void aFillIsAReplicaOnlyOnceCommittedAndItsRoomCountsOnce() throws Exception {
        Store store = Store.open(dir, 1000, ClusterSettings::defaults);
        ReplicaWriter fill = store.openFill(KEY, 100);
        assertEquals(100, store.used(), "reserved");
        Files.write(fill.path(), new byte[] {1, 2, 3});
        fill.grow(300);
        assertEquals(300, store.used());
        assertNull(store.lookup(KEY), "nothing is served before the commit");

        fill.commit(sidecar(3, 7), false);
        assertEquals(3, store.used(), "the reservation became the file's bytes");
        assertEquals(7, store.lookup(KEY).mtime());
        assertFalse(Files.exists(store.disk().partFile(KEY)));
        assertArrayEquals(new byte[] {1, 2, 3}, Files.readAllBytes(store.disk().dataFile(KEY)));
        assertEquals(3, store.counters().originBytes(), "counted as filled from the origin");

        assertEquals(StoreException.Reason.GONE,
                assertThrows(StoreException.class, () -> fill.commit(sidecar(3, 8), false)).reason());
        assertFalse(fill.cancel(), "a committed write is not undone");
        assertEquals(7, store.lookup(KEY).mtime());
        assertEquals(3, store.used());
    }

    @Test
    void aCancelledWriteLeavesNothingAndCannotBeCommitted() throws Exception {
        Store store = Store.open(dir, 1000, ClusterSettings::defaults);
        ReplicaWriter fill = store.openFill(KEY, 100);
        Files.write(fill.path(), new byte[40]);
        assertTrue(fill.cancel());
        assertFalse(fill.cancel());
        assertEquals(0, store.used());
        assertFalse(Files.exists(store.disk().partFile(KEY)));
        assertEquals(40, store.counters().originBytes(), "what it had read still counts");

        assertThrows(StoreException.class, () -> fill.commit(sidecar(40, 1), false));
        assertEquals(StoreException.Reason.GONE, assertThrows(StoreException.class, () -> fill.grow(5000)).reason(),
                "an ended write reserves nothing (not even for a moment, which could evict)");
        assertEquals(0, store.used());
        assertNull(store.lookup(KEY));
    }

    @Test
    void aFailedCommitDeletesItsFileAndGivesItsRoomBack() throws Exception {
        Store store = Store.open(dir, 1000, ClusterSettings::defaults);
        ReplicaWriter copy = store.openCopy(KEY, 100);
        copy.file().write(ByteBuffer.wrap(new byte[10]));
        Files.createDirectories(store.disk().dataFile(KEY)); // the rename cannot replace a directory
        assertThrows(IOException.class, () -> copy.commit(sidecar(10, 1), false));
        assertEquals(0, store.used());
        assertFalse(Files.exists(store.disk().uploadFile(KEY)));
        assertFalse(Files.exists(store.disk().sidecarFile(KEY)), "no sidecar without its data");
        assertNull(store.lookup(KEY));
        assertFalse(copy.cancel(), "it has ended");
    }

    /** A commit whose rename fails over an older copy: that copy was unpublished, so neither it nor the new sidecar stays. */
    @Test
    void aCommitThatFailsOverAnOlderCopyLeavesNoSidecarBehind() throws Exception {
        Store store = Store.open(dir, 1000, ClusterSettings::defaults);
        ReplicaWriter fill = store.openFill(KEY, 5);
        Files.write(fill.path(), new byte[5]);
        fill.commit(sidecar(5, 1), false);
        Path data = store.disk().dataFile(KEY);
        Files.delete(data);
        Files.createDirectories(data.resolve("in-the-way")); // the rename cannot replace a directory that holds a file
        ReplicaWriter copy = store.openCopy(KEY, 8);
        copy.file().write(ByteBuffer.wrap(new byte[8]));
        assertThrows(IOException.class, () -> copy.commit(sidecar(8, 2), false));
        assertNull(store.lookup(KEY));
        assertFalse(Files.exists(store.disk().sidecarFile(KEY)), "the new sidecar would pair with whatever is there");
        assertEquals(0, store.used());
    }

    @Test
    void anUploadsCopyReplacesTheFillBeforeIt() throws Exception {
        Store store = Store.open(dir, 1000, ClusterSettings::defaults);
        ReplicaWriter fill = store.openFill(KEY, 5);
        Files.write(fill.path(), new byte[5]);
        fill.commit(sidecar(5, 1), false);
        ReplicaWriter copy = store.openCopy(KEY, 8);
        copy.file().write(ByteBuffer.wrap(new byte[8]));
        copy.commit(sidecar(8, 2), false);
        assertEquals(8, store.lookup(KEY).size());
        assertEquals(8, store.used());
        assertEquals(5, store.counters().originBytes(), "a copy is no fill");
    }

    @Test
    void aRunOfBlocksIsProvenByItsCommitAndRefusesBytesPastItsEnd() throws Exception {
        Store store = Store.open(dir, 100_000, ClusterSettings::defaults);
        PartialFile p = store.blocks().create(KEY, URL, 4 * 1024, 7, 1024);
        PartialFiles.BlockWriter run = store.blocks().openRun(p, 1, 3);
        assertEquals(1024, run.offset());
        assertEquals(2048, run.length());
        assertThrows(IOException.class, () -> run.write(ByteBuffer.allocate(2049), 0));
        run.write(ByteBuffer.allocate(2048), 0);
        run.commit();
        assertTrue(p.bitmap().has(1) && p.bitmap().has(2) && !p.bitmap().has(0));
        assertEquals(2048, store.used());

        PartialFiles.BlockWriter given = store.blocks().openRun(p, 3, 4);
        assertTrue(given.cancel());
        assertFalse(p.bitmap().has(3), "a cancelled run sets no bit");
        assertEquals(2048, store.used());
        assertNotNull(store.blocks().partial(KEY));
    }
}
