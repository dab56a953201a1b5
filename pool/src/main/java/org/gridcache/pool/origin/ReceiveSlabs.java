package org.gridcache.pool.origin;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.UnpooledByteBufAllocator;
import io.netty.buffer.UnpooledDirectByteBuf;
import java.nio.ByteBuffer;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Direct memory for the bytes a GridFTP fetch receives, reused: slabs of {@link #SLAB} bytes that a transfer fills in
 * turn, handing each received piece on as a slice. The bytes wait in the download's write-behind window for the disk
 * and the clients. On the heap they outlived young collections whenever the disk fell behind, and G1 copied them,
 * promoted them and grew the heap. Netty's pooled allocator frees a 4 MiB chunk as soon as its last buffer is
 * released. Either way, new memory was zeroed (and, in a VM, faulted in) for every few MiB received. A slab returns
 * here once its last slice is released; at most {@code keep} slabs wait for reuse, and the rest are left to the
 * garbage collector.
 */
final class ReceiveSlabs {
    static final int SLAB = 1 << 20;
    private final ConcurrentLinkedQueue<ByteBuffer> free = new ConcurrentLinkedQueue<>();
    private final AtomicInteger waiting = new AtomicInteger();
    private final int keep;

    ReceiveSlabs(int keep) {
        this.keep = keep;
    }

    /** Slabs waiting for reuse. */
    int waiting() {
        return waiting.get();
    }

    /** One transfer's filler; used by one thread at a time. */
    Filler filler() {
        return new Filler();
    }

    private ByteBuffer take() {
        ByteBuffer memory = free.poll();
        if (memory == null) {
            return ByteBuffer.allocateDirect(SLAB);
        }
        waiting.decrementAndGet();
        return memory;
    }

    private void giveBack(ByteBuffer memory) {
        if (waiting.incrementAndGet() <= keep) {
            free.offer(memory.clear());
        } else {
            waiting.decrementAndGet();
        }
    }

    /** Copies a transfer's bytes into slabs, in order. */
    final class Filler implements AutoCloseable {
        private Slab slab;

        /**
         * Copies up to {@code length} bytes from {@code data} at {@code offset} into the current slab, as many as it has
         * room for, and returns them as a slice the caller must release.
         */
        ByteBuf copy(byte[] data, int offset, int length) {
            if (slab == null || !slab.isWritable()) {
                close();
                slab = new Slab(take());
            }
            int n = Math.min(length, slab.writableBytes());
            int start = slab.writerIndex();
            slab.writeBytes(data, offset, n);
            return slab.retainedSlice(start, n);
        }

        /** Lets the current slab go back once the slices given out are released. */
        @Override
        public void close() {
            if (slab != null) {
                slab.release();
                slab = null;
            }
        }
    }

    /** A slab as a Netty buffer whose memory comes back to {@link ReceiveSlabs} instead of being freed. */
    private final class Slab extends UnpooledDirectByteBuf {
        private final ByteBuffer memory;

        Slab(ByteBuffer memory) {
            super(UnpooledByteBufAllocator.DEFAULT, memory, memory.capacity()); // a wrapper: Netty never frees this memory
            this.memory = memory;
            clear(); // a wrapped buffer starts out readable; this one starts empty
        }

        @Override
        protected void deallocate() {
            super.deallocate();
            giveBack(memory);
        }
    }
}
