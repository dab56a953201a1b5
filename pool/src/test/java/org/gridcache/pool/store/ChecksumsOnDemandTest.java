package org.gridcache.pool.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayDeque;
import java.util.EnumSet;
import java.util.List;
import java.util.Queue;
import java.util.Random;
import java.util.concurrent.AbstractExecutorService;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.gridcache.common.settings.ClusterSettings;
import org.gridcache.common.Json;
import org.gridcache.common.checksum.ChecksumComputation;
import org.gridcache.common.checksum.ChecksumType;
import org.gridcache.common.checksum.Checksums;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Checksums computed from a stored copy when first asked for, kept in its sidecar only while that copy is current. */
class ChecksumsOnDemandTest {
    private static final EnumSet<ChecksumType> CHEAP = EnumSet.of(ChecksumType.ADLER32, ChecksumType.CRC32C);

    @TempDir
    Path dir;
    private Store store;
    /** The test runs the computations' tasks itself, so that it knows what is pending when. */
    private final HeldExecutor readers = new HeldExecutor();
    private ChecksumsOnDemand onDemand;

    @BeforeEach
    void open() throws Exception {
        store = Store.open(dir, 10_000_000, ClusterSettings::defaults);
        onDemand = new ChecksumsOnDemand(store, readers, 1);
    }

    @AfterEach
    void close() {
        onDemand.close();
    }

    /** A copy filled as a fill with pool.checksums=adler32,crc32c leaves it. */
    private StoreKey put(String url, byte[] data) throws Exception {
        StoreKey key = StoreKey.ofOrigin(url);
        ReplicaWriter fill = store.openFill(key, data.length);
        Files.write(fill.path(), data);
        fill.commit(new Sidecar(url, data.length, 7, "\"e\"", 0, all(data).only(CHEAP).toHex()), false);
        return key;
    }

    private static Checksums all(byte[] data) {
        ChecksumComputation c = new ChecksumComputation();
        c.update(ByteBuffer.wrap(data));
        return c.finish();
    }

    private static byte[] random(int size, long seed) {
        byte[] b = new byte[size];
        new Random(seed).nextBytes(b);
        return b;
    }

    private Sidecar sidecar(StoreKey key) throws Exception {
        return Json.read(Files.readAllBytes(store.disk().sidecarFile(key)), Sidecar.class);
    }

    @Test
    void whatTheSidecarLacksIsComputedFromTheFileAndKept() throws Exception {
        byte[] data = random(3_000_000, 1); // three reads of the file
        StoreKey key = put("http://o/f", data);
        Sidecar before = sidecar(key);

        CompletableFuture<Checksums> asked = onDemand.of(key, store.lookup(key), EnumSet.of(ChecksumType.MD5, ChecksumType.ADLER32));
        readers.runAll();
        assertEquals(all(data).only(EnumSet.of(ChecksumType.ADLER32, ChecksumType.CRC32C, ChecksumType.MD5)).toHex(),
                asked.get().toHex(), "the sidecar's with md5 added");
        Sidecar after = sidecar(key);
        assertEquals(asked.get().toHex(), after.checksums());
        assertEquals(before, new Sidecar(after.originUrl(), after.size(), after.mtime(), after.etag(), after.storedAt(),
                before.checksums()), "nothing else of the sidecar changed");

        CompletableFuture<Checksums> again = onDemand.of(key, store.lookup(key), EnumSet.of(ChecksumType.MD5));
        readers.runAll();
        assertEquals(asked.get().toHex(), again.get().toHex());
        assertEquals(1, store.counters().checksumComputationsOnDemand(), "the second answer came from the sidecar");
        assertFalse(Files.exists(dir.resolve("data")) && Files.walk(dir.resolve("data"))
                .anyMatch(p -> p.toString().endsWith(".tmp")), "no temporary file left");
    }

    @Test
    void requestsForOneCopyWhileItIsComputedShareTheComputation() throws Exception {
        byte[] data = random(200_000, 2);
        StoreKey key = put("http://o/shared", data);
        StoreEntry copy = store.lookup(key);
        List<CompletableFuture<Checksums>> asked = List.of(
                onDemand.of(key, copy, EnumSet.of(ChecksumType.MD5)),
                onDemand.of(key, copy, EnumSet.of(ChecksumType.MD5, ChecksumType.ADLER32)),
                onDemand.of(key, copy, EnumSet.of(ChecksumType.SHA256))); // not covered by the first: asks again after it
        readers.runAll();
        assertEquals(all(data).only(EnumSet.of(ChecksumType.ADLER32, ChecksumType.CRC32C, ChecksumType.MD5)).toHex(),
                asked.get(0).get().toHex());
        assertEquals(asked.get(0).get().toHex(), asked.get(1).get().toHex());
        assertEquals(all(data).toHex(), asked.get(2).get().toHex());
        assertEquals(2, store.counters().checksumComputationsOnDemand(), "md5 once for the first two, then sha-256 for the third");
        assertEquals(all(data).toHex(), sidecar(key).checksums());
    }

