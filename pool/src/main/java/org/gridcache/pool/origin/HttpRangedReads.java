package org.gridcache.pool.origin;

import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.handler.codec.http.HttpClientCodec;
import io.netty.handler.codec.http.HttpContent;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpObject;
import io.netty.handler.codec.http.HttpResponse;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.LastHttpContent;
import io.netty.handler.ssl.SslContext;
import io.netty.handler.timeout.IdleStateEvent;
import java.io.IOException;
import java.net.URI;
import java.util.function.Supplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.gridcache.common.ticket.Ticket;
import org.gridcache.common.security.CredentialRefusal;
import org.gridcache.pool.http.FetchException;

/**
 * A ranged GET ({@code Range: bytes=a-b}) of an HTTP(S) origin, presenting what the ticket's origin needs and
 * following the redirects {@link RedirectPolicy} allows, as whole-file fetches do. Only a 206 whose
 * {@code Content-Range} is exactly the range asked for, of a file of the ticket's size (and, when both are known,
 * its modification time), is read; a 200 (an origin that ignores Range) is {@link FetchException#rangesUnsupported}.
 */
final class HttpRangedReads implements RangedReads {
    private static final Pattern CONTENT_RANGE = Pattern.compile("bytes\\s+(\\d+)-(\\d+)/(\\d+|\\*)");
    private static final int MAX_CHUNK = 1 << 20;
    private final HttpOriginFetcher fetcher;

    HttpRangedReads(HttpOriginFetcher fetcher) {
        this.fetcher = fetcher;
    }

    @Override
    public AutoCloseable read(URI origin, Ticket ticket, long offset, long length, Receiver receiver) {
        Supplier<SslContext> tls;
        try {
            tls = fetcher.tlsFor(ticket);
        } catch (FetchException e) {
            receiver.done(e);
            return () -> { };
        }
        ReadHandle<Channel> holder = new ReadHandle<>(Channel::close);
        read(origin, ticket, offset, length, receiver, tls, HttpOriginFetcher.MAX_REDIRECTS, holder);
        return holder;
    }

    private void read(URI origin, Ticket ticket, long offset, long length, Receiver receiver, Supplier<SslContext> tls,
                      int redirectsLeft, ReadHandle<Channel> holder) {
        if (origin.getHost() == null) {
            receiver.done(FetchException.badGateway("origin URL has no host"));
            return;
        }
        boolean https = "https".equalsIgnoreCase(origin.getScheme());
        int port = origin.getPort() > 0 ? origin.getPort() : https ? 443 : 80;
        Response handler = new Response(origin, ticket, offset, length, receiver, tls, redirectsLeft, holder);
        fetcher.connect(origin, https, port, tls, new HttpClientCodec(4096, 16384, MAX_CHUNK), "range", handler)
                .addListener((ChannelFuture f) -> {
                    if (!f.isSuccess()) {
                        handler.end(FetchException.badGateway("cannot reach origin " + OriginFetcher.describe(origin) + ": "
                                + OriginResponseHandler.reason(f.cause())));
                    } else if (holder.set(f.channel())) {
                        f.channel().writeAndFlush(BearerPresentation.authorize(
                                HttpOriginFetcher.rangeRequest(origin, offset, length), tls));
                    } else {
                        f.channel().close();
                        handler.end(FetchException.badGateway("block read cancelled"));
                    }
                });
    }

    /** Reads one answer; ends the receiver exactly once (unless a redirect hands it to the next hop). */
    private final class Response extends SimpleChannelInboundHandler<HttpObject> {
        private final URI origin;
        private final Ticket ticket;
        private final long offset;
        private final long length;
        private final Receiver receiver;
        private final Supplier<SslContext> tls;
        private final int redirectsLeft;
        private final ReadHandle<Channel> holder;
        private boolean streaming;
        private boolean done;

        Response(URI origin, Ticket ticket, long offset, long length, Receiver receiver, Supplier<SslContext> tls,
                 int redirectsLeft, ReadHandle<Channel> holder) {
            this.origin = origin;
            this.ticket = ticket;
            this.offset = offset;
            this.length = length;
            this.receiver = receiver;
            this.tls = tls;
            this.redirectsLeft = redirectsLeft;
            this.holder = holder;
        }

