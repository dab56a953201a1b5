package org.gridcache.pool.http;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.UnpooledByteBufAllocator;
import io.netty.buffer.UnpooledDirectByteBuf;
import java.nio.ByteBuffer;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;

/**
 * Direct memory for the bytes a fetch receives, reused: slabs of {@link #SLAB} bytes that a transfer fills in turn,
 * handing each received piece on as a slice (GridFTP copies into them; HTTP reads into them, {@link SlabReads}). The
 * bytes wait in the download's write-behind window for the disk and the clients. On the heap they outlived young collections whenever the disk fell behind, and G1 copied them,
 * promoted them and grew the heap. Netty's pooled allocator frees a 4 MiB chunk as soon as its last buffer is
 * released. Either way, new memory was zeroed (and, in a VM, faulted in) for every few MiB received. A slab returns
 * here once its last slice is released, and waits for reuse while fewer than the kept bytes (the pool's
 * {@code pool.write-behind}, read live) wait; the rest are left to the garbage collector. New slabs are allocated only
 * when more are in use at once than ever before: how far the disk writers lag behind the origins, plus what
 * cut-through clients still hold. Keeping less than the write-behind budget made a miss that lagged further allocate
 * afresh each time: on the build VM a 1 GiB cold miss, whose idle-class writers fall a quarter of the budget behind,
 * took 512 MiB of new slabs, and in its slow rounds its event loops spent nearly twice the CPU, in the kernel
 * (ARCHITECTURE.md, "Performance design").
 */
public final class ReceiveSlabs {
    static final int SLAB = 1 << 20;
    /** A read that would find less room than this in the current slab starts a new one. */
    private static final int MIN_READ = 16 << 10;
    private static final int ALIGNMENT = 64;
    private final ConcurrentLinkedQueue<ByteBuffer> free = new ConcurrentLinkedQueue<>();
    private final AtomicInteger waiting = new AtomicInteger();
    /** Slabs allocated and not yet left to the garbage collector: in use, or waiting. */
    private final AtomicInteger held = new AtomicInteger();
    private final AtomicLong allocated = new AtomicLong();
    /** Read at each slab's return, so a live setting applies at once. */
    private final LongSupplier keepBytes;

    /** A store that keeps up to {@code slabs} slabs for reuse. */
    public ReceiveSlabs(int slabs) {
        this.keepBytes = () -> (long) slabs * SLAB;
    }

    /**
     * One pool's receive memory, shared by its HTTP and GridFTP fetchers; keeps up to {@code keepBytes} for reuse (the
     * pool's {@code pool.write-behind}, read live).
     */
    public ReceiveSlabs(LongSupplier keepBytes) {
        this.keepBytes = keepBytes;
    }

    /** Slabs waiting for reuse. */
    int waiting() {
        return waiting.get();
    }

    /** Bytes of the slabs allocated since the process started. */
    public long allocatedBytes() {
        return allocated.get() * SLAB;
    }

    /** Bytes of the slabs held now: in use by fetches in flight, or waiting for reuse. */
    public long heldBytes() {
        return (long) held.get() * SLAB;
    }

    /** Bytes of the slabs waiting for reuse. */
    public long waitingBytes() {
        return (long) waiting.get() * SLAB;
    }

    /** One transfer's filler; used by one thread at a time. */
    public Filler filler() {
        return new Filler();
    }

    private ByteBuffer take() {
        ByteBuffer memory = free.poll();
        if (memory == null) {
            // on a cache line, as AlignedBuffers' (the kernel's copy into a recv()'s buffer ran at a quarter of its
            // speed 16 bytes off one)
            allocated.incrementAndGet();
            held.incrementAndGet();
            return ByteBuffer.allocateDirect(SLAB + ALIGNMENT).alignedSlice(ALIGNMENT).limit(SLAB).slice();
        }
        waiting.decrementAndGet();
        return memory;
    }

    private void giveBack(ByteBuffer memory) {
        if (waiting.incrementAndGet() <= keepBytes.getAsLong() / SLAB) {
            free.offer(memory.clear());
        } else {
            waiting.decrementAndGet();
            held.decrementAndGet();
        }
    }

    /** Copies a transfer's bytes into slabs, in order. */
    public final class Filler implements AutoCloseable {
        private Slab slab;

        /**
         * Copies up to {@code length} bytes from {@code data} at {@code offset} into the current slab, as many as it has
         * room for, and returns them as a slice the caller must release.
         */
        public ByteBuf copy(byte[] data, int offset, int length) {
            if (slab == null || !slab.isWritable()) {
                close();
                slab = new Slab(take());
            }
            int n = Math.min(length, slab.writableBytes());
            int start = slab.writerIndex();
            slab.writeBytes(data, offset, n);
            return slab.retainedSlice(start, n);
        }

        /**
         * Room for a socket read of up to {@code wanted} bytes: an empty slice of the current slab, to be read into, that
         * the caller must release; {@link #received} then tells how many bytes the read put there.
         */
        ByteBuf room(int wanted) {
            if (slab == null || slab.writableBytes() < Math.min(wanted, MIN_READ)) {
                close();
                slab = new Slab(take());
            }
            return slab.retainedSlice(slab.writerIndex(), Math.min(wanted, slab.writableBytes())).clear();
        }

        /** The last {@link #room} holds {@code bytes} bytes now: the next read goes on after them. */
        void received(int bytes) {
            if (slab != null && bytes > 0) {
                slab.writerIndex(slab.writerIndex() + bytes);
            }
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
