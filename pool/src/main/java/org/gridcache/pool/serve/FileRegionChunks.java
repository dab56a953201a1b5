package org.gridcache.pool.serve;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelOutboundHandlerAdapter;
import io.netty.channel.ChannelPromise;
import io.netty.channel.FileRegion;
import io.netty.handler.stream.ChunkedInput;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.WritableByteChannel;

/**
 * Under TLS the bytes must pass through the SSL engine, so a zero-copy {@link FileRegion} cannot go to the socket:
 * this handler turns each region the movers write into a {@link ChunkedInput} of buffers for the
 * {@code ChunkedWriteHandler} in front of the TLS handler. The movers stay the same with and without TLS.
 */
final class FileRegionChunks extends ChannelOutboundHandlerAdapter {
    static final int CHUNK = 64 * 1024;

    @Override
    public void write(ChannelHandlerContext ctx, Object msg, ChannelPromise promise) {
        if (msg instanceof FileRegion region) {
            ctx.write(new RegionInput(region), promise);
        } else {
            ctx.write(msg, promise);
        }
    }

    /** Reads a region chunk by chunk; releases it when the chunked writer closes the input. */
    private static final class RegionInput implements ChunkedInput<ByteBuf> {
        private final FileRegion region;

        RegionInput(FileRegion region) {
            this.region = region;
        }

        @Override
        public boolean isEndOfInput() {
            return region.transferred() >= region.count();
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
            int size = (int) Math.min(CHUNK, region.count() - region.transferred());
            ByteBuf buf = allocator.buffer(size);
            boolean ok = false;
            try {
                BufferChannel into = new BufferChannel(buf);
                while (buf.isWritable() && !isEndOfInput()) {
                    if (region.transferTo(into, region.transferred()) <= 0) {
                        break;
                    }
                }
                if (buf.readableBytes() == 0) {
                    throw new IOException("file ended before the region did");
                }
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
            return region.transferred();
        }
    }

    /** A channel that writes into a buffer up to its capacity. */
    private static final class BufferChannel implements WritableByteChannel {
        private final ByteBuf buf;

        BufferChannel(ByteBuf buf) {
            this.buf = buf;
        }

        @Override
        public int write(ByteBuffer src) {
            int n = Math.min(src.remaining(), buf.writableBytes());
            ByteBuffer slice = src.slice();
            slice.limit(n);
            buf.writeBytes(slice);
            src.position(src.position() + n);
            return n;
        }

        @Override
        public boolean isOpen() {
            return true;
        }

        @Override
        public void close() {
            // the buffer is owned by the caller
        }
    }
}
