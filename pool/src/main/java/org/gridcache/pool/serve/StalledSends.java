package org.gridcache.pool.serve;

import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelOutboundBuffer;
import io.netty.handler.timeout.IdleState;
import io.netty.handler.timeout.IdleStateEvent;
import java.time.Duration;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A response that makes no progress for {@code pool.send-timeout} is given up and its connection closed: a client that
 * stopped reading (or reads a byte a second of a large file) would otherwise hold the connection, its file and the
 * bytes queued for it for as long as it likes. The idle handler before this one observes the output, so a slow transfer
 * that moves is never idle; its writer-idle events stop here (an idle keep-alive connection is the pipelining gate's).
 */
final class StalledSends extends ChannelInboundHandlerAdapter {
    private static final Logger LOG = LoggerFactory.getLogger(StalledSends.class);
    private final Duration timeout;

    StalledSends(Duration timeout) {
        this.timeout = timeout;
    }

    @Override
    public void userEventTriggered(ChannelHandlerContext ctx, Object evt) throws Exception {
        if (evt instanceof IdleStateEvent idle && idle.state() == IdleState.WRITER_IDLE) {
            ChannelOutboundBuffer queued = ctx.channel().unsafe().outboundBuffer();
            if (queued != null && !queued.isEmpty()) {
                LOG.info("{}: a response made no progress for {} (the client stopped reading): closing",
                        ctx.channel().remoteAddress(), timeout);
                ctx.close();
            }
            return;
        }
        super.userEventTriggered(ctx, evt);
    }
}
