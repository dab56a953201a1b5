package org.gridcache.pool.serve;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelOutboundHandlerAdapter;
import io.netty.channel.ChannelPromise;
import io.netty.channel.FileRegion;
import io.netty.handler.stream.ChunkedInput;
import java.io.IOException;
import java.nio.channels.FileChannel;
import org.gridcache.pool.mover.SharedFileRegion;

/**
 * Under TLS the bytes must pass through the SSL engine, so a zero-copy {@link FileRegion} cannot go to the socket:
 * this handler turns each region the movers write into a {@link ChunkedInput} of buffers for the
 * {@code ChunkedWriteHandler} in front of the TLS handler. The movers stay the same with and without TLS.
 *
 * <p>Each chunk is one positional read of the file straight into the (direct) buffer the engine encrypts from: no
 * intermediate copy, one system call per chunk ({@code FileRegion.transferTo} into a buffer read 8 KiB at a time
 * through a JDK buffer, then copied it: a fifth of the pool's CPU under an HTTPS aggregate).
 */
final class FileRegionChunks extends ChannelOutboundHandlerAdapter {
    static final int CHUNK = 64 * 1024;

    @Override
    public void write(ChannelHandlerContext ctx, Object msg, ChannelPromise promise) {
        if (msg instanceof SharedFileRegion region) {
            // a chunk that cannot be read fails the region's write, not the response's end: close, never hang
            ctx.write(new RegionInput(region), promise.unvoid()).addListener(ChannelFutureListener.CLOSE_ON_FAILURE);
        } else {
            ctx.write(msg, promise);
        }
    }

    /** Reads a region chunk by chunk; releases it when the chunked writer closes the input. */
    private static final class RegionInput implements ChunkedInput<ByteBuf> {
        private final SharedFileRegion region;
        private final FileChannel file;
        private final long end;
        private long next;

        RegionInput(SharedFileRegion region) {
            this.region = region;
            this.file = region.file();
            this.next = region.position() + region.transferred();
            this.end = region.position() + region.count();
        }

        @Override
        public boolean isEndOfInput() {
            return next >= end;
        }

        @Override
        public void close() {
            region.release();
        }

        @Deprecated
        @Override
        public ByteBuf readChunk(ChannelHandlerContext ctx) throws Exception {
            return readChunk(ctx.alloc());
        }

        @Override
        public ByteBuf readChunk(ByteBufAllocator allocator) throws IOException {
            if (isEndOfInput()) {
                return null;
            }
            int size = (int) Math.min(CHUNK, end - next);
            ByteBuf buf = allocator.directBuffer(size);
            boolean ok = false;
            try {
                while (buf.writerIndex() < size) {
                    if (buf.writeBytes(file, next + buf.writerIndex(), size - buf.writerIndex()) < 0) {
                        throw new IOException("file ended before the region did");
                    }
                }
                next += size;
                ok = true;
                return buf;
            } finally {
                if (!ok) {
                    buf.release();
                }
            }
        }

        @Override
        public long length() {
            return region.count();
        }

        @Override
        public long progress() {
            return next - region.position();
        }
    }
}
