package org.gridcache.pool.fetch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.buffer.Unpooled;
import io.netty.handler.codec.http.HttpResponseStatus;
import java.net.URI;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.gridcache.common.settings.ClusterSettings;
import org.gridcache.common.ticket.Ticket;
import org.gridcache.pool.http.FetchException;
import org.gridcache.pool.origin.RangedReads;
import org.gridcache.pool.store.PartialFile;
import org.gridcache.pool.store.Store;
import org.gridcache.pool.store.StoreKey;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;
import org.junit.jupiter.api.io.TempDir;

/** Block reads against an origin that answers when the test says: coalescing, runs, failures, prefetch. */
class BlockFetchesTest {
    private static final int BLOCK = 128 << 10;
    private static final long SIZE = 64L * BLOCK;
    private static final String URL = "http://o/big";

    @TempDir
    Path dir;
    Store store;
    BlockFetches fetches;
    final AtomicInteger prefetch = new AtomicInteger();
    final List<Read> reads = new CopyOnWriteArrayList<>();

    /** One ranged read asked of the origin, answered by the test. */
    record Read(long offset, long length, RangedReads.Receiver receiver) {
        void deliver() throws Exception {
            byte[] bytes = new byte[(int) length];
            for (int i = 0; i < bytes.length; i++) {
                bytes[i] = (byte) ((offset + i) % 251);
            }
            receiver.opened();
            receiver.receive(Unpooled.wrappedBuffer(bytes));
            receiver.done(null);
        }
    }

    final RangedReads origin = (URI uri, Ticket ticket, long offset, long length, RangedReads.Receiver receiver) -> {
        reads.add(new Read(offset, length, receiver));
        return () -> { };
    };

    @BeforeEach
    void open() throws Exception {
        store = Store.open(dir, 1000L * BLOCK, ClusterSettings::defaults);
        fetches = new BlockFetches(store, () -> BLOCK, prefetch::get, Runnable::run); // runs start at once, on the test's thread
    }

    @AfterEach
    void close() {
        fetches.close();
    }

    private static Ticket ticket(long size) {
        return new Ticket("/big", "p1", Ticket.READ, Long.MAX_VALUE, "anonymous", "door", URL, size, 1000);
    }

    private static List<long[]> range(long start, long end) {
        return List.<long[]>of(new long[] {start, end});
    }

    private static void assertFailsWith(HttpResponseStatus status, Executable e) {
        ExecutionException x = org.junit.jupiter.api.Assertions.assertThrows(ExecutionException.class, e);
        assertInstanceOf(FetchException.class, x.getCause());
        assertEquals(status, ((FetchException) x.getCause()).status());
    }

    @Test
    void twoRequestsForOneBlockMakeOneOriginRead() throws Exception {
        PartialFile p = fetches.open(ticket(SIZE));
        BlockFetches.Plan first = fetches.ensure(p, ticket(SIZE), origin, range(10, 20));
        BlockFetches.Plan second = fetches.ensure(p, ticket(SIZE), origin, range(1000, 5000));
        assertEquals(1, reads.size(), "the second request joined the first one's read");
        assertEquals(0, reads.get(0).offset());
        assertEquals(BLOCK, reads.get(0).length());
        assertFalse(first.ready().isDone());
        reads.get(0).deliver();
        first.ready().get(10, TimeUnit.SECONDS);
        second.ready().get(10, TimeUnit.SECONDS);
        assertTrue(first.fetched() && second.fetched());
        synchronized (store) {
            assertTrue(p.bitmap().has(0));
        }
        BlockFetches.Plan third = fetches.ensure(p, ticket(SIZE), origin, range(0, BLOCK - 1));
        assertTrue(third.ready().isDone() && !third.fetched(), "a proven block is a hit");
        assertEquals(1, reads.size());
        try (FileChannel in = store.blocks().open(p.key())) {
            ByteBuffer b = ByteBuffer.allocate(10);
            in.read(b, 500);
            assertEquals((byte) (500 % 251), b.get(0));
        }
        assertEquals(BLOCK, store.used());
    }

