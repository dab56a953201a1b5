package org.gridcache.pool.serve;

import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.SimpleChannelInboundHandler;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.util.List;
import org.gridcache.common.ticket.Ticket;
import org.gridcache.pool.fetch.BlockFetches;
import org.gridcache.pool.fetch.Downloads;
import org.gridcache.pool.http.FetchException;
import org.gridcache.pool.http.Exchange;
import org.gridcache.pool.mover.BlockMover;
import org.gridcache.pool.mover.BlockRead;
import org.gridcache.pool.mover.ByteRange;
import org.gridcache.pool.mover.CutThroughMover;
import org.gridcache.pool.mover.HitMover;
import org.gridcache.pool.mover.Mover;
import org.gridcache.pool.mover.Movers;
import org.gridcache.pool.mover.SparseTransfer;
import org.gridcache.pool.origin.Origins;
import org.gridcache.pool.origin.RangedReads;
import org.gridcache.pool.store.PartialFile;
import org.gridcache.pool.store.Store;
import org.gridcache.pool.store.StoreKey;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The transfer, last in the pipeline: hands an admitted request to a mover — a {@link HitMover} for a stored file, a
 * {@link CutThroughMover} while its fetch fills it, a {@link SparseTransfer} for a Range of a file that is not
 * stored whole (the blocks it touches fetched and kept, {@link BlockFetches}), a {@link BlockMover} for a whole read
 * of a file the store holds blocks of (the missing ones fetched, the file then complete). One per connection: it
 * holds the mover in progress, resumes it when the client can take more, aborts it when the client leaves.
 */
final class TransferHandler extends SimpleChannelInboundHandler<Exchange> implements Mover.Done {
    private static final Logger LOG = LoggerFactory.getLogger(TransferHandler.class);
    private final Downloads downloads;
    private final Store store;
    private final Movers movers;
    private final Origins origins;
    private Mover current;
    private final BlockFetches blocks;
    /** The block read in progress ({@link SparseTransfer} or {@link BlockMover}); null when none is. */
    private BlockRead blockTransfer;

    TransferHandler(Downloads downloads, Store store, Movers movers, Origins origins, BlockFetches blocks) {
        this.blocks = blocks;
        this.downloads = downloads;
        this.store = store;
        this.movers = movers;
        this.origins = origins;
    }

    @Override
    protected void channelRead0(ChannelHandlerContext ctx, Exchange ex) {
        if (blockRead(ex, ex.ticket)) {
            return;
        }
        whole(ex, false);
    }

    /** The whole file: from the store, from the blocks stored of it, or from a whole-file fetch (started or joined). */
    private void whole(Exchange ex, boolean blocksTried) {
        if (!blocksTried && fromBlocks(ex, ex.ticket)) {
            return;
        }
        Downloads.Source source;
        try {
            source = downloads.open(ex.ticket);
        } catch (FetchException e) {
            ex.refuse(Failures.of(e));
            return;
        } catch (IOException e) {
            LOG.error("store: cannot open {}: {}", ex.path, e.toString());
            ex.refuse(Failures.store("open its store for " + ex.path, e, "pool cannot read its store"));
            return;
        }
        if (source instanceof Downloads.Hit hit) {
            current = new HitMover(ex, hit, store, movers, downloads.checksumsOnDemand(), this);
        } else {
            current = new CutThroughMover(ex, (Downloads.Joined) source, store, movers, downloads.checksumsOnDemand(), this);
        }
        current.start();
    }

    /**
     * A Range on a file that is not stored whole nor being fetched, from an origin that reads blocks: a
     * {@link SparseTransfer}, whatever the file's size and the share of it read; true when one was started (or
     * refused). A Range of every byte is a whole read.
     */
    private boolean blockRead(Exchange ex, Ticket ticket) {
        if (ex.range == null || !readsBlocks(ex, ticket)) {
            return false;
        }
        List<ByteRange> ranges = SparseTransfer.ranges(ex.range, ticket.size());
        if (ranges.isEmpty() || ranges.get(0).length() == ticket.size() || downloads.holds(ticket)) {
            return false;
        }
        Opened opened = openBlocks(ex, ticket);
        if (opened == null || opened.file == null) {
            return opened == null; // refused (answered), or no block read after all
        }
        SparseTransfer transfer = new SparseTransfer(ex, ticket, ranges, opened.file, opened.reader, blocks, opened.reads,
                movers, (reusable, fallBack) -> blocksDone(ex, reusable, fallBack));
        blockTransfer = transfer;
        transfer.start();
        return true;
    }

