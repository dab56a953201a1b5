package org.gridcache.pool.serve;

import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.handler.codec.http.HttpResponseStatus;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.util.List;
import java.util.concurrent.CompletionException;
import java.util.function.Consumer;
import org.gridcache.common.ticket.Ticket;
import org.gridcache.pool.fetch.BlockFetches;
import org.gridcache.pool.fetch.Downloads;
import org.gridcache.pool.http.Exchange;
import org.gridcache.pool.http.Refusal;
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

    /**
     * The whole file: from the store, from the blocks stored of it, or from a whole-file fetch (started or joined). A
     * hit is served at once; a miss is opened off the event loop (its reservation may wait for the evictor, and it
     * creates the part file), and its mover starts back on the loop.
     */
    private void whole(Exchange ex, boolean blocksTried) {
        if (!blocksTried && fromBlocks(ex, ex.ticket)) {
            return;
        }
        Downloads.Hit hit;
        try {
            hit = downloads.hit(ex.ticket);
        } catch (IOException e) {
            LOG.error("store: cannot open {}: {}", ex.path, e.toString());
            ex.refuse(Failures.store("open its store for " + ex.path, e, "pool cannot read its store"));
            return;
        }
        if (hit != null) {
            current = new HitMover(ex, hit, store, movers, downloads.checksumsOnDemand(), this);
            current.start();
            return;
        }
        downloads.openAsync(ex.ticket).whenCompleteAsync((source, failure) -> onLoop(ex, () -> opened(ex, source, failure)),
                ex.ctx.executor());
    }

    /**
     * Runs a step that continues a request on the event loop after work elsewhere; a bug in it closes the connection
     * (as {@link #exceptionCaught} does), never leaves the client waiting.
     */
    private static void onLoop(Exchange ex, Runnable step) {
        try {
            step.run();
        } catch (RuntimeException e) {
            LOG.error("pool: {} {} failed", ex.method, ex.path, e);
            ex.ctx.close();
        }
    }

    /** A miss opened (on the event loop again): its mover, or its refusal; aborted at once when the client has left. */
    private void opened(Exchange ex, Downloads.Source source, Throwable failure) {
        if (failure != null) {
            refuseOpening(ex, failure, "open its store for " + ex.path, "pool cannot read its store");
            return;
        }
        try {
            current = source instanceof Downloads.Hit hit
                    ? new HitMover(ex, hit, store, movers, downloads.checksumsOnDemand(), this)
                    : new CutThroughMover(ex, (Downloads.Joined) source, store, movers, downloads.checksumsOnDemand(), this);
        } catch (RuntimeException e) { // no mover holds them: given back here
            closeQuietly(source.file());
            store.unpin(source.key());
            throw e;
        }
        if (ex.ctx.channel().isActive()) {
            current.start();
        } else {
            current.abort(); // the client left while it was opened: its pin and file go back
        }
    }

    /**
     * A Range on a file that is not stored whole nor being fetched, from an origin that reads blocks: a
     * {@link SparseTransfer}, whatever the file's size and the share of it read; true when the request is a block
     * read (it goes on once its partial file is opened, or as a whole read when there is none to read after all). A
     * Range of every byte is a whole read.
     */
    private boolean blockRead(Exchange ex, Ticket ticket) {
        if (ex.range == null || !readsBlocks(ex, ticket)) {
            return false;
        }
        List<ByteRange> ranges = SparseTransfer.ranges(ex.range, ticket.size());
        if (ranges.isEmpty() || ranges.get(0).length() == ticket.size() || downloads.holds(ticket)) {
            return false;
        }
        openBlocks(ex, ticket, opened -> {
            SparseTransfer transfer = new SparseTransfer(ex, ticket, ranges, opened.file, opened.reader, blocks, opened.reads,
                    movers, (reusable, fallBack) -> blocksDone(ex, reusable, fallBack));
            blockTransfer = transfer;
            transfer.start();
        }, () -> whole(ex, false));
        return true;
    }

    /**
     * A whole read of a file the store holds blocks of, of the ticket's version (not stored whole nor being
     * fetched): a {@link BlockMover}, which fetches only the blocks missing and makes the file complete; true when
     * the request is read so (it goes on once the partial file is opened, or as a whole-file fetch after all).
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
        openBlocks(ex, ticket, opened -> {
            BlockMover mover = new BlockMover(ex, ticket, opened.file, opened.reader, blocks, opened.reads, movers,
                    (reusable, fallBack) -> blocksDone(ex, reusable, fallBack));
            blockTransfer = mover;
            mover.start();
        }, () -> whole(ex, true));
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
     * Opens the ticket's partial file off the event loop (it may be created, or another request's creation waited
     * for), then, on the loop, pinned and opened for reading: {@code then} with it, or {@code otherwise} when it is no
     * block read after all (a complete copy stored, or the partial file gone). A failure is refused; a client that
     * left meanwhile ends the exchange, the file released.
     */
    private void openBlocks(Exchange ex, Ticket ticket, Consumer<Opened> then, Runnable otherwise) {
        blocks.openAsync(ticket).whenCompleteAsync((file, failure) -> onLoop(ex, () -> {
            if (failure != null) {
                refuseOpening(ex, failure, "keep blocks of " + ex.path, "pool cannot write its store");
                return;
            }
            if (file == null) {
                orWhole(ex, otherwise);
                return;
            }
            FileChannel reader;
            try {
                reader = store.blocks().open(file.key());
            } catch (IOException e) {
                blocks.release(file);
                refuseOpening(ex, e, "read blocks of " + ex.path, "pool cannot read its store");
                return;
            }
            if (reader == null) {
                blocks.release(file);
                orWhole(ex, otherwise);
            } else if (!ex.ctx.channel().isActive()) {
                closeQuietly(reader);
                blocks.release(file);
                ex.end(false);
            } else {
                try {
                    then.accept(new Opened(file, reader, origins.blockReads(ticket.originUrl()).orElseThrow()));
                } catch (RuntimeException e) {
                    if (blockTransfer == null) { // no block read holds them: given back here
                        closeQuietly(reader);
                        blocks.release(file);
                    }
                    throw e;
                }
            }
        }), ex.ctx.executor());
    }

    /** No block read after all: the whole file, unless the client left meanwhile. */
    private static void orWhole(Exchange ex, Runnable whole) {
        if (ex.ctx.channel().isActive()) {
            whole.run();
        } else {
            ex.end(false);
        }
    }

    /** Refuses a request whose file could not be opened: the failure's own status, the store's, or 500 (logged). */
    private static void refuseOpening(Exchange ex, Throwable failure, String what, String otherwise) {
        Refusal refusal = Failures.of(failure);
        if (refusal == null) {
            Throwable cause = failure instanceof CompletionException && failure.getCause() != null ? failure.getCause() : failure;
            if (cause instanceof IOException e) {
                LOG.error("store: cannot {}: {}", what, e.toString());
                refusal = Failures.store(what, e, otherwise);
            } else {
                LOG.error("pool: cannot serve {}", ex.path, cause);
                refusal = new Refusal(HttpResponseStatus.INTERNAL_SERVER_ERROR, "pool failed to serve the file; see its log");
            }
        }
        ex.refuse(refusal);
    }

    private static void closeQuietly(FileChannel file) {
        try {
            file.close();
        } catch (IOException e) {
            LOG.debug("closing a file: {}", e.toString());
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
