package org.gridcache.pool.serve;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.LastHttpContent;
import io.netty.util.concurrent.ScheduledFuture;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A request's line and headers must arrive within {@code pool.header-timeout} of its first byte, as Apache's
 * mod_reqtimeout asks: a client that trickles a header byte every few seconds (slowloris) never lets the connection go
 * idle, and would hold it for ever. Two handlers of one connection share the deadline: {@link #bytes()}, before the
 * codec, starts it when bytes arrive while no request is under way; {@link #heads()}, after the codec, ends it when the
 * head is parsed, and knows a request's end. The first head's deadline runs from the connection's opening, so a client
 * that connects and sends nothing, or trickles a TLS handshake, is bounded too. Past the deadline the connection is
 * closed (nothing was answered yet). All on the channel's event loop.
 */
final class HeaderDeadline {
    private static final Logger LOG = LoggerFactory.getLogger(HeaderDeadline.class);
    private final Duration timeout;
    private ScheduledFuture<?> pending;
    /** Between a request's head and its last content: bytes that arrive belong to its body. */
    private boolean inBody;

    HeaderDeadline(Duration timeout) {
        this.timeout = timeout;
    }

    ChannelHandler bytes() {
        return new ChannelInboundHandlerAdapter() {
            @Override
            public void handlerAdded(ChannelHandlerContext ctx) {
                if (ctx.channel().isActive()) {
                    start(ctx);
                }
            }

            @Override
            public void channelActive(ChannelHandlerContext ctx) throws Exception {
                start(ctx);
                super.channelActive(ctx);
            }

            @Override
            public void channelRead(ChannelHandlerContext ctx, Object msg) {
                if (msg instanceof ByteBuf && !inBody) {
                    start(ctx);
                }
                ctx.fireChannelRead(msg);
            }

            @Override
            public void channelInactive(ChannelHandlerContext ctx) throws Exception {
                cancel();
                super.channelInactive(ctx);
            }
        };
    }

    ChannelHandler heads() {
        return new ChannelInboundHandlerAdapter() {
            @Override
            public void channelRead(ChannelHandlerContext ctx, Object msg) {
                if (msg instanceof HttpRequest) {
                    cancel();
                    inBody = true;
                }
                if (msg instanceof LastHttpContent) {
                    inBody = false;
                }
                ctx.fireChannelRead(msg);
            }
        };
    }

    private void start(ChannelHandlerContext ctx) {
        if (pending == null) {
            pending = ctx.executor().schedule(() -> expire(ctx), timeout.toMillis(), TimeUnit.MILLISECONDS);
        }
    }

    private void expire(ChannelHandlerContext ctx) {
        pending = null;
        LOG.info("{}: request head not complete within {} of its first byte: closing", ctx.channel().remoteAddress(), timeout);
        ctx.close();
    }

    private void cancel() {
        if (pending != null) {
            pending.cancel(false);
            pending = null;
        }
    }
}
