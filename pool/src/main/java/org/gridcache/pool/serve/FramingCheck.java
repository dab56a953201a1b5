package org.gridcache.pool.serve;

import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaderValues;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.util.ReferenceCountUtil;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A request's framing, checked before any handler acts on it (RFC 9112 §6): a {@code Transfer-Encoding} whose last
 * coding is not {@code chunked}, that chunks twice or comes in HTTP/1.0 is 400, one with a coding the pool does not
 * implement ({@code gzip, chunked}) 501; both answered with the connection closed, as nothing after them can be told
 * apart from their body. A chunked request is served, then its connection is closed: the codec dropped the
 * {@code Content-Length} it may also have had, and whatever a front end took for its body is never read here as a
 * request of its own (request smuggling).
 */
final class FramingCheck extends ChannelInboundHandlerAdapter {
    private static final Logger LOG = LoggerFactory.getLogger(FramingCheck.class);
    private boolean refused;

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        if (refused) {
            ReferenceCountUtil.release(msg); // the rest of the connection: its framing is unknown
            return;
        }
        if (msg instanceof HttpRequest request && request.headers().contains(HttpHeaderNames.TRANSFER_ENCODING)) {
            Refusal refusal = refusal(request.protocolVersion(), request.headers().getAll(HttpHeaderNames.TRANSFER_ENCODING));
            if (refusal != null) {
                refused = true;
                ReferenceCountUtil.release(msg);
                LOG.info("{} {} refused {} for {}: {}", request.method(), pathOf(request.uri()), refusal.status().code(),
                        ctx.channel().remoteAddress(), refusal.reason());
                ctx.writeAndFlush(response(refusal)).addListener(LingeringClose.AFTER_ANSWER);
                return;
            }
            HttpUtil.setKeepAlive(request, false);
        }
        ctx.fireChannelRead(msg);
    }

    record Refusal(HttpResponseStatus status, String reason) {
    }

    /** Null when the codings are exactly {@code chunked} in HTTP/1.1; else the answer. */
    static Refusal refusal(HttpVersion version, List<String> headerValues) {
        if (!version.equals(HttpVersion.HTTP_1_1)) {
            return new Refusal(HttpResponseStatus.BAD_REQUEST, "Transfer-Encoding in an HTTP/1.0 request");
        }
        List<String> codings = new ArrayList<>();
        for (String value : headerValues) {
            for (String coding : value.split(",", -1)) {
                codings.add(coding.trim().toLowerCase(Locale.ROOT));
            }
        }
        if (!codings.get(codings.size() - 1).equals(HttpHeaderValues.CHUNKED.toString())) {
            return new Refusal(HttpResponseStatus.BAD_REQUEST, "Transfer-Encoding whose last coding is not chunked");
        }
        if (codings.size() > 1) {
            return codings.subList(0, codings.size() - 1).contains(HttpHeaderValues.CHUNKED.toString())
                    ? new Refusal(HttpResponseStatus.BAD_REQUEST, "Transfer-Encoding chunked more than once")
                    : new Refusal(HttpResponseStatus.NOT_IMPLEMENTED, "transfer coding not implemented: " + codings.get(0));
        }
        return null;
    }

    private static FullHttpResponse response(Refusal refusal) {
        byte[] text = (refusal.reason() + "\n").getBytes(StandardCharsets.UTF_8);
        FullHttpResponse response = new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, refusal.status(), Unpooled.wrappedBuffer(text));
        response.headers().set(HttpHeaderNames.CONTENT_TYPE, "text/plain; charset=UTF-8")
                .set(HttpHeaderNames.CONTENT_LENGTH, text.length)
                .set(HttpHeaderNames.CONNECTION, HttpHeaderValues.CLOSE);
        return response;
    }

    /** Never the query: it holds the ticket. */
    private static String pathOf(String uri) {
        int q = uri.indexOf('?');
        return q < 0 ? uri : uri.substring(0, q);
    }
}