        @Override
        protected void channelRead0(ChannelHandlerContext ctx, HttpObject msg) {
            if (done) {
                return;
            }
            if (msg.decoderResult().isFailure()) {
                fail(ctx, FetchException.badGateway("origin " + host() + " sent a malformed answer to a range request"));
                return;
            }
            try {
                if (msg instanceof HttpResponse response && !onResponse(ctx, response)) {
                    return;
                }
                if (streaming && msg instanceof HttpContent content) {
                    receiver.receive(content.content().retain());
                    if (msg instanceof LastHttpContent) {
                        end(null);
                        ctx.close();
                    }
                }
            } catch (FetchException e) {
                fail(ctx, e);
            } catch (IOException e) {
                fail(ctx, FetchException.storeWrite("store a block", e));
            }
        }

        /** False when this answer ends here (a redirect followed, a refusal). */
        private boolean onResponse(ChannelHandlerContext ctx, HttpResponse response) throws FetchException {
            int code = response.status().code();
            String location = response.headers().get(HttpHeaderNames.LOCATION);
            if (OriginResponseHandler.isRedirect(code) && location != null) {
                if (redirectsLeft == 0) {
                    throw FetchException.badGateway("origin " + host() + " redirected more than " + HttpOriginFetcher.MAX_REDIRECTS + " times");
                }
                URI next = fetcher.nextHop(origin, location);
                done = true;
                ctx.close();
                read(next, ticket, offset, length, receiver, tls, redirectsLeft - 1, holder);
                return false;
            }
            if (code == 200) {
                throw FetchException.rangesUnsupported("origin " + host() + " does not serve byte ranges");
            }
            if (code != 206) {
                throw OriginResponseHandler.refusal(code, response.status().reasonPhrase(), host());
            }
            checkRange(response.headers().get(HttpHeaderNames.CONTENT_RANGE));
            long mtime = OriginResponseHandler.lastModified(response);
            if (mtime >= 0 && ticket.mtime() >= 0 && mtime != ticket.mtime()) {
                throw FetchException.badGateway("origin " + host() + " holds another version of the file (modified since)");
            }
            streaming = true;
            receiver.opened();
            return true;
        }

        private void checkRange(String contentRange) throws FetchException {
            Matcher m = contentRange == null ? null : CONTENT_RANGE.matcher(contentRange.trim());
            if (m == null || !m.matches() || Long.parseLong(m.group(1)) != offset
                    || Long.parseLong(m.group(2)) != offset + length - 1) {
                throw FetchException.badGateway("origin " + host() + " answered another range than asked (" + contentRange + ")");
            }
            if (!m.group(3).equals("*") && Long.parseLong(m.group(3)) != ticket.size()) {
                throw FetchException.badGateway("origin " + host() + " holds another version of the file (size "
                        + m.group(3) + ", expected " + ticket.size() + ")");
            }
        }

        void end(FetchException failure) {
            if (!done) {
                done = true;
                receiver.done(failure);
            }
        }

        private void fail(ChannelHandlerContext ctx, FetchException e) {
            end(e);
            ctx.close();
        }

        @Override
        public void userEventTriggered(ChannelHandlerContext ctx, Object evt) throws Exception {
            if (evt instanceof IdleStateEvent) {
                fail(ctx, FetchException.badGateway("origin " + host() + " sent nothing for " + fetcher.readTimeout().toSeconds() + " s"));
            }
            super.userEventTriggered(ctx, evt);
        }

        @Override
        public void channelInactive(ChannelHandlerContext ctx) throws Exception {
            end(FetchException.badGateway("origin " + host() + " closed the connection during a range"));
            super.channelInactive(ctx);
        }

        @Override
        public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
            String alert = CredentialRefusal.alertOf(cause);
            fail(ctx, alert != null
                    ? new FetchException(HttpResponseStatus.FORBIDDEN, "origin " + host() + " refuses the credential presented (TLS alert " + alert + ")")
                    : FetchException.badGateway("origin " + host() + ": " + OriginResponseHandler.reason(cause)));
        }

        private String host() {
            return OriginFetcher.describe(origin);
        }
    }
}
