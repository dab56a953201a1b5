package org.gridcache.pool.mover;

import io.netty.handler.codec.DateFormatter;
import io.netty.handler.codec.http.DefaultHttpResponse;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaderValues;
import io.netty.handler.codec.http.HttpHeaders;
import io.netty.handler.codec.http.HttpResponse;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.codec.http.HttpVersion;
import java.util.Date;
import org.gridcache.pool.http.Exchange;
import org.gridcache.pool.http.Responses;

/** The heads of the responses movers send: a file whole or in part (200, 206), or its ranges as multipart/byteranges. */
public final class FileHeads {
    private FileHeads() {
    }

    /**
     * The head of a file response (200 or 206); {@code mtime} in epoch seconds or -1, {@code etag} may be null,
     * {@code cacheStatus} the {@link CacheStatus} value.
     */
    public static HttpResponse fileHead(Exchange ex, ByteRange range, long size, long mtime, String etag, boolean hit,
                                        String cacheStatus) {
        boolean partial = range.kind() == ByteRange.Kind.PARTIAL;
        HttpResponse response = head(ex, partial ? HttpResponseStatus.PARTIAL_CONTENT : HttpResponseStatus.OK,
                HttpHeaderValues.APPLICATION_OCTET_STREAM, partial ? range.length() : size, mtime, etag, hit, cacheStatus);
        if (partial) {
            response.headers().set(HttpHeaderNames.CONTENT_RANGE, range.contentRange(size));
        }
        return response;
    }

    /** The head of a 206 multipart/byteranges response. */
    public static HttpResponse multipartHead(Exchange ex, MultipartBody body, long mtime, String etag, boolean hit,
                                             String cacheStatus) {
        return head(ex, HttpResponseStatus.PARTIAL_CONTENT, body.contentType(), body.contentLength(), mtime, etag, hit,
                cacheStatus);
    }

    private static HttpResponse head(Exchange ex, HttpResponseStatus status, CharSequence contentType, long contentLength,
                                     long mtime, String etag, boolean hit, String cacheStatus) {
        HttpResponse response = new DefaultHttpResponse(HttpVersion.HTTP_1_1, status);
        HttpHeaders h = response.headers();
        h.set(HttpHeaderNames.CONTENT_TYPE, contentType)
                .set(HttpHeaderNames.CONTENT_LENGTH, contentLength)
                .set(HttpHeaderNames.ACCEPT_RANGES, HttpHeaderValues.BYTES)
                .set(Responses.X_CACHE, hit ? "HIT" : "MISS")
                .set(CacheStatus.HEADER, cacheStatus);
        if (mtime >= 0) {
            h.set(HttpHeaderNames.LAST_MODIFIED, DateFormatter.format(new Date(mtime * 1000)));
        }
        if (etag != null) {
            h.set(HttpHeaderNames.ETAG, etag);
        }
        HttpUtil.setKeepAlive(response, ex.keepAlive);
        return response;
    }
}
