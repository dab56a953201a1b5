package org.gridcache.pool.origin;

import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelHandler;
import io.netty.handler.codec.http.FullHttpRequest;
import io.netty.handler.codec.http.HttpClientCodec;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaderValues;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.ssl.SslContext;
import io.netty.handler.timeout.IdleStateHandler;
import java.net.URI;
import java.time.Duration;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.gridcache.common.ticket.Ticket;
import org.gridcache.common.checksum.DigestRequest;
import org.gridcache.pool.access.DelegatedCredentials;
import org.gridcache.pool.http.ReceiveSlabs;
import org.gridcache.pool.http.SlabReads;
import org.gridcache.pool.http.FetchException;
import org.gridcache.pool.http.PoolClient;
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
    private static final Duration CONNECT_TIMEOUT = PoolClient.CONNECT_TIMEOUT;
    /** Large chunks: fewer writes to the part file and fewer wake-ups of waiting movers than the default 8 KiB. */
    private static final int MAX_CHUNK = 1 << 20;
    /**
     * Reads of up to MAX_CHUNK where the origin sends that fast (Netty's default stops at 64 KiB): each read is a
     * chunk the fill hands to its disk writer and its movers, each hand-off a wake-up of another thread.
     */
    private static final io.netty.channel.RecvByteBufAllocator READS =
            new io.netty.channel.AdaptiveRecvByteBufAllocator(64 << 10, 64 << 10, MAX_CHUNK);

    private final PoolClient client;
    private final Duration readTimeout;
    private final DelegatedCredentials credentials;
    private final RedirectPolicy redirects;
    private final ReceiveSlabs slabs;
    private final PermissionCheck permissionCheck = new HttpPermissionCheck(this);
    private final RangedReads blockReads = new HttpRangedReads(this);

    /** As below, with receive memory of its own. */
    public HttpOriginFetcher(PoolClient client, Duration readTimeout, DelegatedCredentials credentials, RedirectPolicy redirects) {
        this(client, readTimeout, credentials, redirects, new ReceiveSlabs(256));
    }

    /**
     * {@code client}: the pool's connections and the TLS they present. {@code credentials} null: no user credentials
     * (a plain pool). {@code redirects}: which redirects are followed. {@code slabs}: the pool's receive memory.
     */
    public HttpOriginFetcher(PoolClient client, Duration readTimeout, DelegatedCredentials credentials, RedirectPolicy redirects,
                             ReceiveSlabs slabs) {
        this.client = client;
        this.slabs = slabs;
        this.redirects = redirects;
        this.readTimeout = readTimeout;
        this.credentials = credentials;
    }

    @Override
    public boolean supports(URI origin) {
        String scheme = origin.getScheme() == null ? "" : origin.getScheme().toLowerCase(Locale.ROOT);
        return scheme.equals("http") || scheme.equals("https");
    }

    @Override
    public void fetch(URI origin, DownloadSink sink) {
        fetch(origin, sink, MAX_REDIRECTS, client.anonymous(), false); // a peer pool: its Digest would hold back cut-through
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

    /** The TLS client contexts presenting what the ticket's origin needs, a new one per connection ({@link PoolClient}). */
    Supplier<SslContext> tlsFor(Ticket ticket) throws FetchException {
        return DelegatedCredentials.choose(ticket, credentials, client.anonymous(), client.host(), this::presenting);
    }

    /** What presents {@code credential}: its TLS context, or for a user's bearer token TLS without one plus the token. */
    Supplier<SslContext> presenting(DelegatedCredentials.OriginCredential credential) {
        return credential.bearerToken() != null ? new BearerPresentation(client.anonymous(), credential.bearerToken()) : credential.tls();
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
        FullHttpRequest request = BearerPresentation.authorize(PoolClient.request(HttpMethod.HEAD, origin), tls);
        client.exchange(origin, request, tls, CONNECT_TIMEOUT, readTimeout).whenComplete((answer, error) -> {
            if (error != null) {
                result.completeExceptionally(error);
                return;
            }
            String location = answer.headers().get(HttpHeaderNames.LOCATION);
            if (OriginResponseHandler.isRedirect(answer.status()) && location != null && redirectsLeft > 0) {
                try {
                    head(nextHop(origin, location), tls, redirectsLeft - 1, result);
                } catch (FetchException e) {
                    result.completeExceptionally(e);
                }
                return;
            }
            result.complete(answer.status());
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
        f.channel().writeAndFlush(BearerPresentation.authorize(request(origin, wantDigest), tls));
            } else {
        sink.fail(FetchException.badGateway("cannot reach origin " + OriginFetcher.describe(origin) + ": "
                + OriginResponseHandler.reason(f.cause())));
            }
        });
    }

    /** A connection to the origin: TLS when {@code https}, then {@code codec}, the read timeout and {@code handler}. */
    ChannelFuture connect(URI origin, boolean https, int port, Supplier<SslContext> tls, HttpClientCodec codec,
                                  String name, ChannelHandler handler) {
        return client.connect(origin.getHost(), port, https ? tls : null, CONNECT_TIMEOUT, ch -> {
            SlabReads.install(ch, READS, slabs);
            ch.pipeline().addLast("codec", codec)
                    .addLast("idle", new IdleStateHandler(readTimeout.toMillis(), 0, 0, TimeUnit.MILLISECONDS))
                    .addLast(name, handler);
        });
    }

    /** A GET of bytes {@code [offset, offset + length)} of {@code origin}. */
    static FullHttpRequest rangeRequest(URI origin, long offset, long length) {
        FullHttpRequest request = request(origin, false);
        request.headers().set(HttpHeaderNames.RANGE, "bytes=" + offset + "-" + (offset + length - 1));
        return request;
    }

    Duration readTimeout() {
        return readTimeout;
    }

    private static FullHttpRequest request(URI origin, boolean wantDigest) {
        FullHttpRequest request = PoolClient.request(HttpMethod.GET, origin);
        request.headers()
                .set(HttpHeaderNames.ACCEPT, "*/*")
                .set(HttpHeaderNames.ACCEPT_ENCODING, HttpHeaderValues.IDENTITY); // the bytes as stored, never recoded
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