    /**
     * A whole read of a file the store holds blocks of, of the ticket's version (not stored whole nor being
     * fetched): a {@link BlockMover}, which fetches only the blocks missing and makes the file complete; true when
     * one was started (or refused).
     */
    private boolean fromBlocks(Exchange ex, Ticket ticket) {
        if (blocks == null || ex.range != null || store.blocks().size() == 0 // no partial file: a hit's path
                || !readsBlocks(ex, ticket)) {
            return false;
        }
        PartialFile held = store.blocks().partial(StoreKey.ofOrigin(ticket.originUrl()));
        if (held == null || held.isStaleFor(ticket.size(), ticket.mtime()) || !BlockFetches.holdsAny(held)
                || downloads.holds(ticket)) {
            return false; // nothing worth keeping: an ordinary whole-file fetch, which drops the partial file
        }
        Opened opened = openBlocks(ex, ticket);
        if (opened == null || opened.file == null) {
            return opened == null; // refused (answered), or no block read after all
        }
        BlockMover mover = new BlockMover(ex, ticket, opened.file, opened.reader, blocks, opened.reads, movers,
                (reusable, fallBack) -> blocksDone(ex, reusable, fallBack));
        blockTransfer = mover;
        mover.start();
        return true;
    }

    /** Whether the request may be served from blocks: a GET without digests of a known size, from an origin that reads blocks. */
    private boolean readsBlocks(Exchange ex, Ticket ticket) {
        return blocks != null && !ex.head && ticket.size() > 0 && ex.digests.isEmpty()
                && origins.blockReads(ticket.originUrl()).isPresent();
    }

    /** A partial file pinned and opened for reading, and the origin's block reads. */
    private record Opened(PartialFile file, FileChannel reader, RangedReads reads) {
    }

    /**
     * The ticket's partial file, pinned and opened; {@code Opened} with a null file when it is no block read (a
     * complete copy stored, or the partial file gone); null when the request was refused.
     */
    private Opened openBlocks(Exchange ex, Ticket ticket) {
        try {
            PartialFile file = blocks.open(ticket);
            if (file == null) {
                return new Opened(null, null, null);
            }
            FileChannel reader;
            try {
                reader = store.blocks().open(file.key());
            } catch (IOException e) {
                blocks.release(file);
                throw e;
            }
            if (reader == null) {
                blocks.release(file);
                return new Opened(null, null, null);
            }
            return new Opened(file, reader, origins.blockReads(ticket.originUrl()).orElseThrow());
        } catch (IOException e) {
            LOG.error("store: cannot keep blocks of {}: {}", ex.path, e.toString());
            ex.refuse(Failures.store("keep blocks of " + ex.path, e, "pool cannot write its store"));
            return null;
        }
    }

    /** The end of a block read (on the event loop): the next request, or the whole file when the blocks went. */
    private void blocksDone(Exchange ex, boolean reusable, boolean fallBack) {
        if (blockTransfer == null) {
            return;
        }
        blockTransfer = null;
        if (fallBack) {
            whole(ex, true); // the origin ignores Range, or the blocks were dropped: the whole file from a whole-file fetch
        } else {
            ex.end(reusable);
        }
    }

    @Override
    public void moverDone(Mover mover, boolean reusable) {
        if (mover == current) {
            current = null;
            mover.exchange().end(reusable);
        }
    }

    @Override
    public void channelWritabilityChanged(ChannelHandlerContext ctx) throws Exception {
        if (current != null && ctx.channel().isWritable()) {
            current.resume();
        }
        super.channelWritabilityChanged(ctx);
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) throws Exception {
        if (current != null) {
            current.abort();
        }
        if (blockTransfer != null) {
            blockTransfer.abort();
        }
        super.channelInactive(ctx);
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        LOG.debug("client {}: {}", ctx.channel().remoteAddress(), cause.toString());
        ctx.close();
    }
}
