package org.gridcache.pool.mover;

import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelProgressiveFuture;
import io.netty.channel.ChannelProgressiveFutureListener;
import io.netty.channel.ChannelProgressivePromise;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpResponseStatus;
import java.io.IOException;
import org.gridcache.common.cluster.ActiveTransfer;
import org.gridcache.pool.fetch.Download;
import org.gridcache.pool.fetch.Downloads;
import org.gridcache.pool.http.Exchange;
import org.gridcache.pool.http.Responses;
import org.gridcache.pool.store.Store;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.slf4j.event.Level;

/**
 * One client transfer (dCache's word): sends a file, or the part of it a Range selects, to one client. Holds a pin
 * and an open file from {@link Downloads#open}, and gives both back exactly once, whether the transfer completes,
 * fails or the client goes away. Runs on the client channel's event loop.
 */
public abstract class Mover {
    private static final Logger LOG = LoggerFactory.getLogger(Mover.class);

    /** Told when a mover is done; {@code reusable} says whether the connection may serve another request. */
    public interface Done {
        void moverDone(Mover mover, boolean reusable);
    }

    protected final Exchange ex;
    protected final Downloads.Source source;
    private final Store store;
    private final Movers movers;
    private final Done done;
    private HttpResponseStatus status;
    private long sent;
    /** Bytes counted in the pool's outgoing rate as they went, not yet {@link #sent}. */
    private long countedAhead;
    /** Bytes gone to the client so far, counted as they go: what the pool's record lists (written on the event loop). */
    private volatile long moved;
    private final ActiveTransfers.Transfer progress;
    private boolean finished;

    Mover(Exchange ex, Downloads.Source source, Store store, Movers movers, Done done) {
        this.ex = ex;
        this.source = source;
        this.store = store;
        this.movers = movers;
        this.done = done;
        movers.started();
        this.progress = movers.transfers().begin(this::kind, ex.ticket, ex.path,
                ex.head ? 0 : ex.range == null && ex.ticket != null ? ex.ticket.size() : -1, () -> moved);
    }

    /** Hit, miss, or peer: a miss whose fetch turned out to come from another pool. */
    private String kind() {
        return hit() ? ActiveTransfer.HIT
                : source instanceof Downloads.Joined joined && joined.download().fromPeer() ? ActiveTransfer.PEER : ActiveTransfer.MISS;
    }

    public abstract void start();

    public final Exchange exchange() {
        return ex;
    }

    /** The channel can take more bytes again. */
    public void resume() {
    }

    /** The client went away. */
    public final void abort() {
        finish(false);
    }

    protected abstract boolean hit();

    protected final void status(HttpResponseStatus status) {
        this.status = status;
    }

    protected final void sent(long bytes) {
        sent += bytes;
        long ahead = Math.min(countedAhead, bytes);
        countedAhead -= ahead;
        moved += bytes - ahead;
        movers.sent(bytes - ahead);
    }

    /**
     * {@code bytes} of a body whose {@link #sent} comes when it has all gone went to the socket now: counted in the
     * pool's outgoing rate at once, so the rate moves while a long send runs, not only after it.
     */
    final void progressed(long bytes) {
        countedAhead += bytes;
        moved += bytes;
        movers.sent(bytes);
    }

    /** A promise for a body written in one piece whose progress is counted as it goes ({@link #progressed}). */
    final ChannelProgressivePromise counting(ChannelHandlerContext ctx) {
        ChannelProgressivePromise promise = ctx.newProgressivePromise();
        long[] last = {0};
        promise.addListener(new ChannelProgressiveFutureListener() {
            @Override
            public void operationProgressed(ChannelProgressiveFuture future, long progress, long total) {
                progressed(progress - last[0]);
                last[0] = progress;
            }

            @Override
            public void operationComplete(ChannelProgressiveFuture future) {
                // what went is settled by sent(), or by nothing when the transfer failed
            }
        });
        return promise;
    }

    /** Answers with an error before any byte of the file went out; the connection stays usable. */
    protected final void refuse(FullHttpResponse response, String reason) {
        status = response.status();
        LOG.info("{} {} refused {}: {}", ex.method, ex.path, status.code(), reason);
        Responses.sendError(ex, response).addListener((ChannelFutureListener) f -> finish(f.isSuccess()));
    }

    protected final void refuse(HttpResponseStatus status, String reason) {
        refuse(Responses.errorResponse(ex, status, reason), reason);
    }

    /** Unsatisfiable range: 416 with the size, so the client can ask again (RFC 9110 §15.5.17). */
    protected final void refuseRange(long size) {
        FullHttpResponse response = Responses.errorResponse(ex, HttpResponseStatus.REQUESTED_RANGE_NOT_SATISFIABLE,
                "range not satisfiable: the file has " + size + " bytes");
        response.headers().set(HttpHeaderNames.CONTENT_RANGE, "bytes */" + size);
        refuse(response, "range " + ex.range + " beyond " + size + " bytes");
    }

    /** Runs {@code step} on the client's event loop, unless the transfer has ended meanwhile. */
    protected final void onEventLoop(Runnable step) {
        try {
            ex.ctx.executor().execute(() -> {
                if (!finished) {
                    step.run();
                }
            });
        } catch (java.util.concurrent.RejectedExecutionException e) {
            // the pool is shutting down: the client's connection goes with it
        }
    }

    protected final boolean finished() {
        return finished;
    }

    protected final void finish(boolean complete) {
        if (finished) {
            return;
        }
        finished = true;
        released();
        try {
            source.file().close();
        } catch (IOException e) {
            LOG.debug("closing {}: {}", source.key(), e.toString());
        }
        store.unpin(source.key());
        movers.ended();
        progress.end();
        // a miss reports what its (possibly shared) fetch had read from the origin by now
        Download fetch = source instanceof Downloads.Joined joined && !hit() ? joined.download() : null;
        long originBytes = fetch != null && !fetch.fromPeer() ? fetch.received() : 0;
        movers.finished(ex, hit(), fetch != null && fetch.fromPeer(), status == null ? 0 : status.code(), sent, originBytes, complete);
        // a completed transfer's line says what its transfer record says: DEBUG, else two more synchronous writes
        // (log file, stderr) per small-file hit; one cut short stays INFO, it is news to an operator
        LOG.atLevel(complete ? Level.DEBUG : Level.INFO).log("{} {} {} {} {} bytes {} ms {}{}", ex.method, ex.path,
                status == null ? "-" : status.code(), hit() ? "HIT" : "MISS", sent, ex.millis(), ex.client(), complete ? "" : " ABORTED");
        done.moverDone(this, complete);
    }

    /** Lets a subclass drop its own hooks before the file closes. */
    protected void released() {
    }
}
