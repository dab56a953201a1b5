package org.gridcache.pool.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.jetbrains.lincheck.Lincheck;
import org.junit.jupiter.api.Test;

/**
 * Model checking of one replica's transitions with Lincheck: each test runs its threads under Lincheck's model
 * checker, which explores their interleavings (switch points at every shared read, write and CAS) and fails on the
 * first one that breaks an assertion. The classes are the store's own ({@link ReplicaIndex}, {@link StoreEntry},
 * {@link SpaceAllocator}); the file system is played by a field ({@code onDisk}: which copy the data path holds), so
 * that an "open" and a "rename" are single steps too.
 */
class ReplicaTransitionsModelTest {
    private static final int INVOCATIONS = 500;
    private static final StoreKey KEY = StoreKey.ofOrigin("http://o/f");

    /** A reader's pin and eviction exclude each other: no reader is inside a file that eviction removed. */
    @Test
    void evictionNeverRemovesAFileBeingRead() {
        Lincheck.runConcurrentTest(INVOCATIONS, () -> {
            ReplicaIndex index = new ReplicaIndex();
            StoreEntry e = new StoreEntry(10, 1, null);
            index.publish(KEY, e);
            AtomicInteger inside = new AtomicInteger();
            AtomicInteger evictedWithReaders = new AtomicInteger();
            Thread reader = new Thread(() -> {
                StoreEntry found = index.get(KEY);
                if (found == null) {
                    return;
                }
                index.pin(KEY);
                if (found.state() == ReplicaState.COMPLETE) {
                    inside.incrementAndGet(); // reading
                    inside.decrementAndGet();
                }
                index.unpin(KEY);
            });
            Thread evictor = new Thread(() -> {
                if (index.evict(KEY, e) && inside.get() != 0) {
                    evictedWithReaders.incrementAndGet();
                }
            });
            runAll(reader, evictor);
            assertEquals(0, evictedWithReaders.get());
            assertTrue(e.state() == ReplicaState.COMPLETE || e.state() == ReplicaState.REMOVED);
            assertEquals(e.state() == ReplicaState.COMPLETE, index.peek(KEY) == e, "indexed exactly while complete");
        });
    }

    /**
     * An upload's commit replaces a copy that a reader is opening: the reader serves either the old copy with the old
     * entry or gives up (a miss, decided again); never the new file's bytes under the old entry, nor a removed one.
     */
    @Test
    void aReaderNeverServesAReplacedCopyUnderTheOldEntry() {
        Lincheck.runConcurrentTest(INVOCATIONS, () -> {
            ReplicaIndex index = new ReplicaIndex();
            SpaceAllocator space = new SpaceAllocator(100);
            space.add(10);
            StoreEntry old = new StoreEntry(10, 1, null);
            index.publish(KEY, old);
            AtomicReference<StoreEntry> onDisk = new AtomicReference<>(old);
            AtomicReference<String> wrong = new AtomicReference<>();
            Thread reader = new Thread(() -> {
                StoreEntry found = index.get(KEY);
                if (found == null || found.state() != ReplicaState.COMPLETE) {
                    return;
                }
                index.pin(KEY);
                if (found.state() == ReplicaState.COMPLETE) {
                    StoreEntry opened = onDisk.get(); // the open
                    if (found.state() == ReplicaState.COMPLETE && opened != found) { // checked after the open, as pinAndOpen does
                        wrong.set("served " + opened + " as " + found);
                    }
                }
                index.unpin(KEY);
            });
            Thread upload = new Thread(() -> { // Store.commitFrom's steps
                if (!space.tryReserve(20)) {
                    return;
                }
                StoreEntry copy = new StoreEntry(20, 2, null);
                StoreEntry current = index.peek(KEY);
                if (current != null && index.remove(KEY, current)) {
                    space.remove(current.size());
                }
                onDisk.set(copy); // the rename
                space.commit(20, 20);
                StoreEntry replaced = index.publish(KEY, copy);
                if (replaced != null) {
                    space.remove(replaced.size());
                }
            });
            Thread evictor = new Thread(() -> {
                StoreEntry e = index.peek(KEY);
                if (e != null && index.evict(KEY, e)) {
                    space.remove(e.size());
                }
            });
            runAll(reader, upload, evictor);
            assertEquals(null, wrong.get());
            assertEquals(ReplicaState.REMOVED, old.state(), "replaced or evicted");
            StoreEntry now = index.peek(KEY);
            assertEquals(now == null ? 0 : now.size(), space.used(), "the accounting counts what is indexed, once");
        });
    }

