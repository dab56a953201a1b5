package org.gridcache.pool.http;

import eu.emi.security.authn.x509.X509Credential;
import io.netty.bootstrap.Bootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.handler.codec.http.DefaultFullHttpRequest;
import io.netty.handler.codec.http.DefaultHttpRequest;
import io.netty.handler.codec.http.FullHttpRequest;
import io.netty.handler.codec.http.HttpClientCodec;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaderValues;
import io.netty.handler.codec.http.HttpHeaders;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslContextBuilder;
import io.netty.handler.ssl.SslHandler;
import java.net.InetSocketAddress;
import java.net.URI;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Consumer;
import java.util.function.Supplier;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.SSLException;
import javax.net.ssl.SSLParameters;
import org.gridcache.common.security.GridTrust;

/**
 * The pool's one HTTP client: Netty connections on the pool's own event loops, to origins (their fetchers and
 * uploaders in {@code origin}), to the doors that hand out users' credentials ({@code access}) and to peer pools
 * ({@code peer}). Every TLS context a pool presents as a client is made here, from its {@link PoolSecurity}: nothing
 * ({@link #anonymous}), its host certificate ({@link #host} towards origins, {@link #cluster} towards doors and
 * peers) or a user's proxy ({@link #presenting}); every https connection checks the server's name and its chain
 * against the pool's CA directory (the JDK's trust store on a plain pool). Connections come whole-answer
 * ({@link #exchange}), with a pipeline of the caller's ({@link #connect}), or for a worker thread that streams
 * bodies both ways with backpressure ({@link #open}, third-party copies).
 *
 * <p>Origins get a new context per connection: a context shared between connections resumes TLS sessions, and
 * mod_gridsite sees a resumed session (which carries no certificate chain) as an anonymous client. Doors and peers
 * (gridcache's own servers, which keep the chain of a resumed session) share one context, so their sessions resume.
 */
public final class PoolClient {
    public static final Duration CONNECT_TIMEOUT = Duration.ofSeconds(10);
    /** A door's answer (a proxy in PEM, a token in JSON) or a peer's fits many times over. */
    static final int MAX_ANSWER = 64 << 10;

    private final EventLoopGroup group;
    private final Class<? extends Channel> channelType;
    private final GridTrust trust;
    private final Supplier<SslContext> anonymous;
    private final Supplier<SslContext> host;
    private final Supplier<SslContext> cluster;

    /** The event loops (the pool's own) and their channel type; {@code security}: what the pool presents and trusts. */
    public PoolClient(EventLoopGroup group, Class<? extends Channel> channelType, PoolSecurity security) throws SSLException {
        this.group = group;
        this.channelType = channelType;
        this.trust = security.trust();
        if (security.tls()) {
            this.anonymous = () -> PoolTls.client(null, trust);
            this.host = () -> PoolTls.client(security.hostCredential(), trust);
            SslContext shared = PoolTls.client(security.hostCredential(), trust);
            this.cluster = () -> shared;
        } else {
            SslContext jdkTrust = SslContextBuilder.forClient().build();
            this.anonymous = () -> jdkTrust;
            this.host = null;
            this.cluster = anonymous;
        }
    }

    /** TLS presenting no certificate. */
    public Supplier<SslContext> anonymous() {
        return anonymous;
    }

    /** TLS presenting the pool's host certificate to an origin; null on a plain pool, which has none. */
    public Supplier<SslContext> host() {
        return host;
    }

    /** TLS presenting the pool's host certificate (if any) to a door or a peer pool. */
    public Supplier<SslContext> cluster() {
        return cluster;
    }

    /** TLS presenting a user's proxy (a pool with TLS only: the proxy comes from a door over TLS). */
    public Supplier<SslContext> presenting(X509Credential credential) {
        if (trust == null) {
            throw new IllegalStateException("a pool without TLS presents no user's credential");
        }
        return () -> PoolTls.client(credential, trust);
    }

    /**
     * A connection to {@code host:port}: TLS presenting {@code tls}'s credential (null: plain TCP), then what
     * {@code pipeline} adds to the new channel.
     */
    public ChannelFuture connect(String host, int port, Supplier<SslContext> tls, Duration connectTimeout,
                                 Consumer<Channel> pipeline) {
        return connect(InetSocketAddress.createUnresolved(host, port), host, tls, connectTimeout, pipeline);
    }

    /**
     * A connection to {@code address} (resolved and checked by the caller, or left to Netty's resolver when
     * unresolved) whose TLS, if any, asks for and checks the name {@code host} (SNI, host name verification).
     */
    public ChannelFuture connect(InetSocketAddress address, String host, Supplier<SslContext> tls, Duration connectTimeout,
                                 Consumer<Channel> pipeline) {
        return new Bootstrap().group(group).channel(channelType)
                .option(ChannelOption.CONNECT_TIMEOUT_MILLIS, (int) connectTimeout.toMillis())
                .option(ChannelOption.ALLOCATOR, AlignedBuffers.ALLOCATOR) // TLS's buffers
                .handler(new ChannelInitializer<Channel>() {
                    @Override
                    protected void initChannel(Channel ch) {
                        if (tls != null) {
                            ch.pipeline().addLast("tls", new SslHandler(verifyingEngine(ch, tls, host, address.getPort())));
                        }
                        pipeline.accept(ch);
                    }
                })
                .connect(address);
    }

