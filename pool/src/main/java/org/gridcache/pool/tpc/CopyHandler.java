package org.gridcache.pool.tpc;

import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.DefaultHttpContent;
import io.netty.handler.codec.http.DefaultHttpResponse;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaderValues;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.HttpResponse;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.handler.codec.http.LastHttpContent;
import io.netty.handler.codec.http.QueryStringDecoder;
import io.netty.util.ReferenceCountUtil;
import io.netty.util.concurrent.ScheduledFuture;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.gridcache.common.GridPath;
import org.gridcache.common.OriginEntry;
import org.gridcache.common.PoolRecord;
import org.gridcache.common.Ticket;
import org.gridcache.common.TicketException;
import org.gridcache.common.TransferLog;
import org.gridcache.common.TransferRecord;
import org.gridcache.common.UrlCodec;
import org.gridcache.pool.serve.Responses;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A third-party COPY at the pool, placed before the aggregator (a COPY has no body worth reading; the copy itself
 * outlives the request). Admission as for a PUT: a ticket its door signed (never a pool) for this path and pool with
 * the tpc operation the headers ask for, its {@code remote} equal to the request's {@code Source} (pull) or
 * {@code Destination} (push) — else 403, so a stolen ticket cannot be aimed elsewhere —, the origin from the mount
 * table. Then {@code 202 Accepted}, {@code text/perf-marker-stream}, chunked: a performance marker every
 * {@code tpc.marker-interval} while a worker thread does the copy, and the last line {@code success: Created} or
 * {@code failure: <reason>}. A client that leaves cancels the copy, which leaves nothing behind. The connection
 * closes after the answer.
 */
final class CopyHandler extends ChannelInboundHandlerAdapter {
    private static final Logger LOG = LoggerFactory.getLogger(CopyHandler.class);
    private static final HttpMethod COPY = HttpMethod.valueOf("COPY");
    private final CopyService service;
    private Copy running;
    private boolean active;
    private boolean ended;
    private ScheduledFuture<?> markers;

    CopyHandler(CopyService service) {
        this.service = service;
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        if (!active && msg instanceof HttpRequest request && request.method().equals(COPY)) {
            active = true;
            ReferenceCountUtil.release(msg);
            begin(ctx, request);
            return;
        }
        if (active) {
            ReferenceCountUtil.release(msg); // the COPY's (empty) body, or a request pipelined behind it: closed after
            return;
        }
        ctx.fireChannelRead(msg);
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) throws Exception {
        if (running != null && !ended) {
            LOG.info("COPY: the client left; the copy is cancelled");
            running.cancel();
        }
        cancelMarkers();
        super.channelInactive(ctx);
    }

