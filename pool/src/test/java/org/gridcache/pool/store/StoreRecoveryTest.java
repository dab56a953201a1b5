package org.gridcache.pool.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Duration;
import java.util.List;
import org.gridcache.common.settings.ClusterSettings;
import org.gridcache.common.Json;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A restart (issue 15, R4): the index is rebuilt from a walk alone, every file is proven by its sidecar before it is
 * served (at first use or by the verifier, whichever comes first), and what is not proven is gone from index and disk.
 */
class StoreRecoveryTest {
    @TempDir
    Path dir;

    private static StoreKey put(Store store, String url, int size) throws Exception {
        return StoreTest.put(store, url, size, 7, "\"e\"");
    }

    private Store reopen() throws Exception {
        return Store.open(dir, 1 << 30, ClusterSettings::defaults);
    }

    @Test
    void aFileIsServedOnlyOnceItsSidecarProvesIt() throws Exception {
        Store store = reopen();
        StoreKey good = put(store, "http://o/good", 100);
        StoreKey other = put(store, "http://o/other", 100);
        // a sidecar that names another URL (a copy from elsewhere, a bug): the data is not what the name says
        Files.write(store.disk().sidecarFile(other), Json.bytes(new Sidecar("http://o/somewhere-else", 100, 7, null, 0)));

        Store reopened = reopen();
        StoreEntry entry = reopened.lookup(good);
        assertNotNull(entry);
        assertEquals(7, entry.mtime(), "the first use read the sidecar");
        assertEquals("\"e\"", entry.etag());
        assertNull(reopened.lookup(other), "never served");
        // the verifier may be dropping it as the lookup looks: its files are gone once the verifier is done
        assertTrue(reopened.awaitVerified(Duration.ofSeconds(30)));
        assertFalse(Files.exists(reopened.disk().dataFile(other)));
        assertFalse(Files.exists(reopened.disk().sidecarFile(other)));
        assertEquals(1, reopened.files());
        assertEquals(100, reopened.used());
        assertEquals(0, reopened.unverifiedFiles());
    }

    @Test
    void theVerifierProvesEveryFileAndDropsTheUnproven() throws Exception {
        Store store = reopen();
        for (int i = 0; i < 300; i++) {
            put(store, "http://o/f" + i, 10);
        }
        StoreKey truncated = StoreKey.ofOrigin("http://o/f7");
        try (FileChannel ch = FileChannel.open(store.disk().dataFile(truncated), java.nio.file.StandardOpenOption.WRITE)) {
            ch.truncate(5);
        }
        StoreKey badJson = StoreKey.ofOrigin("http://o/f8");
        Files.writeString(store.disk().sidecarFile(badJson), "{not json");

        Store reopened = reopen();
        assertTrue(reopened.awaitVerified(Duration.ofSeconds(30)));
        assertEquals(298, reopened.files());
        assertEquals(2980, reopened.used());
        assertFalse(Files.exists(reopened.disk().dataFile(truncated)));
        assertFalse(Files.exists(reopened.disk().dataFile(badJson)));
        assertEquals(7, reopened.lookup(StoreKey.ofOrigin("http://o/f9")).mtime());
    }

    @Test
    void unverifiedFilesEvictedOrReplacedBeforeTheirProofAreNoLongerCounted() throws Exception {
        Store store = reopen();
        StoreKey a = put(store, "http://o/a", 300);
        StoreKey b = put(store, "http://o/b", 300);

        Store reopened = reopen();
        reopened.evict(a); // an operator's eviction, before or after the verifier reached it
        ReplicaWriter fill = reopened.openFill(b, 200); // b fetched anew (stale, say), committed over the old copy
        Files.write(fill.path(), new byte[200]);
        fill.commit(new Sidecar("http://o/b", 200, 8, null, 0), false);
        assertTrue(reopened.awaitVerified(Duration.ofSeconds(30)));
        assertEquals(0, reopened.unverifiedFiles());
        assertNull(reopened.lookup(a));
        assertEquals(8, reopened.lookup(b).mtime());
        assertEquals(200, reopened.used());
    }

    @Test
    void partTemporaryOrphanedAndMisplacedFilesAreDeletedAtStart() throws Exception {
        Store store = reopen();
        StoreKey kept = put(store, "http://o/kept", 10);
        StoreKey fetching = StoreKey.ofOrigin("http://o/fetching");
        Files.createDirectories(store.disk().partFile(fetching).getParent());
        Files.write(store.disk().partFile(fetching), new byte[3]);
        Files.write(store.disk().uploadFile(fetching), new byte[3]);
        Path tmp = store.disk().sidecarFile(fetching).resolveSibling(store.disk().sidecarFile(fetching).getFileName() + ".tmp");
        Files.writeString(tmp, "{}");
        StoreKey orphan = StoreKey.ofOrigin("http://o/orphan");
        Files.createDirectories(store.disk().sidecarFile(orphan).getParent());
        Files.write(store.disk().sidecarFile(orphan), Json.bytes(new Sidecar("http://o/orphan", 1, 1, null, 0)));
        StoreKey noSidecar = StoreKey.ofOrigin("http://o/no-sidecar");
        Files.createDirectories(store.disk().dataFile(noSidecar).getParent());
        Files.write(store.disk().dataFile(noSidecar), new byte[4]);
        Path misplaced = dir.resolve("data").resolve(kept.hex()); // the right name in the wrong directory
        Files.write(misplaced, new byte[10]);
        Path stray = Files.createDirectories(dir.resolve("data/zz/stray")).resolve("file");
        Files.write(stray, new byte[1]);

        Store reopened = reopen();
        for (Path p : List.of(reopened.disk().partFile(fetching), reopened.disk().uploadFile(fetching), tmp, reopened.disk().sidecarFile(orphan),
                reopened.disk().dataFile(noSidecar), misplaced, stray)) {
            assertFalse(Files.exists(p), p + " was dropped");
        }
        assertEquals(1, reopened.files());
        assertNotNull(reopened.lookup(kept));
    }

    @Test
    void filesEnterTheLruOrderByTheirModificationTime() throws Exception {
        Store store = Store.open(dir, 1000, ClusterSettings::defaults);
        StoreKey newer = put(store, "http://o/newer", 300);
        StoreKey older = put(store, "http://o/older", 300);
        Files.setLastModifiedTime(store.disk().dataFile(older), FileTime.fromMillis(1_000_000));
        Files.setLastModifiedTime(store.disk().dataFile(newer), FileTime.fromMillis(2_000_000));

        Store reopened = Store.open(dir, 1000, ClusterSettings::defaults);
        assertTrue(reopened.awaitVerified(Duration.ofSeconds(30)));
        reopened.reserve(500); // 1,100 > 1,000: the least recently used goes
        assertNull(reopened.lookup(older));
        assertNotNull(reopened.lookup(newer));
    }

    @Test
    void provenBlocksOfAPartialFileSurviveTheRewrittenWalk() throws Exception {
        Store store = reopen();
        StoreKey key = StoreKey.ofOrigin("http://o/sparse");
        PartialFile p = store.blocks().create(key, "http://o/sparse", 4 * 1024, 7, 1024);
        PartialFiles.BlockWriter run = store.blocks().openRun(p, 0, 1);
        run.write(ByteBuffer.allocate(1024), 0);
        run.commit();
        p.closeQuietly();

        Store reopened = reopen();
        assertEquals(1, reopened.blocks().size());
        assertEquals(1024, reopened.used());
        assertTrue(reopened.blocks().partial(key).bitmap().has(0));
    }
}
