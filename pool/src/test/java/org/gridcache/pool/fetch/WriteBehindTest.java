package org.gridcache.pool.fetch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** The memory window of a fetch and the pool-wide write-behind budget, on their own. */
class WriteBehindTest {

    private static ByteBuf bytes(int from, int n) {
        ByteBuf b = Unpooled.buffer(n);
        for (int i = 0; i < n; i++) {
            b.writeByte(from + i);
        }
        return b;
    }

    @Test
    void slicesComeFromTheChunkHoldingThePositionAndSurviveTheWindow() {
        MemoryWindow window = new MemoryWindow();
        ByteBuf first = bytes(0, 10);
        ByteBuf second = bytes(10, 10);
        assertTrue(window.add(0, first));
        assertTrue(window.add(10, second));
        ByteBuf slice = window.slice(13, 100);
        assertEquals(7, slice.readableBytes(), "to the end of its chunk only");
        assertEquals(13, slice.getByte(slice.readerIndex()));
        assertNull(window.slice(20, 5), "not received yet");

        assertEquals(0, window.start());
        window.trimBelow(15);
        assertEquals(10, window.start(), "a chunk is let go only once wholly below the position");
        assertNull(window.slice(5, 5), "nobody needs it any more: no longer in memory");
        assertEquals(0, first.refCnt(), "the window let go of a written chunk");

        window.close();
        assertEquals(1, second.refCnt(), "the slice a mover holds keeps its bytes alive");
        slice.release();
        assertEquals(0, second.refCnt());
        assertEquals(Long.MAX_VALUE, window.start(), "nothing held once closed");
        ByteBuf late = bytes(0, 4);
        assertFalse(window.add(20, late), "closed windows refuse and release");
        assertEquals(0, late.refCnt());
    }

    /** A window as long as a disk writer far behind leaves it: every position is found in its own chunk. */
    @Test
    void everyPositionOfAManyChunkWindowIsFoundInItsChunkUntilWritten() {
        MemoryWindow window = new MemoryWindow();
        int chunk = 7;
        int count = 500;
        for (int i = 0; i < count; i++) {
            assertTrue(window.add((long) i * chunk, bytes(i * chunk, chunk)));
        }
        for (int position = 0; position < count * chunk; position += 3) {
            ByteBuf slice = window.slice(position, 100);
            assertEquals(chunk - position % chunk, slice.readableBytes(), "to the end of the chunk holding " + position);
            assertEquals((byte) position, slice.getByte(slice.readerIndex()));
            slice.release();
        }
        assertNull(window.slice((long) count * chunk, 1), "past the last byte received");
        window.trimBelow((long) (count / 2) * chunk);
        assertEquals((long) (count / 2) * chunk, window.start());
        assertNull(window.slice((long) (count / 2) * chunk - 1, 1), "written: no longer in memory");
        ByteBuf first = window.slice((long) (count / 2) * chunk, 2);
        assertEquals(2, first.readableBytes(), "at most what was asked");
        first.release();
        window.close();
        assertEquals(Long.MAX_VALUE, window.start(), "nothing held once closed");
    }

    @Test
    void anExhaustedBudgetPausesAndResumesOnceAtHalf() {
        WriteBehindBudget budget = new WriteBehindBudget(() -> 100);
        AtomicInteger resumed = new AtomicInteger();
        assertTrue(budget.take(60, resumed::incrementAndGet));
        assertFalse(budget.take(60, resumed::incrementAndGet), "120 of 100: pause");
        budget.give(60);
        assertEquals(0, resumed.get(), "60 is above half: still paused");
        budget.give(20);
        assertEquals(1, resumed.get(), "40 is under half: resumed");
        budget.give(40);
        assertEquals(1, resumed.get(), "resumed once only");
        assertEquals(0, budget.used());
    }
}
