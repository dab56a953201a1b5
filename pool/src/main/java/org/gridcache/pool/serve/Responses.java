package org.gridcache.pool.serve;

import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelFuture;
import io.netty.handler.codec.DateFormatter;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.DefaultHttpResponse;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaderValues;
import io.netty.handler.codec.http.HttpHeaders;
import io.netty.handler.codec.http.HttpResponse;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.codec.http.HttpVersion;
import java.nio.charset.StandardCharsets;
import java.util.Date;
import org.gridcache.common.checksum.Checksums;
import org.gridcache.common.checksum.DigestRequest;
import org.gridcache.pool.mover.ByteRange;
import org.gridcache.pool.mover.MultipartBody;

/** The pool's response heads and its one error helper. */
public final class Responses {
    /** The wait a 503 asks for: short, as what it refuses for (a drain, a restart, a burst) passes or moves elsewhere. */
    static final String RETRY_AFTER_SECONDS = "5";
    public static final String X_CACHE = "X-Cache";

    private Responses() {
    }

    /** The head of a file response (200 or 206); {@code mtime} in epoch seconds or -1, {@code etag} may be null. */
    public static HttpResponse fileHead(Exchange ex, ByteRange range, long size, long mtime, String etag, boolean hit) {
        boolean partial = range.kind() == ByteRange.Kind.PARTIAL;
        HttpResponse response = head(ex, partial ? HttpResponseStatus.PARTIAL_CONTENT : HttpResponseStatus.OK,
                HttpHeaderValues.APPLICATION_OCTET_STREAM, partial ? range.length() : size, mtime, etag, hit);
        if (partial) {
            response.headers().set(HttpHeaderNames.CONTENT_RANGE, range.contentRange(size));
        }
        return response;
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

    /** The head of a 206 multipart/byteranges response. */
    public static HttpResponse multipartHead(Exchange ex, MultipartBody body, long mtime, String etag, boolean hit) {
        return head(ex, HttpResponseStatus.PARTIAL_CONTENT, body.contentType(), body.contentLength(), mtime, etag, hit);
    }

    private static HttpResponse head(Exchange ex, HttpResponseStatus status, CharSequence contentType, long contentLength,
                                     long mtime, String etag, boolean hit) {
        HttpResponse response = new DefaultHttpResponse(HttpVersion.HTTP_1_1, status);
        HttpHeaders h = response.headers();
        h.set(HttpHeaderNames.CONTENT_TYPE, contentType)
                .set(HttpHeaderNames.CONTENT_LENGTH, contentLength)
                .set(HttpHeaderNames.ACCEPT_RANGES, HttpHeaderValues.BYTES)
                .set(X_CACHE, hit ? "HIT" : "MISS");
        if (mtime >= 0) {
            h.set(HttpHeaderNames.LAST_MODIFIED, DateFormatter.format(new Date(mtime * 1000)));
        }
        if (etag != null) {
            h.set(HttpHeaderNames.ETAG, etag);
        }
        HttpUtil.setKeepAlive(response, ex.keepAlive);
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
    static FullHttpResponse text(Exchange ex, HttpResponseStatus status, String contentType, String body) {
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
