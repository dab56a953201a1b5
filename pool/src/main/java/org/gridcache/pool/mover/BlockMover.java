package org.gridcache.pool.mover;

import io.netty.channel.ChannelFutureListener;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.LastHttpContent;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.util.List;
import org.gridcache.common.ticket.Ticket;
import org.gridcache.pool.fetch.BlockFetches;
import org.gridcache.pool.http.Exchange;
import org.gridcache.pool.http.FetchException;
import org.gridcache.pool.origin.RangedReads;
import org.gridcache.pool.store.PartialFile;
import org.gridcache.pool.store.Store;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A whole read of a file the store holds some blocks of ({@link BlockFetches}), as XrdPfc serves one: the file goes
 * out in steps of {@link #STEP} bytes, each sent zero-copy from the blocks file once its blocks are proven, the
 * missing ones fetched (or joined) in origin reads of at most one step, {@link #AHEAD} steps ahead of the client.
 * When the last block is proven the partial file becomes a complete copy ({@code PartialFiles.complete}); the
 * origin sends only the blocks the store lacked. One step in flight per client: a slow client holds back only itself.
 *
 * <p>A failure before the head went out is an error status, or, when the blocks were dropped under the read or the
 * origin failed to send a range, the whole file from a whole-file fetch instead. After it, blocks dropped for a
 * complete copy of the same version (a whole-file fetch of the file committed meanwhile) let the rest go from that
 * copy; any other failure closes the connection, so the client sees a body shorter than its {@code Content-Length},
 * never a short file that looks complete.
 */
public final class BlockMover extends BlockRead {
    private static final Logger LOG = LoggerFactory.getLogger(BlockMover.class);
    /** Bytes sent per step, and the longest origin read of a whole read. */
    static final long STEP = 4L << 20;
    /** Steps read ahead of the one being sent. */
    static final int AHEAD = 3;

    private final int stepBlocks;
    private final String cacheStatus;
    private long position;
    private boolean headSent;
    /** The complete copy the rest went from, once the blocks were dropped for it: pinned, given back at the end. */
    private Store.Opened copy;

    /** {@code file}: the partial file opened for reading, closed by this mover; {@code partial} pinned, released by it. */
    public BlockMover(Exchange ex, Ticket ticket, PartialFile partial, FileChannel file, BlockFetches fetches,
                      RangedReads reads, Movers movers, Done done) {
        super(ex, ticket, partial, file, fetches, reads, movers, done);
        this.stepBlocks = (int) Math.max(1, STEP / partial.bitmap().blockSize());
        this.cacheStatus = BlockFetches.isComplete(partial) ? CacheStatus.HIT : CacheStatus.BLOCKS;
    }

    /** Starts it, listed as a transfer of the whole file. */
    public void start() {
        start(partial.size());
    }

    /** Makes sure the next step's blocks are coming (and those ahead of it), and sends the step once they are in. */
    @Override
    protected void begin() {
        if (finished) {
            return;
        }
        long size = partial.size();
        if (position == size) {
            ex.ctx.writeAndFlush(LastHttpContent.EMPTY_LAST_CONTENT)
                    .addListener((ChannelFutureListener) f -> finish(f.isSuccess(), 200, false));
            return;
        }
        long end = Math.min(size, position + stepBlocks * (long) partial.bitmap().blockSize()) - 1;
        BlockFetches.Plan plan = fetches.ensure(partial, ticket, reads, List.of(new long[] {position, end}),
                AHEAD * stepBlocks, stepBlocks);
        hit &= !plan.fetched();
        onEventLoop(plan, () -> send(end));
    }

    private void send(long end) {
        if (finished) {
            return;
        }
        if (!headSent) {
            headSent = true;
            boolean stored = cacheStatus.equals(CacheStatus.HIT);
            ex.ctx.write(FileHeads.fileHead(ex, ByteRange.whole(partial.size()), partial.size(), partial.mtime(), null,
                    stored, cacheStatus));
        }
        long length = end - position + 1;
        ex.ctx.writeAndFlush(new SharedFileRegion(file, position, length)).addListener((ChannelFutureListener) f -> {
            if (!f.isSuccess()) {
                finish(false, 200, false);
                return;
            }
            sent += length;
            movers.sent(length);
            position = end + 1;
            begin();
        });
    }

    /**
     * The blocks went after the head (dropped for a complete copy, or for another version): when a complete copy of
     * this version is stored, the rest of the file goes from it; false when there is none.
     */
    private boolean goOnFromCopy() {
        if (copy != null) {
            return false;
        }
        try {
            copy = fetches.completeCopyOf(partial);
        } catch (IOException e) {
            LOG.debug("{}: no complete copy to go on from: {}", ex.path, e.toString());
        }
        if (copy == null) {
            return false;
        }
        LOG.info("{} {}: its blocks went for a complete copy after {} bytes; the rest from that copy", ex.method, ex.path, sent);
        long rest = partial.size() - position;
        ex.ctx.writeAndFlush(new SharedFileRegion(copy.file(), position, rest)).addListener((ChannelFutureListener) f -> {
            if (!f.isSuccess()) {
                finish(false, 200, false);
                return;
            }
            sent += rest;
            movers.sent(rest);
            position += rest;
            begin(); // every byte sent: the end of the body
        });
        return true;
    }

    @Override
    protected void giveBack() {
        if (copy != null) {
            fetches.release(partial, copy);
        }
    }

    @Override
    protected void fail(Throwable error) {
        if (finished) {
            return;
        }
        FetchException e = asFetchException(error);
        if (headSent && e.isWholeInstead() && goOnFromCopy()) {
            return;
        }
        if (headSent) {
            LOG.warn("{} {}: {} after {} bytes; closing the connection", ex.method, ex.path, e.getMessage(), sent);
            ex.ctx.close();
            finish(false, 200, false);
            return;
        }
        refuse(e, e.isWholeInstead() || e.status() == HttpResponseStatus.BAD_GATEWAY
                || e.status() == HttpResponseStatus.GATEWAY_TIMEOUT); // nothing sent: the origin may serve it whole
    }
}
