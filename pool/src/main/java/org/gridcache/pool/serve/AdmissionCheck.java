package org.gridcache.pool.serve;

import io.netty.channel.ChannelHandler.Sharable;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.SimpleChannelInboundHandler;
import org.gridcache.pool.http.Exchange;
import org.gridcache.pool.http.Refusal;

/**
 * Admits a read (GET, HEAD, a peer's question) in its turn on the connection: the {@link Admission} every method
 * passes, with the target {@link RequestCheck} read; passes on the exchange with its ticket, the origin resolved.
 */
@Sharable
final class AdmissionCheck extends SimpleChannelInboundHandler<Exchange> {
    private final Admission admission;

    AdmissionCheck(Admission admission) {
        this.admission = admission;
    }

    @Override
    protected void channelRead0(ChannelHandlerContext ctx, Exchange ex) {
        try {
            ctx.fireChannelRead(ex.withTicket(admission.admit(ex.method, new Admission.Target(ex.sentPath(), ex.path, ex.token), ex.headers).ticket()));
        } catch (Refusal r) {
            ex.refuse(r);
        }
    }
}
