package org.gridcache.pool.serve;

import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.HttpUtil;
import org.gridcache.common.Ticket;

/** One request and what the pool needs of it while answering: method, path (for logs), Range, keep-alive. */
public final class Exchange {
    public final ChannelHandlerContext ctx;
    public final String method;
    public final boolean head;
    final boolean keepAlive;
    public final String range;
    final long startNanos = System.nanoTime();
    /** The normalised path once validated; the raw URI path until then (for log lines only). */
    public String path;
    /** The verified ticket, once the request got that far (for the transfer record). */
    public Ticket ticket;

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

    public long millis() {
        return (System.nanoTime() - startNanos) / 1_000_000;
    }

    public String client() {
        return String.valueOf(ctx.channel().remoteAddress());
    }
}
