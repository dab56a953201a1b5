package org.gridcache.pool;

import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.HttpUtil;
import org.gridcache.common.Ticket;

/** One request and what the pool needs of it while answering: method, path (for logs), Range, keep-alive. */
final class Exchange {
    final ChannelHandlerContext ctx;
    final String method;
    final boolean head;
    final boolean keepAlive;
    final String range;
    final long startNanos = System.nanoTime();
    /** The normalised path once validated; the raw URI path until then (for log lines only). */
    String path;
    /** The verified ticket, once the request got that far (for the transfer record). */
    Ticket ticket;

    Exchange(ChannelHandlerContext ctx, HttpRequest request) {
        this.ctx = ctx;
        this.method = request.method().name();
        this.head = request.method().equals(HttpMethod.HEAD);
        this.keepAlive = HttpUtil.isKeepAlive(request);
        this.range = request.headers().get(HttpHeaderNames.RANGE);
        String uri = request.uri();
        int q = uri.indexOf('?');
        this.path = q < 0 ? uri : uri.substring(0, q); // never log the query: it holds the ticket
    }

    long millis() {
        return (System.nanoTime() - startNanos) / 1_000_000;
    }

    String client() {
        return String.valueOf(ctx.channel().remoteAddress());
    }
}