    /**
     * A connection for a worker thread ({@link ClientConnection}: blocking calls, answers read as the worker takes
     * them) to {@code address}, resolved and checked by the caller, TLS checking the name {@code host} when
     * {@code tls} is not null; completes once connected and, with TLS, once the handshake succeeded. It fails after
     * {@code idleTimeout} without a byte read or written.
     */
    public CompletableFuture<ClientConnection> open(InetSocketAddress address, String host, Supplier<SslContext> tls,
                                                    Duration connectTimeout, Duration idleTimeout) {
        CompletableFuture<ClientConnection> opened = new CompletableFuture<>();
        ClientConnection[] made = new ClientConnection[1];
        connect(address, host, tls, connectTimeout, ch -> made[0] = ClientConnection.install(ch, idleTimeout))
                .addListener((ChannelFuture f) -> {
                    if (!f.isSuccess()) {
                        opened.completeExceptionally(f.cause());
                        return;
                    }
                    SslHandler handshake = f.channel().pipeline().get(SslHandler.class);
                    if (handshake == null) {
                        complete(opened, made[0], null);
                    } else {
                        handshake.handshakeFuture().addListener(h -> complete(opened, made[0], h.cause()));
                    }
                });
        return opened;
    }

    private static void complete(CompletableFuture<ClientConnection> opened, ClientConnection connection, Throwable failure) {
        if (failure != null) {
            connection.close();
            opened.completeExceptionally(failure);
        } else if (!opened.complete(connection)) {
            connection.close(); // given up on meanwhile
        }
    }

    private static SSLEngine verifyingEngine(Channel ch, Supplier<SslContext> tls, String host, int port) {
        SSLEngine engine = tls.get().newEngine(ch.alloc(), host, port);
        SSLParameters params = engine.getSSLParameters();
        params.setEndpointIdentificationAlgorithm("HTTPS");
        engine.setSSLParameters(params);
        return engine;
    }

    /** Whether {@code url} is https (else http). */
    public static boolean https(URI url) {
        return "https".equalsIgnoreCase(url.getScheme());
    }

    /** {@code url}'s port, or its scheme's. */
    public static int port(URI url) {
        return url.getPort() > 0 ? url.getPort() : https(url) ? 443 : 80;
    }

    /** A request for {@code url} without a body, on a connection of its own that closes after the answer. */
    public static FullHttpRequest request(HttpMethod method, URI url) {
        FullHttpRequest request = new DefaultFullHttpRequest(HttpVersion.HTTP_1_1, method, target(url));
        addressed(request, url).headers().set(HttpHeaderNames.CONNECTION, HttpHeaderValues.CLOSE);
        return request;
    }

    /** A request's head for {@code url}, for a {@link ClientConnection}: its body, if any, follows. */
    public static HttpRequest head(HttpMethod method, URI url) {
        return addressed(new DefaultHttpRequest(HttpVersion.HTTP_1_1, method, target(url)), url);
    }

    private static String target(URI url) {
        String path = url.getRawPath() == null || url.getRawPath().isEmpty() ? "/" : url.getRawPath();
        return url.getRawQuery() == null ? path : path + "?" + url.getRawQuery();
    }

    private static <R extends HttpRequest> R addressed(R request, URI url) {
        int port = port(url);
        boolean defaultPort = port == (https(url) ? 443 : 80);
        // names spelt as RFC 9110 does: some grid servers match them case-sensitively (RemoteSession)
        request.headers()
                .set("Host", defaultPort ? url.getHost() : url.getHost() + ":" + port)
                .set("User-Agent", "gridcache-pool");
        return request;
    }

    /** A whole answer: its status, head and body (at most {@value #MAX_ANSWER} bytes, as UTF-8). */
    public record Answer(int status, HttpHeaders headers, String body) {
    }

    /**
     * Sends {@code request} (from {@link #request}) to {@code url}, with TLS presenting {@code tls}'s credential when
     * it is https, and completes with the whole answer; a redirect is an answer like any other. Fails when the server
     * cannot be reached, closes without an answer or answers more than {@value #MAX_ANSWER} bytes, and with a
     * {@link TimeoutException} when no answer came within {@code timeout} of the call.
     */
    public CompletableFuture<Answer> exchange(URI url, FullHttpRequest request, Supplier<SslContext> tls,
                                              Duration connectTimeout, Duration timeout) {
        if (url.getHost() == null) {
            request.release();
            return CompletableFuture.failedFuture(new IllegalArgumentException("the URL names no host"));
        }
        CompletableFuture<Answer> answer = new CompletableFuture<>();
        ChannelFuture connected = connect(url.getHost(), port(url), https(url) ? tls : null, connectTimeout, ch -> ch.pipeline()
                .addLast("codec", new HttpClientCodec())
                .addLast("answer", new WholeAnswer(answer)));
        connected.addListener((ChannelFuture f) -> {
            if (f.isSuccess()) {
                f.channel().writeAndFlush(request);
            } else {
                request.release();
                answer.completeExceptionally(f.cause());
            }
        });
        ScheduledFuture<?> deadline = group.schedule(() -> answer.completeExceptionally(
                new TimeoutException("no answer within " + timeout.toMillis() + " ms")), timeout.toMillis(), TimeUnit.MILLISECONDS);
        answer.whenComplete((a, e) -> {
            deadline.cancel(false);
            connected.channel().close();
        });
        return answer;
    }
}
