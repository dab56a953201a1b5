package org.gridcache.pool.origin;

import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.handler.codec.DateFormatter;
import io.netty.handler.codec.http.HttpContent;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpObject;
import io.netty.handler.codec.http.HttpResponse;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.codec.http.LastHttpContent;
import io.netty.handler.ssl.SslContext;
import io.netty.handler.timeout.IdleStateEvent;
import java.net.URI;
import java.time.Duration;
import java.util.Date;
import java.util.Locale;
import java.util.function.Supplier;
import org.gridcache.common.checksum.DigestRequest;
import org.gridcache.common.security.CredentialRefusal;
import org.gridcache.pool.http.FetchException;

/**
 * Reads one origin response into a {@link DownloadSink}: a 200 streams into the part file, a redirect starts the
 * next hop, anything else becomes the status waiting clients see. Ends the sink exactly once, whatever happens
 * first (last content, error, idle timeout, closed connection).
 */
public final class OriginResponseHandler extends SimpleChannelInboundHandler<HttpObject> {
    private final HttpOriginFetcher fetcher;
    private final URI origin;
    private final DownloadSink sink;
    private final int redirectsLeft;
    /** Asked the origin for its checksums (an origin, not a peer pool): what it answers is verified. */
    private final boolean wantDigest;
    private final Duration readTimeout;
    private final Supplier<SslContext> tls;
    private boolean streaming;
    private boolean done;

    OriginResponseHandler(HttpOriginFetcher fetcher, URI origin, DownloadSink sink, int redirectsLeft, Duration readTimeout,
                          Supplier<SslContext> tls, boolean wantDigest) {
        this.tls = tls;
        this.wantDigest = wantDigest;
        this.fetcher = fetcher;
        this.origin = origin;
        this.sink = sink;
        this.redirectsLeft = redirectsLeft;
        this.readTimeout = readTimeout;
    }

    @Override
    protected void channelRead0(ChannelHandlerContext ctx, HttpObject msg) throws Exception {
        if (done) {
            return;
        }
        if (msg.decoderResult().isFailure()) {
            fail(ctx, FetchException.badGateway("origin " + host() + " sent a malformed or truncated answer after "
                    + sink.received() + " bytes"));
            return;
        }
        try {
            if (msg instanceof HttpResponse response) {
                onResponse(ctx, response);
            }
            if (streaming && msg instanceof HttpContent content) {
                if (!sink.write(content.content(), () -> resume(ctx))) {
                    ctx.channel().config().setAutoRead(false); // the disk is behind: let TCP push back on the origin
                }
                if (msg instanceof LastHttpContent) {
                    done = true;
                    sink.complete();
                    ctx.close();
                }
            }
        } catch (FetchException e) {
            fail(ctx, e);
        }
    }

    private static void resume(ChannelHandlerContext ctx) {
        ctx.channel().eventLoop().execute(() -> ctx.channel().config().setAutoRead(true));
    }

    private void onResponse(ChannelHandlerContext ctx, HttpResponse response) throws FetchException {
        int code = response.status().code();
        String location = response.headers().get(HttpHeaderNames.LOCATION);
        if (isRedirect(code) && location != null) {
            redirect(ctx, location);
        } else if (code == 200) {
            streaming = true;
            if (wantDigest) {
                sink.originChecksums(DigestRequest.offered(response.headers().get(DigestRequest.DIGEST),
                        response.headers().get(DigestRequest.REPR_DIGEST)));
            }
            sink.begin(HttpUtil.getContentLength(response, -1L), lastModified(response), response.headers().get(HttpHeaderNames.ETAG));
        } else {
            fail(ctx, refusal(code, response.status().reasonPhrase()));
        }
    }

    static boolean isRedirect(int code) {
        return code == 301 || code == 302 || code == 303 || code == 307 || code == 308;
    }

    private void redirect(ChannelHandlerContext ctx, String location) throws FetchException {
        if (redirectsLeft == 0) {
            throw FetchException.badGateway("origin " + host() + " redirected more than " + HttpOriginFetcher.MAX_REDIRECTS + " times");
        }
        URI next = fetcher.nextHop(origin, location); // refuses what the pool must not follow, before any connection
        done = true; // this connection is finished with; the next hop ends the sink
        ctx.close();
        fetcher.fetch(next, sink, redirectsLeft - 1, tls, wantDigest); // the same credential on the next hop
    }

    /** What the pool answers when the origin refuses: 404 stays 404, 401/403 become 403, the rest 502. */
    private FetchException refusal(int code, String phrase) {
        return refusal(code, phrase, host());
    }

    static FetchException refusal(int code, String phrase, String host) {
        if (code == 404 || code == 410) {
            return new FetchException(HttpResponseStatus.NOT_FOUND, "not found at origin");
        }
        if (code == 401 || code == 403) {
            return new FetchException(HttpResponseStatus.FORBIDDEN, "origin " + host + " refused access (HTTP " + code + ")");
        }
        return FetchException.badGateway("origin " + host + " answered HTTP " + code + " " + phrase);
    }

    static long lastModified(HttpResponse response) {
        String value = response.headers().get(HttpHeaderNames.LAST_MODIFIED);
        Date date = value == null ? null : DateFormatter.parseHttpDate(value);
        return date == null ? -1 : date.getTime() / 1000;
    }

    @Override
    public void userEventTriggered(ChannelHandlerContext ctx, Object evt) throws Exception {
        if (evt instanceof IdleStateEvent) {
            fail(ctx, FetchException.badGateway("origin " + host() + " sent nothing for " + readTimeout.toSeconds() + " s"));
        }
        super.userEventTriggered(ctx, evt);
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) throws Exception {
        if (!done) {
            done = true;
            sink.fail(FetchException.badGateway("origin " + host() + " closed the connection after " + sink.received() + " bytes"));
        }
        super.channelInactive(ctx);
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        String alert = refusedCredential(cause);
        fail(ctx, alert != null
                ? new FetchException(HttpResponseStatus.FORBIDDEN, "origin " + host() + " refuses the credential presented (TLS alert " + alert + ")")
                : FetchException.badGateway("origin " + host() + ": " + reason(cause)));
    }

    private void fail(ChannelHandlerContext ctx, FetchException e) {
        if (!done) {
            done = true;
            sink.fail(e);
        }
        ctx.close();
    }

    private String host() {
        return OriginFetcher.describe(origin);
    }

    /** A one-line reason from an exception, without stack or nested noise. */

    /**
     * The alert with which the origin refused, in the TLS handshake, the certificate this pool presented (the user's
     * proxy, or the host's), or null for any other failure: a refusal is the origin's 403, not an unreachable origin.
     */
    public static String refusedCredential(Throwable t) {
        return CredentialRefusal.alertOf(t);
    }

    public static String reason(Throwable t) {
        Throwable root = t;
        while (root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
        }
        String message = root.getMessage();
        String kind = root.getClass().getSimpleName().replace("Exception", "").toLowerCase(Locale.ROOT);
        return message == null ? kind : message.lines().findFirst().orElse(kind);
    }
}
