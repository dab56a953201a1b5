package org.gridcache.pool.mover;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelPromise;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.util.function.LongConsumer;
import org.gridcache.pool.store.StoreEntry;

/**
 * Sends a range of a stored file as chunks of its kept mapping ({@link MappedReads}), two in flight: the next is
 * written when one has gone to the socket, so a client that reads slowly holds two chunks' worth of the mapping in
 * its queue, never the file. The send holds a lease on the mapping until every chunk it wrote is written or failed.
 */
final class MappedSend {
    static final int CHUNK = 4 * 1024 * 1024;
    private static final int IN_FLIGHT = 2;

    private final ChannelHandlerContext ctx;
    private final MappedReads.Lease lease;
    private final long end;
    private final ChannelPromise done;
    private final LongConsumer progress;
    private long next;
    private int inFlight;
    private boolean pumping;
    private boolean again;

    private MappedSend(ChannelHandlerContext ctx, MappedReads mappings, StoreEntry entry, FileChannel file, long start,
                       long length, LongConsumer progress) {
        this.ctx = ctx;
        this.progress = progress;
        this.lease = mappings.lease(entry, file);
        this.next = start;
        this.end = start + length;
        this.done = ctx.newPromise();
    }

    /**
     * Writes the range; the future completes when its last byte is written, or fails with the first failure.
     * {@code progress} is told each chunk's bytes once they are written.
     */
    static ChannelFuture send(ChannelHandlerContext ctx, MappedReads mappings, StoreEntry entry, FileChannel file,
                              long start, long length, LongConsumer progress) {
        MappedSend send = new MappedSend(ctx, mappings, entry, file, start, length, progress);
        send.pump();
        return send.done;
    }

    /** On the event loop only; a write that completes at once comes back through {@code again}, not recursion. */
    private void pump() {
        if (pumping) {
            again = true;
            return;
        }
        pumping = true;
        try {
            do {
                again = false;
                while (!done.isDone() && inFlight < IN_FLIGHT && next < end) {
                    writeNextChunk();
                }
            } while (again);
        } finally {
            pumping = false;
        }
        if (!done.isDone() && inFlight == 0 && next >= end) {
            done.trySuccess();
        }
        if (done.isDone() && inFlight == 0) {
            lease.release(); // every chunk written or failed: none of the mapping is queued any more
        }
    }

    private void writeNextChunk() {
        ByteBuf chunk;
        try {
            chunk = lease.chunk(next, (int) Math.min(CHUNK, end - next));
        } catch (IOException | RuntimeException e) {
            done.tryFailure(e);
            return;
        }
        int bytes = chunk.readableBytes();
        next += bytes;
        inFlight++;
        ctx.writeAndFlush(chunk).addListener(f -> {
            inFlight--;
            if (!f.isSuccess()) {
                done.tryFailure(f.cause());
            } else {
                progress.accept(bytes);
            }
            pump();
        });
    }
}
