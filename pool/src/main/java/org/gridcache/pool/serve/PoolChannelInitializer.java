package org.gridcache.pool.serve;

import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelPipeline;
import io.netty.channel.socket.SocketChannel;
import io.netty.handler.codec.http.HttpObjectAggregator;
import io.netty.handler.codec.http.HttpServerCodec;
import io.netty.handler.ssl.SslContext;
import io.netty.handler.stream.ChunkedWriteHandler;
import io.netty.handler.timeout.IdleStateHandler;
import java.util.function.Supplier;

/**
 * The pool's pipeline, in order: idle detection, with TLS the SSL handler and the conversion of file regions into
 * chunks it can encrypt, HTTP codec, aggregation of the (body-less) GET/HEAD requests, the request handler.
 */
public final class PoolChannelInitializer extends ChannelInitializer<SocketChannel> {
    /** Requests carry no body worth having; this bounds what a client can make the pool buffer. */
    private static final int MAX_REQUEST_BODY = 64 * 1024;
    /** The request line carries the ticket, which repeats the path and the origin URL: allow long ones. */
    private static final int MAX_REQUEST_LINE = 32 * 1024;
    private static final int MAX_HEADERS = 16 * 1024;
    /** A keep-alive connection with no request for this long is closed (never one with a transfer running). */
    static final int IDLE_SECONDS = 300;
    private final Supplier<PoolRequestHandler> handlers;
    private final SslContext tls;

    PoolChannelInitializer(Supplier<PoolRequestHandler> handlers) {
        this(handlers, null);
    }

    /** {@code tls} null: plain HTTP. */
    public PoolChannelInitializer(Supplier<PoolRequestHandler> handlers, SslContext tls) {
        this.handlers = handlers;
        this.tls = tls;
    }

    @Override
    protected void initChannel(SocketChannel ch) {
        ChannelPipeline p = ch.pipeline();
        p.addLast("idle", new IdleStateHandler(0, 0, IDLE_SECONDS));
        if (tls != null) {
            p.addLast("tls", tls.newHandler(ch.alloc()));
            p.addLast("chunks", new ChunkedWriteHandler());
            p.addLast("regions", new FileRegionChunks()); // movers write FileRegions; TLS needs bytes
        }
        p.addLast("http", new HttpServerCodec(MAX_REQUEST_LINE, MAX_HEADERS, 8192));
        p.addLast("aggregator", new HttpObjectAggregator(MAX_REQUEST_BODY));
        p.addLast("pool", handlers.get());
    }
}
