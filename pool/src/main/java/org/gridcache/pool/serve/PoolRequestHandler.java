package org.gridcache.pool.serve;

import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.FullHttpRequest;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.handler.codec.http.QueryStringDecoder;
import io.netty.handler.timeout.IdleStateEvent;
import java.io.IOException;
import java.util.ArrayDeque;
import java.util.List;
import org.gridcache.common.GridPath;
import org.gridcache.common.Ticket;
import org.gridcache.common.TicketCodec;
import org.gridcache.common.TicketException;
import org.gridcache.common.UrlCodec;
import org.gridcache.pool.Pool;
import org.gridcache.pool.access.DelegatedCredentials;
import org.gridcache.pool.access.OriginAccess;
import org.gridcache.pool.fetch.Downloads;
import org.gridcache.pool.fetch.FetchException;
import org.gridcache.pool.mover.ByteRange;
import org.gridcache.pool.mover.CutThroughMover;
import org.gridcache.pool.mover.HitMover;
import org.gridcache.pool.mover.Mover;
import org.gridcache.pool.mover.Movers;
import org.gridcache.pool.mover.PartialTransfer;
import org.gridcache.pool.ops.PoolOperations;
import org.gridcache.pool.ops.PoolStats;
import org.gridcache.pool.origin.GridFtpOriginFetcher;
import org.gridcache.pool.peer.Peers;
import org.gridcache.pool.store.Store;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Answers GET and HEAD on one client connection: validates early (method, path, ticket), then hands the transfer
 * to a {@link HitMover} or a {@link CutThroughMover}. Requests pipelined behind a transfer in progress wait their
 * turn, so responses never interleave.
 */
public final class PoolRequestHandler extends SimpleChannelInboundHandler<FullHttpRequest> implements Mover.Done {
    private static final Logger LOG = LoggerFactory.getLogger(PoolRequestHandler.class);
    static final String SERVICES = "/.gridcache";
    static final String PROMETHEUS_TEXT = "text/plain; version=0.0.4; charset=utf-8";

    private final String poolName;
    private final TicketCodec tickets;
    private final Downloads downloads;
    private final Store store;
    private final Movers movers;
    private final PoolOperations operations;
    private final PoolStats stats;
    private final OriginAccess access;
    private final Peers peers;
    private final GridFtpOriginFetcher gridftp;
    private PartialTransfer partial;
    private final ArrayDeque<FullHttpRequest> pending = new ArrayDeque<>();
    private Mover current;
    private boolean busy;

    /**
     * {@code access} null: no origin is read as the user here (a plain pool refuses such tickets); {@code peers}: for
     * the questions of peers and the seed design's redirects (null: a pool on its own).
     */
    public PoolRequestHandler(String poolName, TicketCodec tickets, Downloads downloads, Store store, Movers movers,
                       PoolOperations operations, PoolStats stats, OriginAccess access, Peers peers,
                       GridFtpOriginFetcher gridftp) {
        this.gridftp = gridftp;
        this.access = access;
        this.peers = peers;
        this.poolName = poolName;
        this.operations = operations;
        this.stats = stats;
        this.tickets = tickets;
        this.downloads = downloads;
        this.store = store;
        this.movers = movers;
    }

    @Override
    protected void channelRead0(ChannelHandlerContext ctx, FullHttpRequest request) {
        if (busy) {
            pending.add(request.retain());
            return;
        }
        serve(ctx, request);
    }

    private void serve(ChannelHandlerContext ctx, FullHttpRequest request) {
        busy = true;
        Exchange ex = new Exchange(ctx, request);
        if (!request.decoderResult().isSuccess()) {
            sendError(ex, HttpResponseStatus.BAD_REQUEST, "malformed request");
            return;
        }
        HttpMethod method = request.method();
        if (!method.equals(HttpMethod.GET) && !method.equals(HttpMethod.HEAD)) {
            FullHttpResponse response = Responses.errorResponse(ex, HttpResponseStatus.METHOD_NOT_ALLOWED,
                    "a pool only serves GET and HEAD");
            response.headers().set(HttpHeaderNames.ALLOW, "GET, HEAD");
            sendError(ex, response, "method " + method + " not allowed");
            return;
        }
        QueryStringDecoder uri = new QueryStringDecoder(request.uri());
        String path;
        try {
            path = GridPath.normalize(UrlCodec.decode(uri.rawPath()));
        } catch (IllegalArgumentException e) {
            sendError(ex, HttpResponseStatus.BAD_REQUEST, "bad path: " + e.getMessage());
            return;
        }
        ex.path = path;
        if (GridPath.isUnder(path, SERVICES)) {
            service(ex, path);
            return;
        }
        Ticket ticket;
        String token = firstValue(uri.parameters().get(Ticket.QUERY_PARAMETER));
        try {
            ticket = tickets.verify(token, path, poolName, Ticket.READ);
        } catch (TicketException e) {
            sendError(ex, HttpResponseStatus.FORBIDDEN, e.getMessage());
            return;
        }
        ex.ticket = ticket;
        String refusal = operations.refusal(ticket);
        if (refusal != null) {
            sendError(ex, HttpResponseStatus.SERVICE_UNAVAILABLE, refusal);
            return;
        }
        if (ex.head && request.headers().contains(Peers.ONLY_IF_CACHED)) {
            answerOnlyIfCached(ex, ticket);
        } else if (ticket.needsUserCredential()) {
            checkThenServe(ex, ticket, token);
        } else if (!ex.head && peers != null && ticket.asksAllPeers() && downloads.peek(ticket) == null) {
            askAllPeers(ex, ticket);
        } else {
            startMover(ex, ticket);
        }
    }

