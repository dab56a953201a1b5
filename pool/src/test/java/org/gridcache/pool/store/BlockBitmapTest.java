package org.gridcache.pool.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class BlockBitmapTest {
    private static final int BLOCK = 128 << 10;

    @Test
    void itsTextFormRoundTrips() {
        BlockBitmap b = BlockBitmap.empty(1L << 30, BLOCK);
        assertEquals(8192, b.blocks());
        b.set(0, 1);
        b.set(100, 103);
        b.set(8191, 8192);
        BlockBitmap back = BlockBitmap.decode(1L << 30, BLOCK, b.encode());
        assertTrue(back.has(0) && back.has(100) && back.has(102) && back.has(8191));
        assertFalse(back.has(1) || back.has(103) || back.has(8190));
        assertEquals(5L * BLOCK, back.storedBytes());
        assertTrue(b.encode().length() <= 1400, "1 GiB in 128 KiB blocks: at most 1 KiB of bits, base64: " + b.encode().length());
        assertEquals("", BlockBitmap.empty(10, BLOCK).encode());
    }

    @Test
    void theLastBlockMayBeShort() {
        BlockBitmap b = BlockBitmap.empty(3L * BLOCK + 10, BLOCK);
        assertEquals(4, b.blocks());
        assertEquals(10, b.lengthOf(3));
        b.set(2, 4);
        assertEquals(BLOCK + 10L, b.storedBytes());
        assertTrue(b.covers(2L * BLOCK, 3L * BLOCK + 9));
        assertFalse(b.covers(2L * BLOCK - 1, 3L * BLOCK));
        assertFalse(b.complete());
        b.set(0, 2);
        assertTrue(b.complete());
    }

    @Test
    void aBitmapNamingBlocksPastTheEndOrNotBase64IsRefused() {
        BlockBitmap big = BlockBitmap.empty(100L * BLOCK, BLOCK);
        big.set(99, 100);
        assertThrows(IllegalArgumentException.class, () -> BlockBitmap.decode(10L * BLOCK, BLOCK, big.encode()));
        assertThrows(IllegalArgumentException.class, () -> BlockBitmap.decode(10L * BLOCK, BLOCK, "not base64!"));
        assertThrows(IllegalArgumentException.class, () -> BlockBitmap.empty(0, BLOCK));
    }

    @Test
    void withLeavesTheOriginalAlone() {
        BlockBitmap b = BlockBitmap.empty(10L * BLOCK, BLOCK);
        BlockBitmap next = b.with(2, 4);
        assertFalse(b.has(2));
        assertTrue(next.has(2) && next.has(3));
    }
}
