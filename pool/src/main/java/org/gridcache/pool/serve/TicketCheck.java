package org.gridcache.pool.serve;

import io.netty.channel.ChannelHandler.Sharable;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.QueryStringDecoder;
import java.util.List;
import org.gridcache.common.Ticket;
import org.gridcache.common.TicketCodec;
import org.gridcache.common.TicketException;
import org.gridcache.pool.ops.PoolOperations;

/**
 * Admits a request for data: its ticket must be signed by a door, unexpired, for this path and this pool (else 403,
 * ARCHITECTURE.md "Trust model"), and the pool must accept the transfer now (draining or read-only: 503).
 */
@Sharable
final class TicketCheck extends SimpleChannelInboundHandler<Exchange> {
    private final String poolName;
    private final TicketCodec tickets;
    private final PoolOperations operations;

    TicketCheck(String poolName, TicketCodec tickets, PoolOperations operations) {
        this.poolName = poolName;
        this.tickets = tickets;
        this.operations = operations;
    }

    @Override
    protected void channelRead0(ChannelHandlerContext ctx, Exchange ex) {
        String token = firstValue(new QueryStringDecoder(ex.uri).parameters().get(Ticket.QUERY_PARAMETER));
        Ticket ticket;
        try {
            ticket = tickets.verify(token, ex.path, poolName, Ticket.READ);
        } catch (TicketException e) {
            ex.sendError(HttpResponseStatus.FORBIDDEN, e.getMessage());
            return;
        }
        Exchange admitted = ex.withTicket(ticket, token);
        String refusal = operations.refusal(ticket);
        if (refusal != null) {
            admitted.sendError(HttpResponseStatus.SERVICE_UNAVAILABLE, refusal);
            return;
        }
        ctx.fireChannelRead(admitted);
    }

    private static String firstValue(List<String> values) {
        return values == null || values.isEmpty() ? null : values.get(0);
    }
}
