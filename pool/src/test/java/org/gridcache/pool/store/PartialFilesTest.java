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
import java.util.Arrays;
import org.gridcache.common.settings.ClusterSettings;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Partial files in the store: proven blocks kept across a restart, unproven ones not; space and eviction. */
class PartialFilesTest {
    private static final int BLOCK = 128 << 10;
    @TempDir
    Path dir;

    private static byte[] block(int fill) {
        byte[] b = new byte[BLOCK];
        Arrays.fill(b, (byte) fill);
        return b;
    }

    private static final String BIG = "http://o/big";

    private static PartialFile big(Store store, long blocks) throws IOException {
        return store.blocks().create(StoreKey.ofOrigin(BIG), BIG, blocks * BLOCK, 7, BLOCK);
    }

    private static void write(Store store, PartialFile p, int block, int fill) throws Exception {
        PartialFiles.BlockWriter run = store.blocks().openRun(p, block, block + 1);
        run.write(ByteBuffer.wrap(block(fill)), 0);
        run.commit();
    }

    @Test
    void aRestartKeepsTheProvenBlocksAndDropsTheUnproven() throws Exception {
        Store store = Store.open(dir, 100L * BLOCK, ClusterSettings::defaults);
        PartialFile p = big(store, 10);
        StoreKey key = p.key();
        write(store, p, 3, 3);
        write(store, p, 7, 7);
        p.write(ByteBuffer.wrap(block(5)), 5L * BLOCK); // bytes on disk, never proven (a crash before its sidecar)
        assertEquals(2L * BLOCK, store.used());

        Store again = Store.open(dir, 100L * BLOCK, ClusterSettings::defaults);
        PartialFile back = again.blocks().partial(key);
        assertNotNull(back);
        assertTrue(back.bitmap().has(3) && back.bitmap().has(7));
        assertFalse(back.bitmap().has(5), "written but unproven: not a block after the restart");
        assertEquals(7, back.mtime());
        assertEquals(2L * BLOCK, again.used());
        try (FileChannel in = again.blocks().open(key)) {
            ByteBuffer b = ByteBuffer.allocate(BLOCK);
            in.read(b, 7L * BLOCK);
            assertTrue(Arrays.equals(block(7), b.array()));
        }
        assertNull(again.lookup(key), "a partial file is no hit");
    }

    @Test
    void aPartialFileWhoseSidecarDoesNotProveItIsDropped() throws Exception {
        Store store = Store.open(dir, 100L * BLOCK, ClusterSettings::defaults);
        PartialFile p = big(store, 10);
        StoreKey key = p.key();
        write(store, p, 0, 1);
        Files.writeString(store.disk().blocksSidecarFile(key), "{\"originUrl\":\"http://o/other\",\"size\":1310720,\"blockSize\":131072,\"blocks\":\"AQ==\"}");
        Store again = Store.open(dir, 100L * BLOCK, ClusterSettings::defaults);
        assertNull(again.blocks().partial(key));
        assertEquals(0, again.used());
        assertFalse(Files.exists(store.disk().blocksFile(key)));
        assertFalse(Files.exists(store.disk().blocksSidecarFile(key)));
    }

    @Test
    void aTruncatedBlocksFileIsDropped() throws Exception {
        Store store = Store.open(dir, 100L * BLOCK, ClusterSettings::defaults);
        PartialFile p = big(store, 10);
        StoreKey key = p.key();
        write(store, p, 0, 1);
        try (FileChannel ch = FileChannel.open(store.disk().blocksFile(key), java.nio.file.StandardOpenOption.WRITE)) {
            ch.truncate(BLOCK);
        }
        assertNull(Store.open(dir, 100L * BLOCK, ClusterSettings::defaults).blocks().partial(key));
    }

    @Test
    void aCompleteCopySupersedesTheBlocksAndItsSidecarHasNoBitmap() throws Exception {
        Store store = Store.open(dir, 100L * BLOCK, ClusterSettings::defaults);
        String url = "http://o/big";
        StoreKey key = StoreKey.ofOrigin(url);
        PartialFile p = store.blocks().create(key, url, 2L * BLOCK, 7, BLOCK);
        write(store, p, 0, 1);
        ReplicaWriter fill = store.openFill(key, 2L * BLOCK);
        Files.write(fill.path(), new byte[2 * BLOCK]);
        fill.commit(new Sidecar(url, 2L * BLOCK, 7, null, 0), false);
        assertNull(store.blocks().partial(key));
        assertFalse(Files.exists(store.disk().blocksFile(key)));
        assertEquals(2L * BLOCK, store.used());
        String sidecar = Files.readString(store.disk().sidecarFile(key));
        assertFalse(sidecar.contains("blocks") || sidecar.contains("blockSize"), sidecar);
    }

    @Test
    void partialFilesAreEvictedInLruOrderWithCompleteOnes() throws Exception {
        Store store = Store.open(dir, 10L * BLOCK, ClusterSettings::defaults);
        StoreKey old = StoreKey.ofOrigin("http://o/old");
        PartialFile p = store.blocks().create(old, "http://o/old", 100L * BLOCK, 7, BLOCK);
        for (int b = 0; b < 4; b++) {
            write(store, p, b, b);
        }
        StoreKey complete = StoreKey.ofOrigin("http://o/c");
        ReplicaWriter fill = store.openFill(complete, 4L * BLOCK);
        Files.write(fill.path(), new byte[4 * BLOCK]);
        fill.commit(new Sidecar("http://o/c", 4L * BLOCK, 1, null, 0), false);
        assertEquals(8L * BLOCK, store.used());

        store.reserve(3L * BLOCK); // 11 blocks > 10: the partial file, used least recently, goes
        assertNull(store.blocks().partial(old));
        assertFalse(Files.exists(store.disk().blocksFile(old)));
        assertNotNull(store.lookup(complete));
        assertEquals(7L * BLOCK, store.used());
    }