    @Test
    void missingNeighboursAreOneReadAndStoredBlocksAreSkipped() throws Exception {
        PartialFile p = fetches.open(ticket(SIZE));
        BlockFetches.Plan first = fetches.ensure(p, ticket(SIZE), origin, range(2L * BLOCK, 2L * BLOCK));
        reads.get(0).deliver();
        first.ready().get(10, TimeUnit.SECONDS);
        reads.clear();
        BlockFetches.Plan plan = fetches.ensure(p, ticket(SIZE), origin, range(BLOCK + 5, 4L * BLOCK + 5));
        assertEquals(2, reads.size(), "block 1, then blocks 3-4; block 2 is stored");
        assertEquals(BLOCK, reads.get(0).offset());
        assertEquals(BLOCK, reads.get(0).length());
        assertEquals(3L * BLOCK, reads.get(1).offset());
        assertEquals(2L * BLOCK, reads.get(1).length());
        for (Read r : reads) {
            r.deliver();
        }
        plan.ready().get(10, TimeUnit.SECONDS);
        assertEquals(4L * BLOCK, store.used());
    }

    @Test
    void aFailedReadStoresNothingAndFailsEveryWaiter() throws Exception {
        PartialFile p = fetches.open(ticket(SIZE));
        BlockFetches.Plan a = fetches.ensure(p, ticket(SIZE), origin, range(0, 10));
        BlockFetches.Plan b = fetches.ensure(p, ticket(SIZE), origin, range(20, 30));
        Read read = reads.get(0);
        read.receiver().receive(Unpooled.wrappedBuffer(new byte[100]));
        read.receiver().done(FetchException.badGateway("origin went away"));
        assertFailsWith(HttpResponseStatus.BAD_GATEWAY, () -> a.ready().get(10, TimeUnit.SECONDS));
        assertFailsWith(HttpResponseStatus.BAD_GATEWAY, () -> b.ready().get(10, TimeUnit.SECONDS));
        synchronized (store) {
            assertFalse(p.bitmap().has(0));
            assertTrue(p.inFlight().isEmpty());
        }
        assertEquals(0, store.used(), "the reservation is returned");
        // the next request reads the block again
        BlockFetches.Plan retry = fetches.ensure(p, ticket(SIZE), origin, range(0, 10));
        assertEquals(2, reads.size());
        reads.get(1).deliver();
        retry.ready().get(10, TimeUnit.SECONDS);
    }

    @Test
    void aShortAnswerIsAFailure() throws Exception {
        PartialFile p = fetches.open(ticket(SIZE));
        BlockFetches.Plan a = fetches.ensure(p, ticket(SIZE), origin, range(0, 10));
        reads.get(0).receiver().receive(Unpooled.wrappedBuffer(new byte[100]));
        reads.get(0).receiver().done(null);
        assertFailsWith(HttpResponseStatus.BAD_GATEWAY, () -> a.ready().get(10, TimeUnit.SECONDS));
        synchronized (store) {
            assertFalse(p.bitmap().has(0));
        }
    }

    @Test
    void noRoomIs507AndNothingIsRead() throws Exception {
        Store small = Store.open(dir.resolve("small"), BLOCK / 2, ClusterSettings::defaults);
        BlockFetches f = new BlockFetches(small, () -> BLOCK, () -> 0, Runnable::run);
        PartialFile p = f.open(ticket(SIZE));
        BlockFetches.Plan a = f.ensure(p, ticket(SIZE), origin, range(0, 10));
        assertFailsWith(HttpResponseStatus.INSUFFICIENT_STORAGE, () -> a.ready().get(10, TimeUnit.SECONDS));
        assertTrue(reads.isEmpty());
        f.close();
    }

    @Test
    void prefetchIsOffByDefaultAndReadsTheNextBlocksWhenSet() throws Exception {
        assertEquals(0, ClusterSettings.defaults().get(ClusterSettings.Keys.BLOCK_PREFETCH));
        PartialFile p = fetches.open(ticket(SIZE));
        fetches.ensure(p, ticket(SIZE), origin, range(0, 10));
        assertEquals(1, reads.size());
        prefetch.set(3);
        BlockFetches.Plan plan = fetches.ensure(p, ticket(SIZE), origin, range(10L * BLOCK, 10L * BLOCK));
        assertEquals(3, reads.size(), "block 10, then blocks 11-13 read ahead");
        assertEquals(11L * BLOCK, reads.get(2).offset());
        assertEquals(3L * BLOCK, reads.get(2).length());
        reads.get(1).deliver();
        plan.ready().get(10, TimeUnit.SECONDS); // nobody waits for the read-ahead
    }

