package org.gridcache.pool.tpc;

import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.http.DefaultHttpContent;
import io.netty.handler.codec.http.DefaultHttpResponse;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaderValues;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.HttpResponse;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.handler.codec.http.LastHttpContent;
import io.netty.util.concurrent.ScheduledFuture;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.gridcache.common.cluster.ActiveTransfer;
import org.gridcache.common.ticket.Ticket;
import org.gridcache.common.transfer.TransferLog;
import org.gridcache.common.transfer.TransferRecord;
import org.gridcache.pool.http.Refusal;
import org.gridcache.pool.mover.ActiveTransfers;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One third-party COPY at the pool, admitted on its head by the pool's admission (a door's ticket for this path and
 * pool with the tpc operation the headers ask for, its {@code remote} the request's {@code Source} or
 * {@code Destination}), then started here: {@code 202 Accepted}, {@code text/perf-marker-stream}, chunked, a
 * performance marker every {@code tpc.marker-interval} while a worker thread does the copy, and the last line
 * {@code success: Created} or {@code failure: <reason>}. A client that leaves cancels the copy, which leaves nothing
 * behind. The connection closes after the answer. Runs on the connection's event loop but for the copy itself.
 */
public final class CopyExchange {
    private static final Logger LOG = LoggerFactory.getLogger(CopyExchange.class);
    private final CopyService service;
    private final ChannelHandlerContext ctx;
    private final CopyOrder admitted;
    private final Copy running;
    private boolean ended;
    private ScheduledFuture<?> markers;
    private ActiveTransfers.Transfer progress;

    private CopyExchange(CopyService service, ChannelHandlerContext ctx, CopyOrder admitted) {
        this.service = service;
        this.ctx = ctx;
        this.admitted = admitted;
        this.running = admitted.pull() ? new Pull(service, admitted) : new Push(service, admitted);
    }

    /**
     * Starts the copy an admitted COPY asks for ({@code ticket}: its, the origin resolved; {@code token}: as sent);
     * refuses (400) checksum or transfer headers it cannot honour, before anything starts.
     */
    static CopyExchange start(CopyService service, ChannelHandlerContext ctx, HttpRequest head, Ticket ticket, String token,
                              boolean pull) throws Refusal {
        ChecksumCheck check;
        Map<String, String> headers;
        try {
            check = ChecksumCheck.of(head.headers().get(ChecksumCheck.REQUIRE), head.headers().get("Want-Digest"));
            headers = TransferHeaders.of(head.headers());
        } catch (IllegalArgumentException e) {
            throw new Refusal(HttpResponseStatus.BAD_REQUEST, e.getMessage());
        }
        CopyExchange exchange = new CopyExchange(service, ctx, new CopyOrder(ticket, token, pull, check, headers));
        exchange.begin();
        return exchange;
    }

    /** The client left: a copy still running is cancelled. */
    public void clientGone() {
        if (!ended) {
            LOG.info("COPY: the client left; the copy is cancelled");
            running.cancel();
        }
        cancelMarkers();
    }

    private void begin() {
        Ticket ticket = admitted.ticket();
        Copy copy = running;
        service.movers().otherTransferStarted();
        HttpResponse head = new DefaultHttpResponse(HttpVersion.HTTP_1_1, HttpResponseStatus.ACCEPTED);
        head.headers().set(HttpHeaderNames.CONTENT_TYPE, PerfMarkers.CONTENT_TYPE)
                .set(HttpHeaderNames.TRANSFER_ENCODING, HttpHeaderValues.CHUNKED)
                .set(HttpHeaderNames.CONNECTION, HttpHeaderValues.CLOSE)
                .set(HttpHeaderNames.CACHE_CONTROL, "no-store");
        ctx.writeAndFlush(head);
        service.stats().response(202);
        AtomicLong moved = new AtomicLong();
        progress = service.movers().transfers().begin(ActiveTransfer.TPC, ticket, ticket.path(), -1, moved::get);
        long interval = Math.max(1, service.markerInterval().toMillis());
        markers = ctx.executor().scheduleAtFixedRate(() -> send(ctx, PerfMarkers.marker(Instant.now().getEpochSecond(), moved.get())),
                interval, interval, TimeUnit.MILLISECONDS);
        long start = System.nanoTime();
        String client = TransferLog.ip(ctx.channel().remoteAddress());
        service.workers().execute(() -> {
            String source = null;
            String failure = null;
            try {
                source = copy.run(moved);
            } catch (CopyFailure f) {
                failure = f.getMessage();
            } catch (RuntimeException e) {
                LOG.error("COPY {} failed", ticket.path(), e);
                failure = "internal error in the pool (see its log)";
            }
            String outcome = failure;
            String from = source;
            ctx.executor().execute(() -> end(outcome, from, moved.get(), start, client));
        });
    }

    private void end(String failure, String source, long bytes, long start, String client) {
        ended = true;
        cancelMarkers();
        service.movers().otherTransferEnded();
        progress.end();
        Ticket ticket = admitted.ticket();
        long ms = (System.nanoTime() - start) / 1_000_000;
        service.stats().thirdPartyCopy(admitted.pull(), failure == null, bytes);
        TransferLog.write(new TransferRecord(Instant.now().toString(), "pool", service.poolName(), ticket.subject(), ticket.vo(),
                client, "COPY", ticket.path(), bytes, ms, source == null ? (admitted.pull() ? "remote" : "unknown") : source,
                0, 202, failure == null, service.poolName(), ticket.authentication()));
        if (failure != null) {
            LOG.info("COPY {} ({} {}) by {} failed after {} bytes: {}", ticket.path(), admitted.pull() ? "pull from" : "push to",
                    CopyService.hostOf(ticket.remote()), ticket.who(), bytes, failure);
        } else {
            LOG.info("COPY {} ({} {}) by {}: {} bytes in {} ms", ticket.path(), admitted.pull() ? "pull from" : "push to",
                    CopyService.hostOf(ticket.remote()), ticket.who(), bytes, ms);
        }
        if (!ctx.channel().isActive()) {
            return;
        }
        if (failure == null) {
            send(ctx, PerfMarkers.marker(Instant.now().getEpochSecond(), bytes));
        }
        send(ctx, failure == null ? PerfMarkers.SUCCESS : PerfMarkers.failure(failure));
        ctx.writeAndFlush(LastHttpContent.EMPTY_LAST_CONTENT).addListener(ChannelFutureListener.CLOSE);
    }

    private static void send(ChannelHandlerContext ctx, String text) {
        if (ctx.channel().isActive()) {
            ctx.writeAndFlush(new DefaultHttpContent(Unpooled.copiedBuffer(text, StandardCharsets.UTF_8)));
        }
    }

    private void cancelMarkers() {
        if (markers != null) {
            markers.cancel(false);
            markers = null;
        }
    }
}
