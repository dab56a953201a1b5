package org.gridcache.pool.serve;

import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.channel.socket.ChannelInputShutdownEvent;
import io.netty.handler.codec.http.FullHttpRequest;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.timeout.IdleStateEvent;
import java.util.ArrayDeque;
import org.gridcache.pool.http.Exchange;
import org.gridcache.pool.http.Responses;
import org.gridcache.pool.mover.PoolStats;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One request at a time per connection: requests pipelined behind one in progress wait here for its
 * {@link Exchange#end}, so responses never interleave even when a later handler answers asynchronously (a
 * permission check, a question to the peers). Also closes idle keep-alive connections, never one with a
 * request in progress. A client that shuts its side down (a FIN after its requests) gets the answers to what it
 * sent, then the connection closes; with nothing in progress it closes at once.
 *
 * <p>What waits is bounded, as a servlet container bounds it by not parsing ahead: while a request waits, nothing
 * more is read from the connection (TCP pushes back on the client), and of what one read had already brought, at
 * most {@value #MAX_WAITING} requests wait. The one after them is answered, in its turn, 503 with
 * {@code Connection: close}; later ones are dropped unanswered and the connection closes after that answer, so a
 * client retries them on a new connection (RFC 9112 §9.3.2) and one connection can never hold a pool's memory.
 */
final class PipeliningGate extends SimpleChannelInboundHandler<FullHttpRequest> implements Exchange.Turns {
    private static final Logger LOG = LoggerFactory.getLogger(PipeliningGate.class);
    /** Requests that may wait behind the one in progress. */
    static final int MAX_WAITING = 16;
    static final String OVER_LIMIT = "more than " + MAX_WAITING + " pipelined requests on one connection; send the rest on a new connection";

    private final PoolStats stats;
    private final ArrayDeque<FullHttpRequest> pending = new ArrayDeque<>();
    private ChannelHandlerContext ctx;
    private boolean busy;
    /** The request beyond the bound, answered 503 in its turn; null while the bound holds. */
    private FullHttpRequest overLimit;
    private boolean closeAfterAnswer;
    /** The client sent its FIN: nothing more will come once what was read is answered. */
    private boolean inputShut;

    PipeliningGate(PoolStats stats) {
        this.stats = stats;
    }

    @Override
    public void handlerAdded(ChannelHandlerContext ctx) {
        this.ctx = ctx;
    }

    @Override
    protected void channelRead0(ChannelHandlerContext ctx, FullHttpRequest request) {
        if (overLimit != null) {
            return; // dropped: the connection closes once the 503 is out
        }
        if (!busy) {
            pass(request);
            return;
        }
        ctx.channel().config().setAutoRead(false); // read on once nothing waits
        if (pending.size() == MAX_WAITING) {
            LOG.info("{} pipelined more than {} requests: answering those waiting, then 503 and closing", ctx.channel().remoteAddress(),
                    MAX_WAITING);
            stats.pipeliningLimitReached();
            overLimit = request;
        }
        pending.add(request.retain());
    }

    private void pass(FullHttpRequest request) {
        busy = true;
        Exchange exchange = new Exchange(ctx, request, this);
        if (request == overLimit) {
            closeAfterAnswer = true;
            FullHttpResponse refusal = Responses.errorResponse(exchange, HttpResponseStatus.SERVICE_UNAVAILABLE, OVER_LIMIT);
            HttpUtil.setKeepAlive(refusal, false);
            exchange.sendError(refusal, OVER_LIMIT);
            return;
        }
        ctx.fireChannelRead(exchange);
    }

    @Override
    public void counted(int status) {
        stats.response(status);
    }

    /** The response is out: close, or pass on the next pipelined request. */
    @Override
    public void next(boolean keepOpen) {
        busy = false;
        if (!keepOpen || closeAfterAnswer) {
            releasePending();
            ctx.close();
            return;
        }
        FullHttpRequest request = pending.poll();
        if (request == null) {
            if (inputShut) {
                ctx.close();
                return;
            }
            ctx.channel().config().setAutoRead(true);
            return;
        }
        try {
            pass(request);
        } finally {
            request.release();
        }
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) throws Exception {
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
        if (evt instanceof ChannelInputShutdownEvent) {
            inputShut = true;
            if (!busy) {
                ctx.close();
            }
            return;
        }
        super.userEventTriggered(ctx, evt);
    }
}