    /** Every Range is a block read, kept for the next: of a small file too, and of much of a file. */
    @Test
    void smallFilesAndLargeSharesOfAFileAreBlockReads() throws Exception {
        PartialFile small = fetches.open(ticket(8L * BLOCK));
        assertNotNull(small);
        BlockFetches.Plan plan = fetches.ensure(small, ticket(8L * BLOCK), origin, range(0, 7L * BLOCK - 2)); // 7 of 8
        assertEquals(1, reads.size());
        reads.get(0).deliver();
        plan.ready().get(10, TimeUnit.SECONDS);
        fetches.release(small);
        PartialFile again = fetches.open(ticket(8L * BLOCK));
        assertSame(small, again);
        assertFalse(fetches.ensure(again, ticket(8L * BLOCK), origin, range(10, 20)).fetched(), "the same bytes: a hit");
        assertEquals(1, reads.size());
    }

    /** A partial file dropped under a read (a complete copy committed meanwhile): its waiters are served whole. */
    @Test
    void blocksDroppedWhileBeingReadAreServedWhole() throws Exception {
        PartialFile p = fetches.open(ticket(SIZE));
        BlockFetches.Plan plan = fetches.ensure(p, ticket(SIZE), origin, range(0, 10));
        store.blocks().drop(p);
        RangedReads.Receiver receiver = reads.get(0).receiver();
        receiver.opened();
        java.io.IOException closed = org.junit.jupiter.api.Assertions.assertThrows(java.io.IOException.class,
                () -> receiver.receive(Unpooled.wrappedBuffer(new byte[BLOCK])));
        receiver.done(FetchException.storeWrite("store a block", closed));
        ExecutionException x = org.junit.jupiter.api.Assertions.assertThrows(ExecutionException.class,
                () -> plan.ready().get(10, TimeUnit.SECONDS));
        assertTrue(((FetchException) x.getCause()).isWholeInstead(), x.getCause().getMessage());
        fetches.release(p);
        assertEquals(0, store.used(), "the run's reservation given back");
    }

    @Test
    void blocksOfAnotherVersionAreDropped() throws Exception {
        PartialFile p = fetches.open(ticket(SIZE));
        BlockFetches.Plan plan = fetches.ensure(p, ticket(SIZE), origin, range(0, 10));
        reads.get(0).deliver();
        plan.ready().get(10, TimeUnit.SECONDS);
        assertEquals(BLOCK, store.used());
        fetches.release(p);
        Ticket changed = new Ticket("/big", "p1", Ticket.READ, Long.MAX_VALUE, "anonymous", "door", URL, SIZE, 2000);
        PartialFile fresh = fetches.open(changed);
        assertNotNull(fresh);
        synchronized (store) {
            assertFalse(fresh.bitmap().has(0));
        }
        assertEquals(0, store.used());
        assertSame(fresh, store.blocks().partial(StoreKey.ofOrigin(URL)));
    }

    /** A whole read: origin reads of at most a step, read ahead; the last block proven makes the file complete. */
    @Test
    void aWholeReadGoesInShortRunsAndItsLastBlockMakesTheFileComplete() throws Exception {
        long size = 8L * BLOCK;
        PartialFile p = fetches.open(ticket(size));
        BlockFetches.Plan first = fetches.ensure(p, ticket(size), origin, range(0, 2L * BLOCK - 1), 4, 2);
        assertEquals(3, reads.size(), "blocks 0-1, then 2-3 and 4-5 ahead: no run longer than two blocks");
        for (Read r : reads) {
            assertEquals(2L * BLOCK, r.length());
            r.deliver();
        }
        first.ready().get(10, TimeUnit.SECONDS);
        assertFalse(BlockFetches.isComplete(p));
        reads.clear();
        BlockFetches.Plan rest = fetches.ensure(p, ticket(size), origin, range(2L * BLOCK, size - 1), 4, 2);
        assertEquals(1, reads.size(), "only blocks 6-7 were neither stored nor coming");
        assertEquals(6L * BLOCK, reads.get(0).offset());
        reads.get(0).deliver();
        rest.ready().get(10, TimeUnit.SECONDS);
        StoreKey key = StoreKey.ofOrigin(URL);
        org.awaitility.Awaitility.await().atMost(java.time.Duration.ofSeconds(10)).until(() -> store.lookup(key) != null);
        assertNull(store.blocks().partial(key));
        assertEquals(size, store.used());
        try (FileChannel in = store.pinAndOpen(key).file()) {
            ByteBuffer b = ByteBuffer.allocate(10);
            in.read(b, 7L * BLOCK + 3);
            assertEquals((byte) ((7L * BLOCK + 3) % 251), b.get(0));
        } finally {
            store.unpin(key);
        }
    }

