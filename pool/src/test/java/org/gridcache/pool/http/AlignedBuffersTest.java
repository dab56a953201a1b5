package org.gridcache.pool.http;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.netty.buffer.ByteBuf;
import io.netty.util.internal.PlatformDependent;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The pool's connection buffers start on a cache line, whatever their size. */
class AlignedBuffersTest {

    @Test
    void everyDirectBufferStartsOnACacheLine() {
        List<ByteBuf> held = new ArrayList<>();
        try {
            for (int size : new int[] {17, 100, 4096, 8192 + 5, 65536, 65536, 1 << 20}) {
                ByteBuf buf = AlignedBuffers.ALLOCATOR.directBuffer(size);
                held.add(buf);
                long address = buf.hasMemoryAddress() ? buf.memoryAddress()
                        : PlatformDependent.directBufferAddress(buf.internalNioBuffer(0, 1));
                assertEquals(0, address % AlignedBuffers.ALIGNMENT, size + " bytes at " + Long.toHexString(address));
            }
        } finally {
            held.forEach(ByteBuf::release);
        }
    }
}
