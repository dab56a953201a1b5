package org.gridcache.pool.origin;

import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.handler.codec.http.DefaultHttpContent;
import io.netty.handler.codec.http.DefaultHttpRequest;
import io.netty.handler.codec.http.HttpClientCodec;
import io.netty.handler.codec.http.HttpContent;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaderValues;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpObject;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.HttpResponse;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.handler.codec.http.LastHttpContent;
import io.netty.handler.ssl.SslContext;
import io.netty.handler.timeout.IdleStateEvent;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.function.Supplier;
import org.gridcache.common.ticket.Ticket;
import org.gridcache.pool.http.FetchException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A PUT to an HTTP(S)/WebDAV origin over the pool's own event loops, presenting the credential the ticket names (as
 * {@link HttpOriginFetcher} does), with the announced {@code Content-Length}: each chunk goes out as it arrives from
 * the client. An abort closes the connection before the last byte, which nginx and Apache mod_dav treat as a
 * failed request body: both write a PUT into a temporary file and rename it only when the whole body arrived, so
 * the origin keeps no part. After a 2xx the origin is asked (HEAD) for the file's {@code Last-Modified}, the mtime
 * the door will put in its read tickets, so the copy the pool keeps is a hit and not stale. Redirects of a PUT are
 * not followed (the body is gone by then): the 3xx is passed on as a 502.
 */
public final class HttpOriginUploader implements OriginUploader {
    private static final Logger LOG = LoggerFactory.getLogger(HttpOriginUploader.class);
    private final HttpOriginFetcher http;

    public HttpOriginUploader(HttpOriginFetcher http) {
        this.http = http;
    }

    @Override
    public boolean supports(URI origin) {
        return http.supports(origin);
    }

    @Override
    public CompletableFuture<OriginUploader.Upload> start(URI origin, long length, Ticket ticket) {
        CompletableFuture<OriginUploader.Upload> started = new CompletableFuture<>();
        Supplier<SslContext> tls;
        try {
            tls = http.tlsFor(ticket);
        } catch (FetchException e) {
            return CompletableFuture.failedFuture(e);
        }
        if (origin.getHost() == null) {
            return CompletableFuture.failedFuture(FetchException.badGateway("origin URL has no host"));
        }
        boolean https = origin.getScheme().equalsIgnoreCase("https");
        int port = origin.getPort() > 0 ? origin.getPort() : https ? 443 : 80;
        Answer answer = new Answer(origin);
        answer.sending = true;
        http.connect(origin, https, port, tls, new HttpClientCodec(), "upload", answer).addListener((ChannelFuture f) -> {
            if (!f.isSuccess()) {
                started.completeExceptionally(FetchException.badGateway("cannot reach origin " + OriginFetcher.describe(origin)
                        + ": " + OriginResponseHandler.reason(f.cause())));
                return;
            }
            f.channel().writeAndFlush(BearerPresentation.authorize(request(origin, port, https, HttpMethod.PUT, length), tls));
            started.complete(new HttpUpload(f.channel(), answer, origin, port, https, tls));
        });
        return started;
    }

    private static HttpRequest request(URI origin, int port, boolean https, HttpMethod method, long length) {
        String path = origin.getRawPath() == null || origin.getRawPath().isEmpty() ? "/" : origin.getRawPath();
        HttpRequest request = new DefaultHttpRequest(HttpVersion.HTTP_1_1, method, path);
        boolean defaultPort = port == (https ? 443 : 80);
        request.headers()
                .set(HttpHeaderNames.HOST, defaultPort ? origin.getHost() : origin.getHost() + ":" + port)
                .set(HttpHeaderNames.USER_AGENT, "gridcache-pool")
                .set(HttpHeaderNames.CONNECTION, HttpHeaderValues.CLOSE);
        if (method.equals(HttpMethod.PUT)) {
            request.headers().set(HttpHeaderNames.CONTENT_LENGTH, length)
                    .set(HttpHeaderNames.CONTENT_TYPE, HttpHeaderValues.APPLICATION_OCTET_STREAM);
        } else {
            request.headers().set(HttpHeaderNames.CONTENT_LENGTH, 0);
        }
        return request;
    }

    private final class HttpUpload implements OriginUploader.Upload {
        private final Channel channel;
        private final Answer answer;
        private final URI origin;
        private final int port;
        private final boolean https;
        private final Supplier<SslContext> tls;

        HttpUpload(Channel channel, Answer answer, URI origin, int port, boolean https, Supplier<SslContext> tls) {
            this.channel = channel;
            this.answer = answer;
            this.origin = origin;
            this.port = port;
            this.https = https;
            this.tls = tls;
        }

