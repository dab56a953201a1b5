package org.gridcache.pool.origin;

import io.netty.bootstrap.Bootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.ChannelPipeline;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.handler.codec.http.DefaultFullHttpRequest;
import io.netty.handler.codec.http.FullHttpRequest;
import io.netty.handler.codec.http.HttpClientCodec;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaderValues;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpObject;
import io.netty.handler.codec.http.HttpResponse;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslContextBuilder;
import io.netty.handler.ssl.SslHandler;
import io.netty.handler.timeout.IdleStateEvent;
import io.netty.handler.timeout.IdleStateHandler;
import java.io.IOException;
import java.net.URI;
import java.time.Duration;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.SSLException;
import javax.net.ssl.SSLParameters;
import org.gridcache.common.ticket.Ticket;
import org.gridcache.common.checksum.DigestRequest;
import org.gridcache.pool.http.PoolSecurity;
import org.gridcache.pool.access.DelegatedCredentials;
import org.gridcache.pool.http.ReceiveSlabs;
import org.gridcache.pool.http.SlabReads;
import org.gridcache.pool.http.FetchException;
import org.gridcache.pool.http.PoolTls;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Fetches {@code http://} and {@code https://} origins with a Netty HTTP client on the pool's own event loops: each
 * received buffer goes straight into the part file. Follows up to {@value #MAX_REDIRECTS} redirects, since grid
 * storage (dCache among others) redirects GETs from its head node to a data server, but only those its
 * {@link RedirectPolicy} allows (no https to http, no host outside the mount table and {@code pool.redirect-hosts}). HTTPS checks the host name, and
 * the server's chain against the pool's CA directory (the JDK's trust store on a pool without grid trust). What the
 * pool presents follows the ticket: the user's delegated proxy for "user" origins (obtained beforehand by
 * {@link OriginAccess}), the pool's host certificate for "service" origins, nothing otherwise.
 */
public final class HttpOriginFetcher implements OriginFetcher {
    private static final Logger LOG = LoggerFactory.getLogger(HttpOriginFetcher.class);
    public static final int MAX_REDIRECTS = 5;
    static final Duration CONNECT_TIMEOUT = Duration.ofSeconds(10);
    /** Large chunks: fewer writes to the part file and fewer wake-ups of waiting movers than the default 8 KiB. */
    private static final int MAX_CHUNK = 1 << 20;
    /**
     * Reads of up to MAX_CHUNK where the origin sends that fast (Netty's default stops at 64 KiB): each read is a
     * chunk the fill hands to its disk writer and its movers, each hand-off a wake-up of another thread.
     */
    private static final io.netty.channel.RecvByteBufAllocator READS =
            new io.netty.channel.AdaptiveRecvByteBufAllocator(64 << 10, 64 << 10, MAX_CHUNK);

    private final EventLoopGroup group;
    private final Class<? extends Channel> channelType;
    private final Duration readTimeout;
    private final Supplier<SslContext> ssl;
    private final Supplier<SslContext> serviceSsl;
    private final DelegatedCredentials credentials;
    private final RedirectPolicy redirects;
    private final ReceiveSlabs slabs;
    private final PermissionCheck permissionCheck = new HttpPermissionCheck(this);
    private final RangedReads blockReads = new HttpRangedReads(this);

    /** As below, with receive memory of its own. */
    public HttpOriginFetcher(EventLoopGroup group, Class<? extends Channel> channelType, Duration readTimeout, PoolSecurity security,
                      DelegatedCredentials credentials, RedirectPolicy redirects) throws SSLException {
        this(group, channelType, readTimeout, security, credentials, redirects, new ReceiveSlabs(256));
    }

    /**
     * {@code credentials} null: no user credentials (a plain pool). {@code redirects}: which redirects are followed.
     * {@code slabs}: the pool's receive memory.
     */
    public HttpOriginFetcher(EventLoopGroup group, Class<? extends Channel> channelType, Duration readTimeout, PoolSecurity security,
                      DelegatedCredentials credentials, RedirectPolicy redirects, ReceiveSlabs slabs) throws SSLException {
        this.group = group;
        this.slabs = slabs;
        this.redirects = redirects;
        this.channelType = channelType;
        this.readTimeout = readTimeout;
        this.credentials = credentials;
        if (security.tls()) {
            this.ssl = () -> PoolTls.client(null, security.trust());
            this.serviceSsl = () -> PoolTls.client(security.hostCredential(), security.trust());
        } else {
            SslContext jdkTrust = SslContextBuilder.forClient().build();
            this.ssl = () -> jdkTrust;
            this.serviceSsl = null;
        }
    }

    @Override
    public boolean supports(URI origin) {
        String scheme = origin.getScheme() == null ? "" : origin.getScheme().toLowerCase(Locale.ROOT);
        return scheme.equals("http") || scheme.equals("https");
    }

    @Override
    public void fetch(URI origin, DownloadSink sink) {
        fetch(origin, sink, MAX_REDIRECTS, ssl, false); // a peer pool: its Digest would hold back cut-through
    }

    @Override
    public void fetch(URI origin, DownloadSink sink, Ticket ticket) {
        Supplier<SslContext> tls;
        try {
            tls = tlsFor(ticket);
        } catch (FetchException e) {
            sink.fail(e);
            return;
        }
        fetch(origin, sink, MAX_REDIRECTS, tls, true);
    }

    /**
     * The TLS client contexts presenting what the ticket's origin needs, a new one per connection: a context
     * shared between connections would resume TLS sessions, and mod_gridsite sees a resumed session (which carries
     * no certificate chain) as an anonymous client.
     */
    Supplier<SslContext> tlsFor(Ticket ticket) throws FetchException {
        return DelegatedCredentials.choose(ticket, credentials, ssl, serviceSsl, this::presenting);
    }

    /** What presents {@code credential}: its TLS context, or for a user's bearer token TLS without one plus the token. */
    Supplier<SslContext> presenting(DelegatedCredentials.OriginCredential credential) {
        return credential.bearerToken() != null ? new BearerPresentation(ssl, credential.bearerToken()) : credential.tls();
    }

    @Override
    public Optional<RangedReads> blockReads() {
        return Optional.of(blockReads);
    }

    @Override
    public Optional<PermissionCheck> permissionCheck() {
        return Optional.of(permissionCheck);
    }

    /**
     * A HEAD on {@code origin} presenting {@code tls}'s credential: completes with the origin's status (after
     * following redirects), or fails when the origin cannot be reached.
     */
    public CompletableFuture<Integer> head(URI origin, Supplier<SslContext> tls) {
        CompletableFuture<Integer> result = new CompletableFuture<>();
        head(origin, tls, MAX_REDIRECTS, result);
        return result;
    }

    private void head(URI origin, Supplier<SslContext> tls, int redirectsLeft, CompletableFuture<Integer> result) {
        boolean https = "https".equalsIgnoreCase(origin.getScheme());
        int port = origin.getPort() > 0 ? origin.getPort() : https ? 443 : 80;
        if (origin.getHost() == null) {
            result.completeExceptionally(new IllegalArgumentException("origin URL has no host"));
            return;
        }
        connect(origin, https, port, tls, new HttpClientCodec(), "head", new SimpleChannelInboundHandler<HttpObject>() {
            @Override
            protected void channelRead0(ChannelHandlerContext ctx, HttpObject msg) {
                if (msg instanceof HttpResponse response && !result.isDone()) {
                    int code = response.status().code();
                    String location = response.headers().get(HttpHeaderNames.LOCATION);
                    ctx.close();
                    if (OriginResponseHandler.isRedirect(code) && location != null && redirectsLeft > 0) {
                        try {
                            head(nextHop(origin, location), tls, redirectsLeft - 1, result);
                        } catch (FetchException e) {
                            result.completeExceptionally(e);
                        }
                        return;
                    }
                    result.complete(code);
                }
            }

            @Override
            public void userEventTriggered(ChannelHandlerContext ctx, Object evt) {
                if (evt instanceof IdleStateEvent) {
                    result.completeExceptionally(new IOException("origin sent nothing for " + readTimeout.toSeconds() + " s"));
                    ctx.close();
                }
            }

            @Override
            public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
                result.completeExceptionally(cause);
                ctx.close();
            }

            @Override
            public void channelInactive(ChannelHandlerContext ctx) {
                result.completeExceptionally(new IOException("origin closed the connection"));
            }
        }).addListener((ChannelFuture f) -> {
            if (f.isSuccess()) {
                FullHttpRequest request = BearerPresentation.authorize(request(origin, port, https, false), tls);
                request.setMethod(HttpMethod.HEAD);
                f.channel().writeAndFlush(request);
            } else {
                result.completeExceptionally(f.cause());
            }
        });
    }

    /**
     * Where {@code origin}'s redirect to {@code location} leads, if the pool may follow it ({@link RedirectPolicy}):
     * the next hop is presented the same credential, so a refused redirect never reaches the host it names.
     */
    URI nextHop(URI origin, String location) throws FetchException {
        URI next;
        try {
            next = origin.resolve(location.trim());
        } catch (IllegalArgumentException e) {
            throw FetchException.badGateway("origin " + OriginFetcher.describe(origin) + " redirected to an unusable URL");
        }
        String refusal = redirects.refusal(origin, next);
        if (refusal != null) {
            LOG.warn("not following the redirect of {} to {}: {}", OriginFetcher.describe(origin), OriginFetcher.describe(next), refusal);
            throw FetchException.badGateway("origin " + OriginFetcher.describe(origin) + " " + refusal);
        }
        return next;
    }

    /** Called again by the response handler for every redirect, with one redirect fewer to go. */
    void fetch(URI origin, DownloadSink sink, int redirectsLeft, Supplier<SslContext> tls, boolean wantDigest) {
        if (origin.getHost() == null) {
            sink.fail(FetchException.badGateway("origin URL has no host"));
            return;
        }
        boolean https = origin.getScheme().equalsIgnoreCase("https");
        int port = origin.getPort() > 0 ? origin.getPort() : https ? 443 : 80;
        connect(origin, https, port, tls, new HttpClientCodec(4096, 16384, MAX_CHUNK), "origin",
        new OriginResponseHandler(this, origin, sink, redirectsLeft, readTimeout, tls, wantDigest)).addListener((ChannelFuture f) -> {
            if (f.isSuccess()) {
        f.channel().writeAndFlush(BearerPresentation.authorize(request(origin, port, https, wantDigest), tls));
            } else {
        sink.fail(FetchException.badGateway("cannot reach origin " + OriginFetcher.describe(origin) + ": "
                + OriginResponseHandler.reason(f.cause())));
            }
        });
    }

    /** A connection to the origin: TLS when {@code https}, then {@code codec}, the read timeout and {@code handler}. */
    ChannelFuture connect(URI origin, boolean https, int port, Supplier<SslContext> tls, HttpClientCodec codec,
                                  String name, ChannelHandler handler) {
        return new Bootstrap().group(group).channel(channelType)
                .option(ChannelOption.CONNECT_TIMEOUT_MILLIS, (int) CONNECT_TIMEOUT.toMillis())
                .option(ChannelOption.ALLOCATOR, org.gridcache.pool.http.AlignedBuffers.ALLOCATOR) // TLS's buffers
                .handler(new ChannelInitializer<Channel>() {
                    @Override
                    protected void initChannel(Channel ch) {
                        SlabReads.install(ch, READS, slabs);
                        ChannelPipeline p = ch.pipeline();
                        if (https) {
                            p.addLast("tls", unresumableTls(verifyingEngine(ch, tls, origin.getHost(), port)));
                        }
                        p.addLast("codec", codec);
                        p.addLast("idle", new IdleStateHandler(readTimeout.toMillis(), 0, 0, TimeUnit.MILLISECONDS));
                        p.addLast(name, handler);
                    }
                })
                .connect(origin.getHost(), port);
    }

    /** A full handshake every time: the engine comes from a context of its own (see {@link #tlsFor}). */
    private static SslHandler unresumableTls(SSLEngine engine) {
        return new SslHandler(engine);
    }

    private static SSLEngine verifyingEngine(Channel ch, Supplier<SslContext> tls, String host, int port) {
        SSLEngine engine = tls.get().newEngine(ch.alloc(), host, port);
        SSLParameters params = engine.getSSLParameters();
        params.setEndpointIdentificationAlgorithm("HTTPS");
        engine.setSSLParameters(params);
        return engine;
    }

    /** A GET of bytes {@code [offset, offset + length)} of {@code origin}. */
    static FullHttpRequest rangeRequest(URI origin, int port, boolean https, long offset, long length) {
        FullHttpRequest request = request(origin, port, https, false);
        request.headers().set(HttpHeaderNames.RANGE, "bytes=" + offset + "-" + (offset + length - 1));
        return request;
    }

    Duration readTimeout() {
        return readTimeout;
    }

    private static FullHttpRequest request(URI origin, int port, boolean https, boolean wantDigest) {
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
        if (wantDigest) {
            // dCache and XRootD answer with the checksums they keep: the fill is verified against them
            request.headers().set(DigestRequest.WANT_DIGEST, DigestRequest.wantAll());
        }
        return request;
    }

    @Override
    public void close() {
        // the event loops belong to the pool, which shuts them down
    }
}