    /** A fill's commit and its cancel race: exactly one wins, and its bytes are counted once. */
    @Test
    void aCommitAndACancelOfOneFillNeverBothWin() {
        Lincheck.runConcurrentTest(INVOCATIONS, () -> {
            ReplicaIndex index = new ReplicaIndex();
            SpaceAllocator space = new SpaceAllocator(100);
            assertTrue(space.tryReserve(30));
            StoreEntry fill = new StoreEntry(30, 1, null);
            AtomicInteger wins = new AtomicInteger();
            AtomicReference<ReplicaState> seen = new AtomicReference<>();
            Thread commit = new Thread(() -> {
                try {
                    index.publish(KEY, fill);
                    space.commit(30, 30);
                    wins.incrementAndGet();
                } catch (IllegalStateException cancelled) {
                    // cancelled first: nothing published
                }
            });
            Thread cancel = new Thread(() -> {
                if (fill.become(ReplicaState.FILLING, ReplicaState.REMOVED)) {
                    space.release(30);
                    wins.incrementAndGet();
                }
            });
            Thread read = new Thread(() -> {
                StoreEntry e = index.get(KEY);
                if (e != null) {
                    seen.set(e.state());
                }
            });
            runAll(commit, cancel, read);
            assertNotEquals(ReplicaState.FILLING, seen.get(), "nothing unfinished is indexed");
            assertEquals(1, wins.get());
            boolean committed = fill.state() == ReplicaState.COMPLETE;
            assertEquals(committed ? 30 : 0, space.used());
            assertEquals(0, space.reserved());
            assertEquals(committed, index.peek(KEY) == fill);
        });
    }

    /** Two fills racing for the last room of a store: never overbooked, and what is refused takes nothing. */
    @Test
    void racingReservationsNeverOverbookTheStore() {
        Lincheck.runConcurrentTest(INVOCATIONS, () -> {
            SpaceAllocator space = new SpaceAllocator(50);
            AtomicLong granted = new AtomicLong();
            Runnable fill = () -> {
                if (space.tryReserve(30)) {
                    granted.addAndGet(30);
                    space.commit(30, 25);
                }
            };
            Thread first = new Thread(fill);
            Thread second = new Thread(fill);
            runAll(first, second);
            assertEquals(30, granted.get(), "one of the two fits");
            assertEquals(25, space.used());
            assertFalse(space.reserved() != 0);
        });
    }

    /**
     * A write's growth, commit and cancel at once (a fetch growing its reservation while it commits, and the pool
     * abandoning it): one of commit and cancel ends it, and the store's room adds up: no reservation left behind,
     * nothing stored unless committed, a growth after the end given back.
     */
    @Test
    void aWriteEndsOnceAndItsRoomAddsUp() {
        Lincheck.runConcurrentTest(INVOCATIONS, () -> {
            SpaceAllocator space = new SpaceAllocator(100);
            WriteHandle.Room room = new WriteHandle.Room() {
                @Override
                public void reserve(long bytes) throws StoreException {
                    if (!space.tryReserve(bytes)) {
                        throw StoreException.noSpace("full");
                    }
                }

                @Override
                public void release(long bytes) {
                    space.release(bytes);
                }
            };
            assertTrue(space.tryReserve(30));
            WriteHandle write = new WriteHandle(room, 30) {
                @Override
                void discard() {
                }
            };
            AtomicLong committed = new AtomicLong();
            AtomicInteger ends = new AtomicInteger();
            Thread grow = new Thread(() -> {
                try {
                    write.grow(50);
                } catch (StoreException ended) {
                    // the write ended first: its new room went back
                }
            });
            Thread commit = new Thread(() -> {
                try {
                    write.commitWith(reserved -> {
                        space.commit(reserved, reserved);
                        committed.set(reserved);
                    });
                    ends.incrementAndGet();
                } catch (java.io.IOException cancelled) {
                    // cancelled first: nothing stored
                }
            });
            Thread cancel = new Thread(() -> {
                if (write.cancel()) {
                    ends.incrementAndGet();
                }
            });
            runAll(grow, commit, cancel);
            assertEquals(1, ends.get(), "ended exactly once");
            assertFalse(write.isOpen());
            assertEquals(0, space.reserved(), "no reservation left behind");
            assertEquals(committed.get(), space.used(), "stored: what the commit took, or nothing");
        });
    }

    private static void runAll(Thread... threads) {
        for (Thread t : threads) {
            t.start();
        }
        try {
            for (Thread t : threads) {
                t.join();
            }
        } catch (InterruptedException e) {
            throw new IllegalStateException(e);
        }
    }
}
