package org.gridcache.pool.http;

import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.http.FullHttpRequest;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaders;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpUtil;
import org.gridcache.common.ticket.Ticket;
import org.gridcache.common.checksum.DigestRequest;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One request on its way down the pool's pipeline, and what the pool needs of it while answering: method, path,
 * Range, keep-alive, and what earlier handlers established (the checked path, the verified ticket).
 *
 * <p>A message rather than channel attributes: what a handler established travels with the one request it belongs
 * to, so a request pipelined behind another can never see its predecessor's ticket, and each handler's input is in
 * its signature. Immutable: a handler that establishes something passes on a copy ({@link #withTarget},
 * {@link #withTicket}). The request's body is not kept (a pool reads none), so nothing here is reference-counted.
 */
public final class Exchange {
    private static final Logger LOG = LoggerFactory.getLogger(Exchange.class);
    /**
     * Where a connection's exchanges take their turns, one at a time (the pipelining gate): counts each answer and,
     * once it is out, closes the connection or passes on the next request.
     */
    public interface Turns {
        void counted(int status);

        void next(boolean keepOpen);
    }

    /** The context of the pipelining gate: writes from it pass every outbound handler (codec, TLS). */
    public final ChannelHandlerContext ctx;
    public final String method;
    public final boolean head;
    public final boolean keepAlive;
    public final String range;
    /** The checksums the client asked for ({@code Want-Digest}, {@code Want-Repr-Digest}); often none. */
    public final DigestRequest digests;
    /** The normalised path once checked; the raw URI path until then (for log lines only). */
    public final String path;
    /** The verified ticket, once the request got that far (for the transfer record); null before. */
    public final Ticket ticket;
    public final boolean decoded;
    public final HttpVersion version;
    public final String uri;
    public final HttpHeaders headers;
    /**
     * The signed ticket as the client sent it ({@code gridcache-ticket}, read from the query once, with the path),
     * verified once {@link #ticket} is set: the door wants it back when the pool asks for a
     * credential. Null when the query has none.
     */
    public final String token;
    /** The path as the request names it, decoded but not normalised (a ticket opens exactly that); null until checked. */
    private final String sentPath;
    private final long startNanos;
    private final Turns gate;

    public Exchange(ChannelHandlerContext ctx, FullHttpRequest request, Turns gate) {
        this.ctx = ctx;
        this.gate = gate;
        this.method = request.method().name();
        this.head = request.method().equals(HttpMethod.HEAD);
        this.keepAlive = HttpUtil.isKeepAlive(request);
        this.range = request.headers().get(HttpHeaderNames.RANGE);
        this.digests = DigestRequest.of(request.headers().get(DigestRequest.WANT_DIGEST), request.headers().get(DigestRequest.WANT_REPR_DIGEST));
        this.decoded = request.decoderResult().isSuccess();
        this.version = request.protocolVersion();
        this.uri = request.uri();
        this.headers = request.headers();
        this.path = logPath(uri);
        this.ticket = null;
        this.token = null;
        this.sentPath = null;
        this.startNanos = System.nanoTime();
    }

    private Exchange(Exchange from, String sentPath, String path, Ticket ticket, String token) {
        this.ctx = from.ctx;
        this.gate = from.gate;
        this.method = from.method;
        this.head = from.head;
        this.keepAlive = from.keepAlive;
        this.range = from.range;
        this.digests = from.digests;
        this.decoded = from.decoded;
        this.version = from.version;
        this.uri = from.uri;
        this.headers = from.headers;
        this.startNanos = from.startNanos;
        this.sentPath = sentPath;
        this.path = path;
        this.ticket = ticket;
        this.token = token;
    }

    /** The target once read: the path as sent (decoded), normalised, and the ticket in the query (null: none). */
    public Exchange withTarget(String sent, String normalised, String sentToken) {
        return new Exchange(this, sent, normalised, ticket, sentToken);
    }

    /** The path as the request names it, decoded but not normalised (a ticket opens exactly that); null until read. */
    public String sentPath() {
        return sentPath;
    }

    public Exchange withTicket(Ticket verified) {
        return new Exchange(this, sentPath, path, verified, token);
    }

    /** A request's target as log lines name it before its path is checked: never the query, which holds the ticket. */
    public static String logPath(String uri) {
        int q = uri.indexOf('?');
        return q < 0 ? uri : uri.substring(0, q);
    }

    public long millis() {
        return (System.nanoTime() - startNanos) / 1_000_000;
    }

    public String client() {
        return String.valueOf(ctx.channel().remoteAddress());
    }

    /** The response to this request is out: the connection closes, or serves the next pipelined request. */
    public void end(boolean reusable) {
        gate.next(reusable && keepAlive);
    }

    /** Answers with a complete response, then ends the exchange (closing the connection if the response says so). */
    public void reply(FullHttpResponse response) {
        boolean reusable = HttpUtil.isKeepAlive(response);
        ctx.writeAndFlush(response).addListener((ChannelFutureListener) f -> end(f.isSuccess() && reusable));
    }

    /** Answers a refusal: its status and one-line reason. */
    public void refuse(Refusal refusal) {
        sendError(refusal.status(), refusal.reason());
    }

    public void sendError(HttpResponseStatus status, String reason) {
        sendError(Responses.errorResponse(this, status, reason), reason);
    }

    /**
     * A refusal after which nothing more on this connection can be trusted to be framed as the client meant (a
     * request the codec could not parse, a foreign HTTP version): answered with {@code Connection: close}, then closed.
     */
    public void sendErrorAndClose(HttpResponseStatus status, String reason) {
        FullHttpResponse response = Responses.errorResponse(this, status, reason);
        HttpUtil.setKeepAlive(response, false);
        sendError(response, reason);
    }

    /** Every refusal before a mover exists ends here: one log line, the status counted, the one-line reason. */
    public void sendError(FullHttpResponse response, String reason) {
        LOG.info("{} {} refused {} for {}: {}", method, path, response.status().code(), client(), reason);
        gate.counted(response.status().code());
        reply(response);
    }
}
