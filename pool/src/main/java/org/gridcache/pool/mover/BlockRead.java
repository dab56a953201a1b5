package org.gridcache.pool.mover;

import io.netty.channel.ChannelFutureListener;
import io.netty.handler.codec.http.HttpResponseStatus;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.util.concurrent.CompletionException;
import org.gridcache.common.cluster.ActiveTransfer;
import org.gridcache.common.ticket.Ticket;
import org.gridcache.pool.fetch.BlockFetches;
import org.gridcache.pool.http.Exchange;
import org.gridcache.pool.http.FetchException;
import org.gridcache.pool.http.Responses;
import org.gridcache.pool.origin.RangedReads;
import org.gridcache.pool.store.PartialFile;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What the two block reads share ({@link SparseTransfer} for ranges, {@link BlockMover} for the whole file): the
 * partial file they serve from (pinned, opened for reading, both given back at the end), their place in the
 * transfers list, and their end — told once, on the event loop. Event loop only, but for the futures' callbacks,
 * which hop onto it ({@link #onEventLoop}).
 */
public abstract class BlockRead {
    private static final Logger LOG = LoggerFactory.getLogger(BlockRead.class);

    /** Told once, on the event loop: whether the connection may be reused, whether to serve it whole instead. */
    public interface Done {
        void blocksDone(boolean reusable, boolean fallBackToWholeFile);
    }

    protected final Exchange ex;
    protected final Ticket ticket;
    protected final PartialFile partial;
    protected final FileChannel file;
    protected final BlockFetches fetches;
    protected final RangedReads reads;
    protected final Movers movers;
    private final Done done;
    /** Whether every byte sent was stored before this read asked for it. */
    protected boolean hit = true;
    protected boolean finished;
    protected volatile long sent; // written on the event loop, read by the pool's record
    private ActiveTransfers.Transfer progress;

    /** {@code file}: the partial file opened for reading, closed by this read; {@code partial} pinned, released by it. */
    BlockRead(Exchange ex, Ticket ticket, PartialFile partial, FileChannel file, BlockFetches fetches, RangedReads reads,
              Movers movers, Done done) {
        this.ex = ex;
        this.ticket = ticket;
        this.partial = partial;
        this.file = file;
        this.fetches = fetches;
        this.reads = reads;
        this.movers = movers;
        this.done = done;
    }

    /** Starts the read: counted as a mover and listed as a transfer of {@code bytes}, then {@link #begin}. */
    public final void start(long bytes) {
        movers.started();
        progress = movers.transfers().begin(() -> hit ? ActiveTransfer.HIT : ActiveTransfer.MISS, ticket, ex.path, bytes,
                () -> sent);
        begin();
    }

    protected abstract void begin();

    /** Runs {@code then} on the event loop when {@code plan} is ready, or {@link #fail} with its error. */
    protected final void onEventLoop(BlockFetches.Plan plan, Runnable then) {
        plan.ready().whenComplete((ok, error) -> ex.ctx.executor().execute(() -> {
            if (error == null) {
                then.run();
            } else {
                fail(error instanceof CompletionException && error.getCause() != null ? error.getCause() : error);
            }
        }));
    }

    /** Nothing sent yet: the whole file from a whole-file fetch when {@code wholeInstead}, else an error status. */
    protected final void refuse(FetchException e, boolean wholeInstead) {
        if (wholeInstead) {
            LOG.info("{} {}: {}; serving it from a whole-file fetch", ex.method, ex.path, e.getMessage());
            finish(true, 0, true);
            return;
        }
        LOG.info("{} {} refused {}: {}", ex.method, ex.path, e.status().code(), e.getMessage());
        Responses.sendError(ex, e.status(), e.getMessage())
                .addListener((ChannelFutureListener) f -> finish(f.isSuccess(), e.status().code(), false));
    }

    protected abstract void fail(Throwable error);

    static FetchException asFetchException(Throwable error) {
        return error instanceof FetchException fe ? fe
                : new FetchException(HttpResponseStatus.BAD_GATEWAY, "block read failed: " + error);
    }

    /** The client went away (event loop): blocks being read go on into the store for the next reader. */
    public final void abort() {
        finish(false, 0, false);
    }

    /** What a read holds besides its partial file, given back when it ends (once, on the event loop). */
    protected void giveBack() {
    }

    /** Ends the read once: gives back the file and the pin, counts it, tells {@link Done}. */
    protected final void finish(boolean complete, int status, boolean fallBack) {
        if (finished) {
            return;
        }
        finished = true;
        try {
            file.close();
        } catch (IOException e) {
            LOG.debug("closing the blocks of {}: {}", ex.path, e.toString());
        }
        fetches.release(partial);
        giveBack();
        movers.ended();
        if (progress != null) {
            progress.end();
        }
        if (!fallBack) {
            movers.finished(ex, hit, false, status, sent, hit ? 0 : sent, complete);
            LOG.info("{} {} {} {}(blocks) {} bytes {} ms {}{}", ex.method, ex.path, status, hit ? "HIT" : "MISS", sent,
                    ex.millis(), ex.client(), complete ? "" : " ABORTED");
        }
        done.blocksDone(complete && (status / 100 == 2 || fallBack), fallBack);
    }
}
