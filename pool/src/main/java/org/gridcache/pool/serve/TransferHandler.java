package org.gridcache.pool.serve;

import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.SimpleChannelInboundHandler;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.util.List;
import java.util.Optional;
import org.gridcache.common.ticket.Ticket;
import org.gridcache.pool.fetch.BlockFetches;
import org.gridcache.pool.fetch.Downloads;
import org.gridcache.pool.http.FetchException;
import org.gridcache.pool.http.Exchange;
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
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The transfer, last in the pipeline: hands an admitted request to a mover — a {@link HitMover} for a stored file, a
 * {@link CutThroughMover} while its fetch fills it, a {@link SparseTransfer} for a Range of a large file that is not
 * stored whole (the blocks it touches fetched and kept, {@link BlockFetches}). One per connection: it holds the
 * mover in progress, resumes it when the client can take more, aborts it when the client leaves.
 */
final class TransferHandler extends SimpleChannelInboundHandler<Exchange> implements Mover.Done {
    private static final Logger LOG = LoggerFactory.getLogger(TransferHandler.class);
    private final Downloads downloads;
    private final Store store;
    private final Movers movers;
    private final Origins origins;
    private Mover current;
    private final BlockFetches blocks;
    private SparseTransfer sparse;

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
        whole(ex);
    }

    /** The whole file: from the store, or from a whole-file fetch (started or joined). */
    private void whole(Exchange ex) {
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
        if (blocks == null || ex.range == null || ex.head || ticket.size() <= 0 || !ex.digests.isEmpty()) {
            return false;
        }
        Optional<RangedReads> reads = origins.blockReads(ticket.originUrl());
        if (reads.isEmpty()) {
            return false;
        }
        List<ByteRange> ranges = SparseTransfer.ranges(ex.range, ticket.size());
        if (ranges.isEmpty() || ranges.get(0).length() == ticket.size() || downloads.holds(ticket)) {
            return false;
        }
        PartialFile file;
        FileChannel reader;
        try {
            file = blocks.open(ticket);
            if (file == null) {
                return false;
            }
            reader = store.blocks().open(file.key());
            if (reader == null) {
                blocks.release(file);
                return false;
            }
        } catch (IOException e) {
            LOG.error("store: cannot keep blocks of {}: {}", ex.path, e.toString());
            ex.refuse(Failures.store("keep blocks of " + ex.path, e, "pool cannot write its store"));
            return true;
        }
        sparse = new SparseTransfer(ex, ticket, ranges, file, reader, blocks, reads.get(), movers, (s, reusable, fallBack) -> {
            if (s == sparse) {
                sparse = null;
                if (fallBack) {
                    whole(ex); // the origin ignores Range: the whole file, as before block reads
                } else {
                    ex.end(reusable);
                }
            }
        });
        sparse.start();
        return true;
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
        if (sparse != null) {
            sparse.abort();
        }
        super.channelInactive(ctx);
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        LOG.debug("client {}: {}", ctx.channel().remoteAddress(), cause.toString());
        ctx.close();
    }
}
