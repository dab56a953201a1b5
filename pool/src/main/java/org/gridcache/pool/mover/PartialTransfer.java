package org.gridcache.pool.mover;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelFutureListener;
import io.netty.handler.codec.http.HttpResponse;
import io.netty.handler.codec.http.LastHttpContent;
import java.io.IOException;
import java.net.URI;
import java.time.Duration;
import java.util.function.BiConsumer;
import org.gridcache.common.cluster.ActiveTransfer;
import org.gridcache.common.ticket.Ticket;
import org.gridcache.pool.http.FetchException;
import org.gridcache.pool.origin.RangedReads;
import org.gridcache.pool.http.Exchange;
import org.gridcache.pool.http.Responses;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A {@code Range} on a file that is neither in the store nor being fetched, from an origin that reads ranges
 * ({@link RangedReads}, GridFTP's ERET): served by a read of just that range, straight to this one client and
 * not cached, so a client seeking into a cold file (ROOT reads a file's end first) waits for the bytes it asked for,
 * not for the whole file before them. The head (206) goes out once the origin accepted the credential and path; a failure before it is an error
 * status, after it a closed connection (fewer bytes than Content-Length). The fetcher thread writes and waits
 * while the client's channel is not writable, so a slow client slows its own origin transfer.
 */
public final class PartialTransfer implements RangedReads.Receiver {
    private static final Logger LOG = LoggerFactory.getLogger(PartialTransfer.class);
    private final Exchange ex;
    private final Ticket ticket;
    private final ByteRange range;
    private final RangedReads origin;
    private final Movers movers;
    private final Duration writeTimeout;
    /** Told once, on the event loop, when the transfer is over: (this, whether the connection may be reused). */
    private final BiConsumer<PartialTransfer, Boolean> done;
    private volatile AutoCloseable handle;
    private volatile boolean aborted;
    private volatile boolean headSent;
    private volatile long sent;
    private boolean finished; // event loop only
    private ActiveTransfers.Transfer progress;

    public PartialTransfer(Exchange ex, Ticket ticket, ByteRange range, RangedReads origin, Movers movers, Duration writeTimeout,
                    BiConsumer<PartialTransfer, Boolean> done) {
        this.ex = ex;
        this.ticket = ticket;
        this.range = range;
        this.origin = origin;
        this.movers = movers;
        this.writeTimeout = writeTimeout;
        this.done = done;
    }

    public void start() {
        movers.started();
        progress = movers.transfers().begin(ActiveTransfer.MISS, ticket, ex.path, range.length(), () -> sent);
        LOG.debug("{} {}: range {} of a cold file by partial retrieve", ex.method, ex.path, ex.range);
        handle = origin.read(URI.create(ticket.originUrl()), ticket, range.start(), range.length(), this);
    }

    @Override
    public void opened() {
        HttpResponse head = FileHeads.fileHead(ex, range, ticket.size(), ticket.mtime(), null, false, CacheStatus.RANGE);
        headSent = true;
        ex.ctx.writeAndFlush(head);
    }

    @Override
    public void receive(ByteBuf data) throws IOException {
        if (aborted) {
            data.release();
            throw new IOException("the client went away");
        }
        int n = data.readableBytes();
        ChannelFuture f = ex.ctx.writeAndFlush(data);
        if (!ex.ctx.channel().isWritable()) {
            // the client is slower than the origin: wait for this write before reading on
            if (!f.awaitUninterruptibly(writeTimeout.toMillis()) || !f.isSuccess()) {
                throw new IOException("the client takes no bytes");
            }
        }
        sent += n;
        movers.sent(n);
    }

    @Override
    public void done(FetchException failure) {
        ex.ctx.executor().execute(() -> {
            if (finished) {
                return;
            }
            if (failure == null) {
                ex.ctx.writeAndFlush(LastHttpContent.EMPTY_LAST_CONTENT)
                        .addListener((ChannelFutureListener) f -> finish(f.isSuccess(), 206));
            } else if (!headSent && ex.ctx.channel().isActive()) {
                LOG.info("{} {} refused {}: {}", ex.method, ex.path, failure.status().code(), failure.getMessage());
                Responses.sendError(ex, failure.status(), failure.getMessage())
                        .addListener((ChannelFutureListener) f -> finish(f.isSuccess(), failure.status().code()));
            } else {
                if (!aborted) {
                    LOG.warn("{} {}: partial retrieve failed after {} bytes: {}", ex.method, ex.path, sent, failure.getMessage());
                }
                ex.ctx.close(); // Content-Length was promised: closing early tells the client
                finish(false, 206);
            }
        });
    }

    /** The client went away (event loop). */
    public void abort() {
        aborted = true;
        closeHandle();
        finish(false, headSent ? 206 : 0);
    }

    private void closeHandle() {
        AutoCloseable h = handle;
        if (h != null) {
            try {
                h.close();
            } catch (Exception e) {
                LOG.debug("closing a partial retrieve: {}", e.toString());
            }
        }
    }

    private void finish(boolean complete, int status) {
        if (finished) {
            return;
        }
        finished = true;
        movers.ended();
        if (progress != null) {
            progress.end();
        }
        movers.finished(ex, false, false, status, sent, sent, complete);
        LOG.info("{} {} {} MISS(partial) {} bytes {} ms {}{}", ex.method, ex.path, status, sent, ex.millis(), ex.client(),
                complete ? "" : " ABORTED");
        done.accept(this, complete && status == 206);
    }
}
