package org.gridcache.pool.serve;

import io.netty.channel.ChannelHandler.Sharable;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.handler.codec.http.HttpResponseStatus;
import java.util.Optional;
import org.gridcache.common.OriginEntry;
import org.gridcache.common.Ticket;
import org.gridcache.common.TicketCodec;
import org.gridcache.common.TicketException;
import org.gridcache.pool.ops.PoolOperations;
import org.gridcache.zk.MountTable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Admits a request for data: its ticket must be signed with a key its issuer publishes, within this pool's lifetime
 * cap, unexpired, for exactly this path (as sent: not {@code /f/} nor {@code //f} for {@code /f}) and this pool
 * (else 403, ARCHITECTURE.md "Trust model"), and the pool must accept the transfer now (draining or read-only: 503). The origin is what the mount table says serves the ticket's path, with
 * the credential mode the ticket was issued for (a ticket names no origin URL). A ticket another pool signed admits
 * only what pools ask each other, peer questions and pulls, and for a file read as the user only with the door's
 * ticket that let the user read it through that pool (a pool's signature alone cannot vouch for a user).
 */
@Sharable
final class TicketCheck extends SimpleChannelInboundHandler<Exchange> {
    private static final Logger LOG = LoggerFactory.getLogger(TicketCheck.class);
    private final String poolName;
    private final TicketCodec tickets;
    private final MountTable mounts;
    private final PoolOperations operations;

    TicketCheck(String poolName, TicketCodec tickets, MountTable mounts, PoolOperations operations) {
        this.poolName = poolName;
        this.tickets = tickets;
        this.mounts = mounts;
        this.operations = operations;
    }

    @Override
    protected void channelRead0(ChannelHandlerContext ctx, Exchange ex) {
        String token = ex.token; // as RequestCheck read it from the query
        Ticket ticket;
        try {
            ticket = tickets.verify(token, ex.sentPath(), poolName, Ticket.READ);
        } catch (TicketException e) {
            ex.sendError(HttpResponseStatus.FORBIDDEN, e.getMessage());
            return;
        }
        if (ticket.issuedByPool() && !ticket.peers().isEmpty()) {
            // pools sign tickets naming no peers: one that does would turn this pool's misses into a fan-out
            LOG.warn("{} signed a ticket for {} naming peers {}", ticket.door(), ex.path, ticket.peers());
            ex.sendError(HttpResponseStatus.FORBIDDEN, "a pool's ticket names no peers");
            return;
        }
        if (ticket.issuedByPool() && ticket.needsDoorGrant()) {
            try {
                tickets.verifyGrant(ticket);
            } catch (TicketException e) {
                LOG.warn("{} asked for {} as {} without the door's grant: {}", ticket.door(), ex.path, ticket.subject(),
                        e.getMessage());
                ex.sendError(HttpResponseStatus.FORBIDDEN, e.getMessage());
                return;
            }
        }
        Optional<OriginEntry> origin = mounts.resolve(ticket.path());
        if (origin.isEmpty()) {
            ex.sendError(HttpResponseStatus.NOT_FOUND, "no origin serves this path now");
            return;
        }
        if (origin.get().credentialMode() != ticket.credential()) {
            ex.sendError(HttpResponseStatus.FORBIDDEN, "the mount table changed since the ticket was issued: ask the door again");
            return;
        }
        Ticket resolved = ticket.withOrigin(origin.get().urlOf(ticket.path()));
        // a door's ticket travels on with the pool's tickets for its peers
        Exchange admitted = ex.withTicket(ticket.issuedByPool() ? resolved : resolved.withGrant(token), token);
        String refusal = operations.refusal(admitted.ticket);
        if (refusal != null) {
            admitted.sendError(HttpResponseStatus.SERVICE_UNAVAILABLE, refusal);
            return;
        }
        ctx.fireChannelRead(admitted);
    }
}
