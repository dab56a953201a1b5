package org.gridcache.pool.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** The store's lock-free room: reservations fit whole or not at all, and their footprint on disk. */
class SpaceAllocatorTest {
    @Test
    void aReservationFitsWholeOrTakesNothing() {
        SpaceAllocator space = new SpaceAllocator(1000);
        assertTrue(space.tryReserve(600));
        assertFalse(space.tryReserve(401));
        assertEquals(600, space.used());
        assertTrue(space.tryReserve(400));
        assertEquals(1000, space.used());
        assertEquals(1000, space.reserved());
    }

    @Test
    void aCommitTurnsItsReservationIntoStoredBytes() {
        SpaceAllocator space = new SpaceAllocator(1000);
        space.tryReserve(500);
        space.commit(500, 300); // the file was shorter than reserved
        assertEquals(300, space.used());
        assertEquals(0, space.reserved());
        space.tryReserve(100);
        space.release(100);
        space.remove(300); // evicted
        assertEquals(0, space.used());
    }

    @Test
    void theFootprintIsWholeBlocksAndASidecar() {
        assertEquals(4096, SpaceAllocator.footprint(0));
        assertEquals(8192, SpaceAllocator.footprint(1));
        assertEquals(8192, SpaceAllocator.footprint(4096));
        assertEquals(16L * 1024 * 1024 + 4096, SpaceAllocator.footprint(16L * 1024 * 1024));
    }

    /** Threads racing for the last room never overbook it: exactly as many fit as there is room for. */
    @Test
    void racingReservationsNeverOverbook() throws Exception {
        SpaceAllocator space = new SpaceAllocator(100);
        AtomicInteger granted = new AtomicInteger();
        CountDownLatch go = new CountDownLatch(1);
        List<Thread> threads = new ArrayList<>();
        for (int t = 0; t < 4; t++) {
            Thread thread = new Thread(() -> {
                try {
                    go.await();
                } catch (InterruptedException e) {
                    return;
                }
                for (int i = 0; i < 50; i++) {
                    if (space.tryReserve(1)) {
                        granted.incrementAndGet();
                    }
                }
            });
            thread.start();
            threads.add(thread);
        }
        go.countDown();
        for (Thread thread : threads) {
            thread.join();
        }
        assertEquals(100, granted.get());
        assertEquals(100, space.used());
    }
}