    @Test
    void aCopyReplacedWhileItsChecksumsWereComputedKeepsTheNewSidecar() throws Exception {
        byte[] old = random(100_000, 3);
        StoreKey key = put("http://o/replaced", old);
        StoreEntry copy = store.lookup(key);
        CompleteSidecars.StoredCopy opened = store.sidecars().open(key, copy);
        opened.data().close();

        byte[] data = random(50_000, 4); // an upload's copy replaces it meanwhile
        ReplicaWriter upload = store.openCopy(key, data.length);
        upload.file().write(ByteBuffer.wrap(data));
        Sidecar replacing = new Sidecar("http://o/replaced", data.length, 8, null, 1, all(data).only(CHEAP).toHex());
        store.disk().writeSidecar(store.disk().sidecarFile(key), replacing); // the first step of the upload's commit
        assertFalse(store.sidecars().keep(key, copy, opened.sidecar(), all(old)),
                "its sidecar changed: the old copy's checksums are not written over it");
        assertEquals(replacing, sidecar(key));
        upload.commit(replacing, false);
        assertFalse(store.sidecars().keep(key, copy, replacing, all(old)), "another copy is stored now");
        assertEquals(replacing, sidecar(key));

        CompletableFuture<Checksums> forOld = onDemand.of(key, copy, EnumSet.of(ChecksumType.MD5));
        readers.runAll();
        assertTrue(forOld.get().isEmpty(), "nothing for a copy no longer stored (the sidecar is another copy's)");
        assertEquals(0, store.counters().checksumComputationsOnDemand());
    }

    @Test
    void aStoredFileShorterThanItsSidecarSaysFailsTheRequestAndKeepsNothing() throws Exception {
        byte[] data = random(100_000, 5);
        StoreKey key = put("http://o/short", data);
        try (FileChannel f = FileChannel.open(store.disk().dataFile(key), StandardOpenOption.WRITE)) {
            f.truncate(60_000); // behind the pool's back
        }
        CompletableFuture<Checksums> asked = onDemand.of(key, store.lookup(key), EnumSet.of(ChecksumType.SHA256));
        readers.runAll();
        ExecutionException e = assertThrows(ExecutionException.class, asked::get);
        assertInstanceOf(java.io.IOException.class, e.getCause());
        assertEquals("stored file shorter than its 100000 bytes", e.getCause().getMessage());
        assertEquals(all(data).only(CHEAP).toHex(), sidecar(key).checksums());
    }

    @Test
    void checksumsThatCannotBeKeptAreStillAnswered() throws Exception {
        byte[] data = random(70_000, 6);
        StoreKey key = put("http://o/unkept", data);
        Path sidecar = store.disk().sidecarFile(key);
        Path blocker = sidecar.resolveSibling(sidecar.getFileName() + ".checksums.tmp");
        Files.createDirectory(blocker); // the new sidecar cannot be written, as on a full disk
        CompletableFuture<Checksums> asked = onDemand.of(key, store.lookup(key), EnumSet.of(ChecksumType.MD5));
        readers.runAll();
        assertEquals(all(data).only(EnumSet.of(ChecksumType.ADLER32, ChecksumType.CRC32C, ChecksumType.MD5)).toHex(),
                asked.get().toHex(), "the client gets them all the same");
        assertEquals(all(data).only(CHEAP).toHex(), sidecar(key).checksums(), "the sidecar as it was");
        Files.deleteIfExists(blocker); // the failed write removed it already when empty
        CompletableFuture<Checksums> again = onDemand.of(key, store.lookup(key), EnumSet.of(ChecksumType.MD5));
        readers.runAll();
        assertEquals(asked.get().toHex(), again.get().toHex());
        assertEquals(2, store.counters().checksumComputationsOnDemand(), "computed again, and kept this time");
        assertEquals(asked.get().toHex(), sidecar(key).checksums());
    }

    /** Holds submitted tasks until the test runs them (also those submitted while running). */
    private static final class HeldExecutor extends AbstractExecutorService {
        private final Queue<Runnable> tasks = new ArrayDeque<>();
        private boolean shutdown;

        @Override
        public synchronized void execute(Runnable task) {
            tasks.add(task);
        }

        void runAll() {
            Runnable next;
            while ((next = poll()) != null) {
                next.run();
            }
        }

        private synchronized Runnable poll() {
            return tasks.poll();
        }

        @Override
        public synchronized void shutdown() {
            shutdown = true;
        }

        @Override
        public List<Runnable> shutdownNow() {
            shutdown();
            return List.of();
        }

        @Override
        public synchronized boolean isShutdown() {
            return shutdown;
        }

        @Override
        public boolean isTerminated() {
            return isShutdown();
        }

        @Override
        public boolean awaitTermination(long timeout, TimeUnit unit) {
            return true;
        }
    }
}
