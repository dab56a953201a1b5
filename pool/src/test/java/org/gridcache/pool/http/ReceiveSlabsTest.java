package org.gridcache.pool.http;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.buffer.ByteBuf;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** Received GridFTP bytes copied into reused direct slabs. */
class ReceiveSlabsTest {

    @Test
    void bytesAreCopiedInOrderAcrossSlabsAndOutliveTheReadersArray() {
        ReceiveSlabs slabs = new ReceiveSlabs(4);
        byte[] file = new byte[ReceiveSlabs.SLAB + 5000];
        new Random(3).nextBytes(file);
        List<ByteBuf> pieces = new ArrayList<>();
        byte[] read = new byte[100_000]; // one array for every read, as StreamModeReader's
        try (ReceiveSlabs.Filler filler = slabs.filler()) {
            for (int at = 0; at < file.length; ) {
                int n = Math.min(read.length, file.length - at);
                System.arraycopy(file, at, read, 0, n);
                for (int done = 0; done < n; ) {
                    ByteBuf piece = filler.copy(read, done, n - done);
                    assertTrue(piece.isDirect());
                    done += piece.readableBytes();
                    pieces.add(piece);
                }
                Arrays.fill(read, (byte) 0);
                at += n;
            }
        }
        byte[] got = new byte[file.length];
        int at = 0;
        for (ByteBuf piece : pieces) {
            int n = piece.readableBytes();
            piece.getBytes(piece.readerIndex(), got, at, n);
            at += n;
            piece.release();
        }
        assertArrayEquals(file, got);
        assertEquals(12, pieces.size(), "10 reads in the first slab, the 11th split across its end, 5,000 bytes in the second");
        assertEquals(5000, pieces.get(11).readableBytes());
        assertEquals(2, slabs.waiting(), "both slabs are back once every slice is released");
    }

    @Test
    void slabsStartOnACacheLineAndHoldASlabsWorth() {
        ReceiveSlabs slabs = new ReceiveSlabs(4);
        try (ReceiveSlabs.Filler filler = slabs.filler()) {
            for (int i = 0; i < 3; i++) { // three slabs, each filled to its end
                ByteBuf room = filler.room(ReceiveSlabs.SLAB);
                assertEquals(ReceiveSlabs.SLAB, room.writableBytes());
                ByteBuffer memory = room.internalNioBuffer(0, 1);
                assertEquals(0, io.netty.util.internal.PlatformDependent.directBufferAddress(memory) % 64);
                filler.received(ReceiveSlabs.SLAB);
                room.release();
            }
        }
    }

    @Test
    void aSlabComesBackOnlyWhenItsLastSliceIsReleasedAndIsReused() {
        ReceiveSlabs slabs = new ReceiveSlabs(4);
        ReceiveSlabs.Filler first = slabs.filler();
        ByteBuf a = first.copy(new byte[] {1, 2, 3}, 0, 3);
        ByteBuf b = first.copy(new byte[] {4}, 0, 1);
        assertSame(a.unwrap(), b.unwrap(), "the next bytes go after the last in the same slab");
        assertEquals(4, a.unwrap().getByte(3));
        first.close();
        a.release();
        assertEquals(0, slabs.waiting(), "a slice is still held (the window has not written it yet)");
        assertEquals(4, b.getByte(0));
        b.release();
        assertEquals(1, slabs.waiting());
        try (ReceiveSlabs.Filler second = slabs.filler()) {
            ByteBuf c = second.copy(new byte[] {9}, 0, 1);
            assertEquals(9, c.unwrap().getByte(0), "from its start");
            assertEquals(2, c.unwrap().getByte(1), "the same memory again (new memory is zeroed)");
            assertEquals(0, slabs.waiting());
            c.release();
        }
        assertEquals(1, slabs.waiting());
    }

    @Test
    void atMostKeepSlabsWaitForReuse() {
        ReceiveSlabs slabs = new ReceiveSlabs(1);
        ReceiveSlabs.Filler one = slabs.filler();
        ReceiveSlabs.Filler two = slabs.filler();
        ByteBuf a = one.copy(new byte[] {1}, 0, 1);
        ByteBuf b = two.copy(new byte[] {2}, 0, 1);
        one.close();
        two.close();
        a.release();
        b.release();
        assertEquals(1, slabs.waiting(), "the other slab is left to the garbage collector");
        assertEquals(2L * ReceiveSlabs.SLAB, slabs.allocatedBytes());
        assertEquals(ReceiveSlabs.SLAB, slabs.heldBytes());
        assertEquals(ReceiveSlabs.SLAB, slabs.waitingBytes());
    }

    @Test
    void newSlabsAreAllocatedOnlyForMoreInUseAtOnceThanBefore() {
        ReceiveSlabs slabs = new ReceiveSlabs(8);
        List<ByteBuf> inUse = new ArrayList<>();
        int[] atOnce = {3, 5, 3}; // slabs in use at once per transfer: the second's disk writer lags further behind
        int[] heldAfter = {3, 5, 5};
        for (int transfer = 0; transfer < atOnce.length; transfer++) {
            for (int i = 0; i < atOnce[transfer]; i++) {
                try (ReceiveSlabs.Filler filler = slabs.filler()) {
                    inUse.add(filler.copy(new byte[] {1}, 0, 1));
                }
            }
            assertEquals((long) heldAfter[transfer] * ReceiveSlabs.SLAB, slabs.heldBytes());
            inUse.forEach(ByteBuf::release);
            inUse.clear();
        }
        assertEquals(5L * ReceiveSlabs.SLAB, slabs.allocatedBytes(), "3, then 2 more, then none");
        assertEquals(5L * ReceiveSlabs.SLAB, slabs.waitingBytes());
    }

    @Test
    void theKeptBytesFollowTheWriteBehindBudgetAsItIsNow() {
        long[] budget = {3L * ReceiveSlabs.SLAB};
        ReceiveSlabs slabs = new ReceiveSlabs(() -> budget[0]);
        List<ByteBuf> inUse = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            try (ReceiveSlabs.Filler filler = slabs.filler()) {
                inUse.add(filler.copy(new byte[] {1}, 0, 1));
            }
        }
        inUse.forEach(ByteBuf::release);
        inUse.clear();
        assertEquals(3L * ReceiveSlabs.SLAB, slabs.waitingBytes(), "three slabs fit the budget, the fourth is dropped");

        for (int i = 0; i < 3; i++) {
            try (ReceiveSlabs.Filler filler = slabs.filler()) {
                inUse.add(filler.copy(new byte[] {1}, 0, 1));
            }
        }
        assertEquals(4L * ReceiveSlabs.SLAB, slabs.allocatedBytes(), "the kept slabs were reused");
        budget[0] = ReceiveSlabs.SLAB; // the budget lowered while they were in use
        inUse.forEach(ByteBuf::release);
        assertEquals(ReceiveSlabs.SLAB, slabs.waitingBytes());
        assertEquals(ReceiveSlabs.SLAB, slabs.heldBytes());
    }
}
