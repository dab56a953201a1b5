package org.gridcache.pool.http;

import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelFuture;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpResponse;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.codec.http.HttpVersion;
import java.nio.charset.StandardCharsets;
import org.gridcache.common.checksum.Checksums;
import org.gridcache.common.checksum.DigestRequest;

/** The pool's small responses: refusals with their one-line reason, small text bodies, digests, Retry-After. */
public final class Responses {
    /** The wait a 503 asks for: short, as what it refuses for (a drain, a restart, a burst) passes or moves elsewhere. */
    public static final String RETRY_AFTER_SECONDS = "5";
    public static final String X_CACHE = "X-Cache";

    private Responses() {
    }

    /**
     * Adds {@code Digest} and {@code Repr-Digest} for what the client asked for and is known; the checksums are of
     * the whole file (RFC 3230's instance, RFC 9530's representation), also on a 206.
     */
    public static HttpResponse withDigests(HttpResponse response, DigestRequest wanted, Checksums known) {
        if (wanted.isEmpty() || known == null) {
            return response;
        }
        String digest = wanted.digest(known);
        if (digest != null) {
            response.headers().set(DigestRequest.DIGEST, digest);
        }
        String repr = wanted.reprDigest(known);
        if (repr != null) {
            response.headers().set(DigestRequest.REPR_DIGEST, repr);
        }
        return response;
    }

    /** A refusal with its one-line reason as text/plain; returns the future of the write. */
    public static ChannelFuture sendError(Exchange ex, HttpResponseStatus status, String reason) {
        return sendError(ex, errorResponse(ex, status, reason));
    }

    public static ChannelFuture sendError(Exchange ex, FullHttpResponse response) {
        return ex.ctx.writeAndFlush(response);
    }

    /** A complete small body (metrics, health); HEAD gets the head only. */
    public static FullHttpResponse text(Exchange ex, HttpResponseStatus status, String contentType, String body) {
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        FullHttpResponse response = new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, status,
                ex.head ? Unpooled.EMPTY_BUFFER : Unpooled.wrappedBuffer(bytes));
        response.headers()
                .set(HttpHeaderNames.CONTENT_TYPE, contentType)
                .set(HttpHeaderNames.CONTENT_LENGTH, bytes.length)
                .set(HttpHeaderNames.CACHE_CONTROL, "no-store");
        HttpUtil.setKeepAlive(response, ex.keepAlive);
        return response;
    }

    public static FullHttpResponse errorResponse(Exchange ex, HttpResponseStatus status, String reason) {
        byte[] text = (reason + "\n").getBytes(StandardCharsets.UTF_8);
        FullHttpResponse response = new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, status,
                ex.head ? Unpooled.EMPTY_BUFFER : Unpooled.wrappedBuffer(text));
        response.headers()
                .set(HttpHeaderNames.CONTENT_TYPE, "text/plain; charset=UTF-8")
                .set(HttpHeaderNames.CONTENT_LENGTH, text.length);
        HttpUtil.setKeepAlive(response, ex.keepAlive);
        return withRetryAfter(response);
    }

    /**
     * Gives a 503 its {@code Retry-After} (RFC 9110 §10.2.3): every 503 of a pool (drained, read-only, shutting down,
     * too many pipelined requests) means "not now", and a client told when to come back retries instead of failing.
     */
    public static <R extends HttpResponse> R withRetryAfter(R response) {
        if (response.status().code() == HttpResponseStatus.SERVICE_UNAVAILABLE.code()) {
            response.headers().set(HttpHeaderNames.RETRY_AFTER, RETRY_AFTER_SECONDS);
        }
        return response;
    }
}
