package org.gridcache.pool;

import io.netty.bootstrap.Bootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.ChannelPipeline;
import io.netty.channel.EventLoopGroup;
import io.netty.handler.codec.http.DefaultFullHttpRequest;
import io.netty.handler.codec.http.FullHttpRequest;
import io.netty.handler.codec.http.HttpClientCodec;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaderValues;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslContextBuilder;
import io.netty.handler.ssl.SslHandler;
import io.netty.handler.timeout.IdleStateHandler;
import java.net.URI;
import java.time.Duration;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.SSLException;
import javax.net.ssl.SSLParameters;

/**
 * Fetches {@code http://} and {@code https://} origins with a Netty HTTP client on the pool's own event loops: each
 * received buffer goes straight into the part file. Follows up to {@value #MAX_REDIRECTS} redirects, since grid
 * storage (dCache among others) redirects GETs from its head node to a data server. HTTPS trusts the JDK's default
 * trust store and checks the host name; client credentials come with grid security.
 */
final class HttpOriginFetcher implements OriginFetcher {
    static final int MAX_REDIRECTS = 5;
    static final Duration CONNECT_TIMEOUT = Duration.ofSeconds(10);
    /** Large chunks: fewer writes to the part file and fewer wake-ups of waiting movers than the default 8 KiB. */
    private static final int MAX_CHUNK = 1 << 20;

    private final EventLoopGroup group;
    private final Class<? extends Channel> channelType;
    private final Duration readTimeout;
    private final SslContext ssl;

    HttpOriginFetcher(EventLoopGroup group, Class<? extends Channel> channelType, Duration readTimeout) throws SSLException {
        this.group = group;
        this.channelType = channelType;
        this.readTimeout = readTimeout;
        this.ssl = SslContextBuilder.forClient().build();
    }

    @Override
    public boolean supports(URI origin) {
        String scheme = origin.getScheme() == null ? "" : origin.getScheme().toLowerCase(Locale.ROOT);
        return scheme.equals("http") || scheme.equals("https");
    }

    @Override
    public void fetch(URI origin, DownloadSink sink) {
        fetch(origin, sink, MAX_REDIRECTS);
    }

    /** Called again by the response handler for every redirect, with one redirect fewer to go. */
    void fetch(URI origin, DownloadSink sink, int redirectsLeft) {
        if (origin.getHost() == null) {
            sink.fail(FetchException.badGateway("origin URL has no host"));
            return;
        }
        boolean https = origin.getScheme().equalsIgnoreCase("https");
        int port = origin.getPort() > 0 ? origin.getPort() : https ? 443 : 80;
        Bootstrap bootstrap = new Bootstrap()
                .group(group)
                .channel(channelType)
                .option(ChannelOption.CONNECT_TIMEOUT_MILLIS, (int) CONNECT_TIMEOUT.toMillis())
                .handler(new ChannelInitializer<Channel>() {
                    @Override
                    protected void initChannel(Channel ch) {
                        ChannelPipeline p = ch.pipeline();
                        if (https) {
                            p.addLast("tls", new SslHandler(verifyingEngine(ch, origin.getHost(), port)));
                        }
                        p.addLast("codec", new HttpClientCodec(4096, 16384, MAX_CHUNK));
                        p.addLast("idle", new IdleStateHandler(readTimeout.toMillis(), 0, 0, TimeUnit.MILLISECONDS));
                        p.addLast("origin", new OriginResponseHandler(HttpOriginFetcher.this, origin, sink, redirectsLeft, readTimeout));
                    }
                });
        bootstrap.connect(origin.getHost(), port).addListener((ChannelFuture f) -> {
            if (f.isSuccess()) {
                f.channel().writeAndFlush(request(origin, port, https));
            } else {
                sink.fail(FetchException.badGateway("cannot reach origin " + OriginFetcher.describe(origin) + ": "
                        + OriginResponseHandler.reason(f.cause())));
            }
        });
    }

    private SSLEngine verifyingEngine(Channel ch, String host, int port) {
        SSLEngine engine = ssl.newEngine(ch.alloc(), host, port);
        SSLParameters params = engine.getSSLParameters();
        params.setEndpointIdentificationAlgorithm("HTTPS");
        engine.setSSLParameters(params);
        return engine;
    }

    private static FullHttpRequest request(URI origin, int port, boolean https) {
        String path = origin.getRawPath() == null || origin.getRawPath().isEmpty() ? "/" : origin.getRawPath();
        String target = origin.getRawQuery() == null ? path : path + "?" + origin.getRawQuery();
        FullHttpRequest request = new DefaultFullHttpRequest(HttpVersion.HTTP_1_1, HttpMethod.GET, target);
        boolean defaultPort = port == (https ? 443 : 80);
        request.headers()
                .set(HttpHeaderNames.HOST, defaultPort ? origin.getHost() : origin.getHost() + ":" + port)
                .set(HttpHeaderNames.USER_AGENT, "gridcache-pool")
                .set(HttpHeaderNames.ACCEPT, "*/*")
                .set(HttpHeaderNames.ACCEPT_ENCODING, HttpHeaderValues.IDENTITY) // the bytes as stored, never recoded
                .set(HttpHeaderNames.CONNECTION, HttpHeaderValues.CLOSE);
        return request;
    }

    @Override
    public void close() {
        // the event loops belong to the pool, which shuts them down
    }
}
