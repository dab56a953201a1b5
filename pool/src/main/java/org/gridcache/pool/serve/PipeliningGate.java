package org.gridcache.pool.serve;

import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.handler.codec.http.FullHttpRequest;
import io.netty.handler.timeout.IdleStateEvent;
import java.util.ArrayDeque;
import org.gridcache.pool.ops.PoolStats;

/**
 * One request at a time per connection: requests pipelined behind one in progress wait here for its
 * {@link Exchange#end}, so responses never interleave even when a later handler answers asynchronously (a
 * permission check, a question to the peers). Also closes idle keep-alive connections, never one with a
 * request in progress.
 */
final class PipeliningGate extends SimpleChannelInboundHandler<FullHttpRequest> {
    private final PoolStats stats;
    private final ArrayDeque<FullHttpRequest> pending = new ArrayDeque<>();
    private ChannelHandlerContext ctx;
    private boolean busy;

    PipeliningGate(PoolStats stats) {
        this.stats = stats;
    }

    @Override
    public void handlerAdded(ChannelHandlerContext ctx) {
        this.ctx = ctx;
    }

    @Override
    protected void channelRead0(ChannelHandlerContext ctx, FullHttpRequest request) {
        if (busy) {
            pending.add(request.retain());
            return;
        }
        pass(request);
    }

    private void pass(FullHttpRequest request) {
        busy = true;
        ctx.fireChannelRead(new Exchange(ctx, request, this));
    }

    void counted(int status) {
        stats.response(status);
    }

    /** The response is out: close, or pass on the next pipelined request. */
    void next(boolean keepOpen) {
        busy = false;
        if (!keepOpen) {
            releasePending();
            ctx.close();
            return;
        }
        FullHttpRequest request = pending.poll();
        if (request != null) {
            try {
                pass(request);
            } finally {
                request.release();
            }
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
        super.userEventTriggered(ctx, evt);
    }
}