    @Test
    void aPinnedPartialFileStaysAndProvingADroppedOneFails() throws Exception {
        Store store = Store.open(dir, 4L * BLOCK, ClusterSettings::defaults);
        PartialFile p = big(store, 100);
        StoreKey key = p.key();
        write(store, p, 0, 0);
        write(store, p, 1, 1);
        store.pin(key);
        assertThrows(StoreException.class, () -> store.reserve(3L * BLOCK));
        assertNotNull(store.blocks().partial(key));
        store.unpin(key);
        assertEquals(2L * BLOCK, store.evict(key));
        PartialFiles.BlockWriter late = store.blocks().openRun(p, 2, 3); // a read of it still in flight
        assertThrows(IOException.class, late::commit);
        assertEquals(0, store.used(), "its room given back");
    }

    @Test
    void aPartialFileWithEveryBlockBecomesACompleteCopyOfTheSameBytes() throws Exception {
        Store store = Store.open(dir, 100L * BLOCK, ClusterSettings::defaults);
        PartialFile p = big(store, 3);
        StoreKey key = p.key();
        write(store, p, 0, 1);
        write(store, p, 2, 3);
        assertFalse(store.blocks().complete(p), "block 1 is missing");
        assertNull(store.lookup(key));
        write(store, p, 1, 2);
        try (FileChannel reader = store.blocks().open(key)) {
            assertTrue(store.blocks().complete(p));
            assertEquals(ReplicaState.REMOVED, p.state());
            assertNull(store.blocks().partial(key));
            assertFalse(Files.exists(store.disk().blocksFile(key)));
            assertFalse(Files.exists(store.disk().blocksSidecarFile(key)));
            ByteBuffer b = ByteBuffer.allocate(BLOCK);
            reader.read(b, 2L * BLOCK);
            assertTrue(Arrays.equals(block(3), b.array()), "a reader of the blocks file reads on");
        }
        StoreEntry entry = store.lookup(key);
        assertNotNull(entry);
        assertEquals(3L * BLOCK, entry.size());
        assertEquals(7, entry.mtime());
        assertEquals(3L * BLOCK, store.used(), "counted once");
        String sidecar = Files.readString(store.disk().sidecarFile(key));
        assertFalse(sidecar.contains("blocks") || sidecar.contains("blockSize"), sidecar);
        try (FileChannel data = FileChannel.open(store.disk().dataFile(key))) {
            ByteBuffer b = ByteBuffer.allocate(BLOCK);
            data.read(b, BLOCK);
            assertTrue(Arrays.equals(block(2), b.array()));
        }
        Store again = Store.open(dir, 100L * BLOCK, ClusterSettings::defaults);
        assertNotNull(again.lookup(key), "complete after a restart");
        assertEquals(3L * BLOCK, again.used());
    }

    @Test
    void aPartialFileDroppedWhileBeingCompletedLeavesNoCopy() throws Exception {
        Store store = Store.open(dir, 100L * BLOCK, ClusterSettings::defaults);
        PartialFile p = big(store, 1);
        write(store, p, 0, 1);
        store.blocks().drop(p); // another version, a write notice: before the completion looks
        assertFalse(store.blocks().complete(p));
        assertNull(store.lookup(p.key()));
        assertFalse(Files.exists(store.disk().dataFile(p.key())));
        assertEquals(0, store.used());
    }

    @Test
    void aCrashBetweenTheCompleteCopyAndTheBlocksKeepsTheCompleteCopy() throws Exception {
        Store store = Store.open(dir, 100L * BLOCK, ClusterSettings::defaults);
        PartialFile p = big(store, 2);
        StoreKey key = p.key();
        write(store, p, 0, 1);
        write(store, p, 1, 2);
        // what a completion leaves before it removes the blocks: the complete sidecar and a link to the blocks file
        store.disk().writeSidecar(store.disk().sidecarFile(key), new Sidecar(BIG, 2L * BLOCK, 7, null, 0));
        Files.createLink(store.disk().dataFile(key), store.disk().blocksFile(key));
        Store again = Store.open(dir, 100L * BLOCK, ClusterSettings::defaults);
        assertNotNull(again.lookup(key));
        assertNull(again.blocks().partial(key));
        assertFalse(Files.exists(again.disk().blocksFile(key)));
        assertEquals(2L * BLOCK, again.used());
    }

    @Test
    void aWholeFileFetchInFlightKeepsItsSidecarAndTheBlocksWait() throws Exception {
        Store store = Store.open(dir, 100L * BLOCK, ClusterSettings::defaults);
        PartialFile p = big(store, 1);
        StoreKey key = p.key();
        write(store, p, 0, 1);
        store.openFill(key, 0); // a whole-file fetch of the key has started
        store.disk().writeSidecar(store.disk().sidecarFile(key), new Sidecar(BIG, BLOCK, 7, "\"fetched\"", 0));
        assertFalse(store.blocks().complete(p));
        assertTrue(Files.readString(store.disk().sidecarFile(key)).contains("fetched"), "the fetch's sidecar stands");
        assertFalse(Files.exists(store.disk().dataFile(key)));
        assertNotNull(store.blocks().partial(key), "still served from its blocks");
        Files.delete(store.disk().partFile(key)); // the fetch failed: the blocks complete now
        assertTrue(store.blocks().complete(p));
        assertNotNull(store.lookup(key));
    }
}
