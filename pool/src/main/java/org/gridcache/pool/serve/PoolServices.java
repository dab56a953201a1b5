package org.gridcache.pool.serve;

import io.netty.channel.ChannelHandler.Sharable;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpResponseStatus;
import org.gridcache.common.GridPath;
import org.gridcache.pool.http.Exchange;
import org.gridcache.pool.http.Responses;
import org.gridcache.pool.ops.PoolOperations;

/**
 * The pool's own services under {@code /.gridcache/}, which need no ticket because they never touch data: the
 * Prometheus metrics and a health check for load balancers and systemd watchdogs. Placed before the ticket check
 * for that reason.
 */
@Sharable
final class PoolServices extends SimpleChannelInboundHandler<Exchange> {
    static final String SERVICES = "/.gridcache";
    static final String PROMETHEUS_TEXT = "text/plain; version=0.0.4; charset=utf-8";
    private final PoolOperations operations;

    PoolServices(PoolOperations operations) {
        this.operations = operations;
    }

    @Override
    protected void channelRead0(ChannelHandlerContext ctx, Exchange ex) {
        if (!GridPath.isUnder(ex.path, SERVICES)) {
            ctx.fireChannelRead(ex);
            return;
        }
        FullHttpResponse response = switch (ex.path) {
            case SERVICES + "/metrics" -> Responses.text(ex, HttpResponseStatus.OK, PROMETHEUS_TEXT, operations.scrape());
            case SERVICES + "/health" -> Responses.text(ex, HttpResponseStatus.OK, "text/plain; charset=UTF-8", "ok\n");
            default -> null;
        };
        if (response == null) {
            ex.sendError(HttpResponseStatus.NOT_FOUND, "no such pool service: " + ex.path + " (try " + SERVICES + "/metrics)");
            return;
        }
        ex.reply(response);
    }
}