    private void begin(ChannelHandlerContext ctx, HttpRequest request) {
        CopyOrder admitted;
        try {
            admitted = admit(request);
        } catch (Refusal r) {
            refuse(ctx, r.status, r.getMessage());
            return;
        }
        Ticket ticket = admitted.ticket();
        Copy copy = admitted.pull() ? new Pull(service, admitted) : new Push(service, admitted);
        running = copy;
        service.movers().otherTransferStarted();
        HttpResponse head = new DefaultHttpResponse(HttpVersion.HTTP_1_1, HttpResponseStatus.ACCEPTED);
        head.headers().set(HttpHeaderNames.CONTENT_TYPE, PerfMarkers.CONTENT_TYPE)
                .set(HttpHeaderNames.TRANSFER_ENCODING, HttpHeaderValues.CHUNKED)
                .set(HttpHeaderNames.CONNECTION, HttpHeaderValues.CLOSE)
                .set(HttpHeaderNames.CACHE_CONTROL, "no-store");
        ctx.writeAndFlush(head);
        service.stats().response(202);
        AtomicLong moved = new AtomicLong();
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
            ctx.executor().execute(() -> end(ctx, admitted, outcome, from, moved.get(), start, client));
        });
    }

    private void end(ChannelHandlerContext ctx, CopyOrder admitted, String failure, String source, long bytes, long start,
                     String client) {
        ended = true;
        cancelMarkers();
        service.movers().otherTransferEnded();
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

    private static final class Refusal extends Exception {
        private static final long serialVersionUID = 1L;
        private final transient HttpResponseStatus status;

        Refusal(HttpResponseStatus status, String reason) {
            super(reason, null, false, false);
            this.status = status;
        }
    }

    private CopyOrder admit(HttpRequest request) throws Refusal {
        if (!request.decoderResult().isSuccess()) {
            throw new Refusal(HttpResponseStatus.BAD_REQUEST, "malformed request");
        }
        String path;
        String sent; // the path as named: a ticket opens exactly that
        try {
            sent = UrlCodec.decode(new QueryStringDecoder(request.uri()).rawPath());
            path = GridPath.normalize(sent);
        } catch (IllegalArgumentException e) {
            throw new Refusal(HttpResponseStatus.BAD_REQUEST, "bad path: " + e.getMessage());
        }
        String source = request.headers().get("Source");
        boolean pull = source != null;
        String remote = pull ? source : request.headers().get("Destination");
        if (remote == null) {
            throw new Refusal(HttpResponseStatus.BAD_REQUEST, "a COPY at a pool is a third-party copy: it needs a Source or a Destination");
        }
        String token = tokenOf(request.uri());
        Ticket ticket;
        try {
            ticket = service.tickets().verify(token, sent, service.poolName(), pull ? Ticket.TPC_PULL : Ticket.TPC_PUSH);
        } catch (TicketException e) {
            throw new Refusal(HttpResponseStatus.FORBIDDEN, e.getMessage());
        }
        if (ticket.issuedByPool()) {
            throw new Refusal(HttpResponseStatus.FORBIDDEN, "only a door grants a third-party copy: a pool's ticket cannot");
        }
        if (ticket.remote() == null || !ticket.remote().equals(normalized(remote))) {
            throw new Refusal(HttpResponseStatus.FORBIDDEN, "the " + (pull ? "Source" : "Destination")
                    + " is not the remote the ticket was issued for: ask the door again");
        }
        Optional<OriginEntry> entry = service.mounts().resolve(path);
        if (entry.isEmpty()) {
            throw new Refusal(HttpResponseStatus.NOT_FOUND, "no origin serves this path now");
        }
        if (entry.get().credentialMode() != ticket.credential()) {
            throw new Refusal(HttpResponseStatus.FORBIDDEN, "the mount table changed since the ticket was issued: ask the door again");
        }
        Ticket resolved = ticket.withOrigin(entry.get().urlOf(path));
        String state = service.operations().state();
        if (pull && !state.equals(PoolRecord.ENABLED)) {
            throw new Refusal(HttpResponseStatus.SERVICE_UNAVAILABLE, "pool " + service.poolName() + " is " + state
                    + " and takes no third-party pull: ask the door again");
        }
        String refusal = pull ? null : service.operations().refusal(resolved); // a push reads, as a GET: drained or a read-only miss
        if (refusal != null) {
            throw new Refusal(HttpResponseStatus.SERVICE_UNAVAILABLE, refusal);
        }
        ChecksumCheck check;
        Map<String, String> headers;
        try {
            check = ChecksumCheck.of(request.headers().get(ChecksumCheck.REQUIRE), request.headers().get("Want-Digest"));
            headers = TransferHeaders.of(request.headers());
        } catch (IllegalArgumentException e) {
            throw new Refusal(HttpResponseStatus.BAD_REQUEST, e.getMessage());
        }
        return new CopyOrder(resolved, token, pull, check, headers);
    }

    /** The remote URL as the door wrote it into the ticket. */
    private static String normalized(String remote) {
        try {
            return new URI(remote.trim()).toASCIIString();
        } catch (URISyntaxException e) {
            return null;
        }
    }

    private void refuse(ChannelHandlerContext ctx, HttpResponseStatus status, String reason) {
        ended = true;
        LOG.info("COPY refused {} for {}: {}", status.code(), ctx.channel().remoteAddress(), reason);
        service.stats().response(status.code());
        byte[] body = (reason + "\n").getBytes(StandardCharsets.UTF_8);
        FullHttpResponse response = new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, status, Unpooled.wrappedBuffer(body));
        response.headers().set(HttpHeaderNames.CONTENT_TYPE, "text/plain; charset=utf-8")
                .set(HttpHeaderNames.CONTENT_LENGTH, body.length)
                .set(HttpHeaderNames.CONNECTION, HttpHeaderValues.CLOSE);
        Responses.withRetryAfter(response);
        ctx.writeAndFlush(response).addListener(ChannelFutureListener.CLOSE);
    }

    /** The ticket in the query; null when there is none, or the query is malformed (no ticket can be read from it). */
    private static String tokenOf(String uri) {
        try {
            List<String> values = new QueryStringDecoder(uri).parameters().get(Ticket.QUERY_PARAMETER);
            return values == null || values.isEmpty() ? null : values.get(0);
        } catch (IllegalArgumentException e) {
            return null;
        }
    }
}
