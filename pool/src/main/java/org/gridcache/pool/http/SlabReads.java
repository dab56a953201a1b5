package org.gridcache.pool.http;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.channel.Channel;
import io.netty.channel.ChannelConfig;
import io.netty.channel.RecvByteBufAllocator;
import io.netty.util.UncheckedBooleanSupplier;

/**
 * The socket reads of one origin connection, into {@link ReceiveSlabs}' reused memory, each as large as {@code sizes}
 * (Netty's adaptive sizing) guesses. The pieces a fill receives wait in its write-behind window, often hundreds of
 * MiB; from Netty's pooled allocator they took 4 MiB chunks that were freed when they emptied and allocated, zeroed
 * and faulted in again for the next MiBs: the zeroing alone took 0.27 CPU s per GiB fetched on a 2-core VM
 * (ARCHITECTURE.md, "Performance design").
 */
public final class SlabReads implements RecvByteBufAllocator {
    private final RecvByteBufAllocator sizes;
    /** Filled by the connection's event loop alone: reads and the close run there. */
    private final ReceiveSlabs.Filler filler;

    private SlabReads(RecvByteBufAllocator sizes, ReceiveSlabs slabs) {
        this.sizes = sizes;
        this.filler = slabs.filler();
    }

    /** Makes a new connection read into slabs; the slab it was filling goes back once it closes and is released. */
    public static void install(Channel channel, RecvByteBufAllocator sizes, ReceiveSlabs slabs) {
        SlabReads reads = new SlabReads(sizes, slabs);
        channel.config().setRecvByteBufAllocator(reads);
        channel.closeFuture().addListener(f -> reads.filler.close());
    }

    @Override
    @SuppressWarnings("deprecation") // Handle is what Netty 4.1's API still names
    public Handle newHandle() {
        return new SlabHandle((ExtendedHandle) sizes.newHandle());
    }

    /** Netty's sizing, with the memory from the slabs. */
    @SuppressWarnings("deprecation")
    private final class SlabHandle implements ExtendedHandle {
        private final ExtendedHandle sizing;

        SlabHandle(ExtendedHandle sizing) {
            this.sizing = sizing;
        }

        @Override
        public ByteBuf allocate(ByteBufAllocator alloc) {
            return filler.room(sizing.guess());
        }

        @Override
        public void lastBytesRead(int bytes) {
            filler.received(bytes);
            sizing.lastBytesRead(bytes);
        }

        @Override
        public int guess() {
            return sizing.guess();
        }

        @Override
        public void reset(ChannelConfig config) {
            sizing.reset(config);
        }

        @Override
        public void incMessagesRead(int numMessages) {
            sizing.incMessagesRead(numMessages);
        }

        @Override
        public int lastBytesRead() {
            return sizing.lastBytesRead();
        }

        @Override
        public void attemptedBytesRead(int bytes) {
            sizing.attemptedBytesRead(bytes);
        }

        @Override
        public int attemptedBytesRead() {
            return sizing.attemptedBytesRead();
        }

        @Override
        public boolean continueReading() {
            return sizing.continueReading();
        }

        @Override
        public boolean continueReading(UncheckedBooleanSupplier maybeMoreDataSupplier) {
            return sizing.continueReading(maybeMoreDataSupplier);
        }

        @Override
        public void readComplete() {
            sizing.readComplete();
        }
    }
}