    /** A peer's question: do you hold it? Answered from the index alone; never starts a fetch. */
    private void answerOnlyIfCached(Exchange ex, Ticket ticket) {
        String held = downloads.peek(ticket);
        if (held == null) {
            reply(ex, Responses.errorResponse(ex, HttpResponseStatus.NOT_FOUND, "not cached here"));
            return;
        }
        FullHttpResponse response = new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, HttpResponseStatus.OK);
        response.headers().set(Responses.X_CACHE, held).set(HttpHeaderNames.CONTENT_LENGTH, 0);
        HttpUtil.setKeepAlive(response, ex.keepAlive);
        reply(ex, response);
    }

    /**
     * The seed design (policy {@code random}): on a miss, ask every peer in parallel and redirect the client to the
     * first that holds the file, with a ticket for it; when none does within the peer timeout, fetch it here.
     */
    private void askAllPeers(Exchange ex, Ticket ticket) {
        peers.ask(ticket, peers.named(ticket), false).thenAccept(holder -> ex.ctx.executor().execute(() -> {
            if (!ex.ctx.channel().isActive()) {
                return; // the client left while the peers were asked
            }
            if (holder.isEmpty()) {
                startMover(ex, ticket);
                return;
            }
            FullHttpResponse response = new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, HttpResponseStatus.FOUND);
            response.headers().set(HttpHeaderNames.LOCATION, peers.url(ticket, holder.get().pool()))
                    .set(HttpHeaderNames.CACHE_CONTROL, "no-store")
                    .set(HttpHeaderNames.CONTENT_LENGTH, 0);
            HttpUtil.setKeepAlive(response, ex.keepAlive);
            LOG.info("{} {} 302 to peer {} that holds it", ex.method, ex.path, holder.get().pool().id());
            reply(ex, response);
        }));
    }

    private void reply(Exchange ex, FullHttpResponse response) {
        ex.ctx.writeAndFlush(response).addListener((ChannelFutureListener) f -> next(ex.ctx, f.isSuccess() && ex.keepAlive));
    }

    /**
     * The pool's own services under {@code /.gridcache/}, which need no ticket because they never touch data: the
     * Prometheus metrics and a health check for load balancers and systemd watchdogs.
     */
    private void service(Exchange ex, String path) {
        FullHttpResponse response = switch (path) {
            case SERVICES + "/metrics" -> Responses.text(ex, HttpResponseStatus.OK, PROMETHEUS_TEXT, operations.scrape());
            case SERVICES + "/health" -> Responses.text(ex, HttpResponseStatus.OK, "text/plain; charset=UTF-8", "ok\n");
            default -> null;
        };
        if (response == null) {
            sendError(ex, HttpResponseStatus.NOT_FOUND, "no such pool service: " + path + " (try " + SERVICES + "/metrics)");
            return;
        }
        Responses.sendError(ex, response).addListener((ChannelFutureListener) f -> next(ex.ctx, f.isSuccess() && ex.keepAlive));
    }

    /**
     * An origin read as the user: the subject's credential and permission are settled (off the event loop, see
     * {@link OriginAccess}) before any byte, cached or fetched, goes to the client.
     */
    private void checkThenServe(Exchange ex, Ticket ticket, String token) {
        if (access == null) {
            sendError(ex, HttpResponseStatus.BAD_GATEWAY, "this pool cannot read origins with the user's credential (no TLS)");
            return;
        }
        access.check(ticket, token, downloads.holds(ticket)).whenComplete((ok, error) -> ex.ctx.executor().execute(() -> {
            if (!ex.ctx.channel().isActive()) {
                return; // the client left; channelInactive cleans up
            }
            if (error == null) {
                startMover(ex, ticket);
                return;
            }
            Throwable cause = error instanceof java.util.concurrent.CompletionException && error.getCause() != null ? error.getCause() : error;
            if (cause instanceof DelegatedCredentials.CompletionFailure failure) {
                FullHttpResponse response = Responses.errorResponse(ex, failure.reason().status(), failure.reason().getMessage());
                if (failure.reason().status().code() == 401 && ticket.credentialUrl() != null) {
                    response.headers().set("X-Delegate-To", ticket.credentialUrl().replace("/.gridcache/credential", "/.gridcache/delegation"));
                }
                sendError(ex, response, failure.reason().getMessage() + " (" + ticket.subject() + ")");
            } else {
                LOG.error("permission check of {} for {} failed: {}", ex.path, ticket.subject(), cause.toString());
                sendError(ex, HttpResponseStatus.BAD_GATEWAY, "permission check failed");
            }
        }));
    }

    private void startMover(Exchange ex, Ticket ticket) {
        if (partialRetrieve(ex, ticket)) {
            return;
        }
        Downloads.Source source;
        try {
            source = downloads.open(ticket);
        } catch (FetchException e) {
            sendError(ex, e.status(), e.getMessage());
            return;
        } catch (IOException e) {
            LOG.error("store: cannot open {}: {}", ex.path, e.toString());
            sendError(ex, HttpResponseStatus.INTERNAL_SERVER_ERROR, "pool cannot read its store");
            return;
        }
        if (source instanceof Downloads.Hit hit) {
            current = new HitMover(ex, hit, store, movers, this);
        } else {
            current = new CutThroughMover(ex, (Downloads.Joined) source, store, movers, this);
        }
        current.start();
    }

    /**
     * A Range on a GridFTP file that is neither stored nor being fetched: a partial retrieve for this client only
     * (see {@link PartialTransfer}); true when one was started.
     */
    private boolean partialRetrieve(Exchange ex, Ticket ticket) {
        if (gridftp == null || ex.range == null || ex.head || ticket.size() <= 0) {
            return false;
        }
        try {
            if (!gridftp.supports(java.net.URI.create(ticket.originUrl()))) {
                return false;
            }
        } catch (IllegalArgumentException e) {
            return false;
        }
        ByteRange range = ByteRange.parse(ex.range, ticket.size());
        if (range.kind() != ByteRange.Kind.PARTIAL || downloads.holds(ticket)) {
            return false; // whole file, unsatisfiable (416 from the usual path), or served from the store or the fetch
        }
        partial = new PartialTransfer(ex, ticket, range, gridftp, movers, Pool.ORIGIN_READ_TIMEOUT, (p, reusable) -> {
            if (p == partial) {
                partial = null;
                next(ex.ctx, reusable && ex.keepAlive);
            }
        });
        partial.start();
        return true;
    }

    private static String firstValue(List<String> values) {
        return values == null || values.isEmpty() ? null : values.get(0);
    }

    private void sendError(Exchange ex, HttpResponseStatus status, String reason) {
        sendError(ex, Responses.errorResponse(ex, status, reason), reason);
    }

    /** Every refusal before a mover exists ends here: one log line, the status, the one-line reason. */
    private void sendError(Exchange ex, FullHttpResponse response, String reason) {
        LOG.info("{} {} refused {} for {}: {}", ex.method, ex.path, response.status().code(), ex.client(), reason);
        stats.response(response.status().code());
        Responses.sendError(ex, response).addListener((ChannelFutureListener) f -> next(ex.ctx, f.isSuccess() && ex.keepAlive));
    }

    @Override
    public void moverDone(Mover mover, boolean reusable) {
        if (mover == current) {
            current = null;
            next(mover.exchange().ctx, reusable && mover.exchange().keepAlive);
        }
    }

    /** The response is out: close, or serve the next pipelined request. */
    private void next(ChannelHandlerContext ctx, boolean keepOpen) {
        busy = false;
        if (!keepOpen) {
            releasePending();
            ctx.close();
            return;
        }
        FullHttpRequest request = pending.poll();
        if (request != null) {
            try {
                serve(ctx, request);
            } finally {
                request.release();
            }
        }
    }

    @Override
    public void channelWritabilityChanged(ChannelHandlerContext ctx) throws Exception {
        if (current != null && ctx.channel().isWritable()) {
            current.resume();
        }
        super.channelWritabilityChanged(ctx);
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) throws Exception {
        if (current != null) {
            current.abort();
        }
        if (partial != null) {
            partial.abort();
        }
        releasePending();
        super.channelInactive(ctx);
    }

    private void releasePending() {
        FullHttpRequest request;
        while ((request = pending.poll()) != null) {
            request.release();
        }
    }

    @Override
    public void userEventTriggered(ChannelHandlerContext ctx, Object evt) throws Exception {
        if (evt instanceof IdleStateEvent && !busy) {
            ctx.close(); // an idle keep-alive connection; a transfer waiting on a slow origin is not idle
            return;
        }
        super.userEventTriggered(ctx, evt);
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        LOG.debug("client {}: {}", ctx.channel().remoteAddress(), cause.toString());
        ctx.close();
    }
}