    /** A run planned before its partial file was dropped asks the origin for nothing; its waiters are served whole. */
    @Test
    void aRunPlannedBeforeItsFileWasDroppedReadsNothing() throws Exception {
        List<Runnable> queued = new CopyOnWriteArrayList<>();
        BlockFetches deferred = new BlockFetches(store, () -> BLOCK, () -> 0, queued::add);
        try {
            PartialFile p = deferred.open(ticket(SIZE));
            BlockFetches.Plan plan = deferred.ensure(p, ticket(SIZE), origin, range(0, 10));
            assertEquals(1, queued.size(), "the run waits for a starter");
            store.blocks().drop(p);
            queued.forEach(Runnable::run);
            assertTrue(reads.isEmpty(), "nothing asked of the origin");
            ExecutionException x = org.junit.jupiter.api.Assertions.assertThrows(ExecutionException.class,
                    () -> plan.ready().get(10, TimeUnit.SECONDS));
            assertTrue(((FetchException) x.getCause()).isWholeInstead(), x.getCause().getMessage());
            deferred.release(p);
            assertEquals(0, store.used());
        } finally {
            deferred.close();
        }
    }

    /**
     * A pool's block reads start on its starter threads, never on the caller's (an event loop): a run's reservation
     * asks the file system and may wait for the evictor; a partial file is created there too.
     */
    @Test
    void runsAndPartialFilesAreStartedOffTheCallersThread() throws Exception {
        List<String> readOn = new CopyOnWriteArrayList<>();
        RangedReads recording = (URI uri, Ticket ticket, long offset, long length, RangedReads.Receiver receiver) -> {
            readOn.add(Thread.currentThread().getName());
            return origin.read(uri, ticket, offset, length, receiver);
        };
        BlockFetches pooled = new BlockFetches(store, () -> BLOCK, () -> 0);
        try {
            PartialFile p = pooled.openAsync(ticket(SIZE)).get(10, TimeUnit.SECONDS);
            BlockFetches.Plan plan = pooled.ensure(p, ticket(SIZE), recording, range(0, 10));
            org.awaitility.Awaitility.await().atMost(java.time.Duration.ofSeconds(10)).until(() -> reads.size() == 1);
            assertTrue(readOn.get(0).startsWith("pool-block-start"), "started on " + readOn.get(0));
            reads.get(0).deliver();
            plan.ready().get(10, TimeUnit.SECONDS);
            pooled.release(p);
        } finally {
            pooled.close();
        }
    }

    /**
     * A read that reports its failure and then throws (a bug after the report) is settled twice: the second settling
     * must not touch the fetch a later request started for the same block meanwhile.
     */
    @Test
    void aRunSettledTwiceLeavesALaterRunOfItsBlocksAlone() throws Exception {
        PartialFile p = fetches.open(ticket(SIZE));
        java.util.concurrent.atomic.AtomicReference<BlockFetches.Plan> later = new java.util.concurrent.atomic.AtomicReference<>();
        RangedReads reportsThenThrows = (URI uri, Ticket ticket, long offset, long length, RangedReads.Receiver receiver) -> {
            java.util.concurrent.CompletableFuture<Void> mine;
            synchronized (p) {
                mine = p.inFlight().get(0);
            }
            receiver.done(FetchException.badGateway("origin said no"));
            try {
                mine.get(10, TimeUnit.SECONDS);
            } catch (ExecutionException expected) {
                // settled by its report: the block is free for the next request
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
            later.set(fetches.ensure(p, ticket(SIZE), origin, range(10, 20))); // a request meanwhile: a new read
            throw new IllegalStateException("a bug after the failure was reported");
        };
        BlockFetches.Plan first = fetches.ensure(p, ticket(SIZE), reportsThenThrows, range(10, 20));
        assertFailsWith(HttpResponseStatus.BAD_GATEWAY, () -> first.ready().get(10, TimeUnit.SECONDS));
        assertEquals(1, reads.size(), "the later request's read");
        assertFalse(later.get().ready().isDone(), "the later read is not ended by the first one's second settling");
        reads.get(0).deliver();
        later.get().ready().get(10, TimeUnit.SECONDS);
        synchronized (p) {
            assertTrue(p.bitmap().has(0));
        }
    }
}