        @Override
        public CompletableFuture<Void> write(ByteBuf chunk) {
            CompletableFuture<Void> done = new CompletableFuture<>();
            if (answer.result.isDone()) {
                chunk.release(); // the origin answered before the body ended: a refusal, passed on by finish
                done.completeExceptionally(early());
                return done;
            }
            channel.writeAndFlush(new DefaultHttpContent(chunk)).addListener(f -> {
                if (f.isSuccess()) {
                    done.complete(null);
                } else {
                    done.completeExceptionally(answer.result.isDone() ? early()
                            : FetchException.badGateway("origin " + OriginFetcher.describe(origin) + " closed the upload"));
                }
            });
            return done;
        }

        private FetchException early() {
            Result r = answer.result.getNow(null);
            if (r == null) {
                return FetchException.badGateway("origin " + OriginFetcher.describe(origin) + " failed the upload");
            }
            return new FetchException(io.netty.handler.codec.http.HttpResponseStatus.valueOf(r.status(), r.reason()), r.reason());
        }

        @Override
        public CompletableFuture<Result> finish() {
            answer.sending = false;
            channel.writeAndFlush(LastHttpContent.EMPTY_LAST_CONTENT);
            return answer.result.thenCompose(r -> r.success() ? lastModified(r) : CompletableFuture.completedFuture(r));
        }

        /** The origin's Last-Modified of the file now, on a second connection (the first closes). */
        private CompletableFuture<Result> lastModified(Result put) {
            Answer head = new Answer(origin);
            http.connect(origin, https, port, tls, new HttpClientCodec(), "head", head).addListener((ChannelFuture f) -> {
                if (f.isSuccess()) {
                    f.channel().writeAndFlush(BearerPresentation.authorize(request(origin, port, https, HttpMethod.HEAD, 0), tls));
                } else {
                    head.result.complete(new Result(502, "unreachable", -1));
                }
            });
            return head.result.handle((r, e) -> new Result(put.status(), put.reason(), r == null ? -1 : r.mtimeSeconds()));
        }

        @Override
        public void abort() {
            channel.close();
        }
    }

    /** The origin's response: status, first line of the body as the reason, Last-Modified. */
    private static final class Answer extends SimpleChannelInboundHandler<HttpObject> {
        final CompletableFuture<Result> result = new CompletableFuture<>();
        /** While the body goes out the origin says nothing: its silence is no timeout then. */
        volatile boolean sending;
        private final URI origin;
        private int status;
        private String reason;
        private long mtime = -1;
        private final StringBuilder body = new StringBuilder();

        Answer(URI origin) {
            this.origin = origin;
        }

        @Override
        protected void channelRead0(ChannelHandlerContext ctx, HttpObject msg) {
            if (msg instanceof HttpResponse response) {
                status = response.status().code();
                reason = response.status().reasonPhrase();
                String modified = response.headers().get(HttpHeaderNames.LAST_MODIFIED);
                if (modified != null) {
                    try {
                        mtime = ZonedDateTime.parse(modified, DateTimeFormatter.RFC_1123_DATE_TIME).toEpochSecond();
                    } catch (RuntimeException e) {
                        mtime = -1;
                    }
                }
            }
            if (msg instanceof HttpContent content && body.length() < 512) {
                body.append(content.content().toString(StandardCharsets.UTF_8));
            }
            if (msg instanceof LastHttpContent) {
                result.complete(new Result(status, reason(), mtime));
                ctx.close();
            }
        }

        /** The origin's reason: its status line's phrase, or the body's first text line where that says more. */
        private String reason() {
            if (status >= 200 && status < 300) {
                return reason;
            }
            // the origin's own words (its body's text, else its status phrase), never its URL: the client sees them
            String text = body.toString().replaceAll("<[^>]*>", " ").replaceAll("\\s+", " ").trim();
            String line = text.isEmpty() ? status + " " + reason : text;
            return line.length() > 200 ? line.substring(0, 200) : line;
        }

        @Override
        public void userEventTriggered(ChannelHandlerContext ctx, Object evt) {
            if (evt instanceof IdleStateEvent && !sending) {
                fail(FetchException.badGateway("origin " + OriginFetcher.describe(origin) + " sent nothing for too long"));
                ctx.close();
            }
        }

        @Override
        public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
            LOG.debug("upload to {}: {}", OriginFetcher.describe(origin), cause.toString());
            fail(FetchException.badGateway("origin " + OriginFetcher.describe(origin) + ": " + OriginResponseHandler.reason(cause)));
            ctx.close();
        }

        @Override
        public void channelInactive(ChannelHandlerContext ctx) {
            fail(FetchException.badGateway("origin " + OriginFetcher.describe(origin) + " closed the connection without an answer"));
        }

        private void fail(FetchException e) {
            result.completeExceptionally(new CompletionException(e));
        }
    }
}
