package org.gridcache.pool.serve;

import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.socket.ChannelInputShutdownEvent;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpContent;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaderValues;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.handler.codec.http.LastHttpContent;
import io.netty.util.ReferenceCountUtil;
import java.nio.charset.StandardCharsets;
import org.gridcache.pool.http.Exchange;
import org.gridcache.pool.http.Refusal;
import org.gridcache.pool.http.Responses;
import org.gridcache.pool.mover.PoolStats;
import org.gridcache.pool.tpc.CopyExchange;
import org.gridcache.pool.tpc.CopyService;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The requests that carry a body or outlive their request, PUT and COPY, placed before the aggregator (a PUT's body
 * streams to the origin, never gathered; a COPY's copy runs after its request): their head passes the
 * {@link Admission} every request passes, then goes to its {@link Upload} or third-party copy; a refusal answers at
 * once. Other requests pass on. Every answer here closes the connection (a request pipelined behind a body is not
 * worth the bookkeeping); a refusal lingers ({@link LingeringClose}), so a client still sending its body reads it
 * instead of a reset.
 */
final class BodyRequests extends ChannelInboundHandlerAdapter {
    private static final Logger LOG = LoggerFactory.getLogger(BodyRequests.class);
    private static final HttpMethod COPY = HttpMethod.valueOf("COPY");
    private final Admission admission;
    private final Upload.Services uploads;
    private final CopyService copies;
    private final PoolStats stats;
    /** The PUT or COPY on this connection (at most one: the connection closes after it); null before. */
    private String method;
    private Upload upload;
    private CopyExchange copy;
    /** The body's last chunk has come from the client (whole: the codec marks one cut short as failed). */
    private boolean bodyRead;

    /** {@code uploads} null: a PUT is 405 further on; {@code copies} null: so is a COPY. */
    BodyRequests(Admission admission, Upload.Services uploads, CopyService copies, PoolStats stats) {
        this.admission = admission;
        this.uploads = uploads;
        this.copies = copies;
        this.stats = stats;
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        if (method == null && msg instanceof HttpRequest head && (uploads != null && head.method().equals(HttpMethod.PUT)
                || copies != null && head.method().equals(COPY))) {
            ReferenceCountUtil.release(msg);
            begin(ctx, head);
            return;
        }
        if (method == null) {
            ctx.fireChannelRead(msg);
            return;
        }
        if (msg instanceof HttpContent content) {
            bodyRead |= content instanceof LastHttpContent && content.decoderResult().isSuccess();
            if (upload != null) {
                upload.content(content);
                return;
            }
        }
        ReferenceCountUtil.release(msg); // a COPY's (empty) body, a refused body, a request pipelined behind: closed after
    }

    /** The one dispatch: admitted, a PUT goes to its upload, a COPY to its copy. */
    private void begin(ChannelHandlerContext ctx, HttpRequest head) {
        method = head.method().name();
        boolean put = head.method().equals(HttpMethod.PUT);
        if (put) {
            ctx.channel().config().setAutoRead(false); // the upload reads its body when the origin can take it
        }
        String path = Exchange.logPath(head.uri());
        try {
            Admission.Admitted admitted = admission.admit(head);
            path = admitted.path();
            if (put) {
                upload = Upload.start(ctx, head, admitted, uploads);
            } else {
                copy = copies.start(ctx, head, admitted.ticket(), admitted.token(), admitted.pull());
            }
        } catch (Refusal r) {
            answer(ctx, stats, method, path, r.status(), r.reason());
        }
    }

    @Override
    public void userEventTriggered(ChannelHandlerContext ctx, Object evt) throws Exception {
        if (evt instanceof ChannelInputShutdownEvent && method != null && !method.equals(COPY.name())) {
            if (!bodyRead) {
                ctx.close(); // the client's FIN before its body's end: it broke off (channelInactive abandons)
            }
            return; // else the body is all here: the upload's answer closes the connection
        }
        super.userEventTriggered(ctx, evt);
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) throws Exception {
        if (upload != null) {
            upload.clientGone();
        }
        if (copy != null) {
            copy.clientGone();
        }
        super.channelInactive(ctx);
    }

    /**
     * The answer to a PUT or a COPY that is not a copy's marker stream: its status, the one-line reason, then the
     * connection closed (lingering after a refusal, whose client may still be sending its body); a refusal logged once.
     */
    static void answer(ChannelHandlerContext ctx, PoolStats stats, String method, String path, HttpResponseStatus status,
                       String reason) {
        if (status.code() >= 400) {
            LOG.info("{} {} refused {} for {}: {}", method, path, status.code(), ctx.channel().remoteAddress(), reason);
        }
        stats.response(status.code());
        byte[] body = (reason + "\n").getBytes(StandardCharsets.UTF_8);
        FullHttpResponse response = new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, status, Unpooled.wrappedBuffer(body));
        response.headers().set(HttpHeaderNames.CONTENT_TYPE, "text/plain; charset=utf-8")
                .set(HttpHeaderNames.CONTENT_LENGTH, body.length)
                .set(HttpHeaderNames.CONNECTION, HttpHeaderValues.CLOSE);
        Responses.withRetryAfter(response);
        if (ctx.channel().isActive()) {
            ctx.writeAndFlush(response).addListener(status.code() >= 400 ? LingeringClose.AFTER_ANSWER : ChannelFutureListener.CLOSE);
        } else {
            response.release();
        }
    }
}
