package org.gridcache.pool.serve;

import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.socket.ChannelInputShutdownEvent;
import io.netty.channel.socket.DuplexChannel;
import io.netty.handler.ssl.SslHandler;
import io.netty.util.ReferenceCountUtil;
import io.netty.util.concurrent.ScheduledFuture;
import java.time.Duration;
import java.util.concurrent.TimeUnit;

/**
 * Closes a connection whose answer went out before its request's body was read (a PUT refused or failed early), as
 * nginx's and Apache's lingering close do: the answer is followed by a FIN, and what the client still sends is read
 * and dropped until it closes, goes quiet for {@link #IDLE}, or {@link #MAX} has passed. A plain close with unread
 * bytes in the socket sends a reset instead, and a client still sending its body fails on its next write and never
 * reads the answer (curl: "Connection reset by peer" after {@code 100 Continue}, the refusal lost).
 */
final class LingeringClose extends ChannelInboundHandlerAdapter {
    static final Duration IDLE = Duration.ofSeconds(5);
    static final Duration MAX = Duration.ofSeconds(30);
    /** Closes the channel lingering once the answer is written; closes at once if the write failed. */
    static final ChannelFutureListener AFTER_ANSWER = LingeringClose::afterAnswer;

    private ScheduledFuture<?> quiet;
    private ScheduledFuture<?> deadline;

    private LingeringClose() {
    }

    private static void afterAnswer(ChannelFuture written) {
        Channel channel = written.channel();
        if (!written.isSuccess() || !channel.isActive()
                || channel instanceof DuplexChannel duplex && duplex.isInputShutdown()) { // nothing more to read
            channel.close();
            return;
        }
        channel.pipeline().addFirst("lingering-close", new LingeringClose()); // before TLS and HTTP: raw bytes, dropped
        channel.config().setAutoRead(true);
        channel.read();
        SslHandler tls = channel.pipeline().get(SslHandler.class);
        if (tls != null) {
            tls.closeOutbound().addListener(f -> shutDownOutput(channel)); // close_notify, then the FIN
        } else {
            shutDownOutput(channel);
        }
    }

    private static void shutDownOutput(Channel channel) {
        if (channel instanceof DuplexChannel duplex) {
            duplex.shutdownOutput().addListener((ChannelFutureListener) f -> {
                if (!f.isSuccess()) {
                    channel.close();
                }
            });
        }
    }

    @Override
    public void handlerAdded(ChannelHandlerContext ctx) {
        deadline = ctx.executor().schedule((Runnable) ctx::close, MAX.toMillis(), TimeUnit.MILLISECONDS);
        quietFrom(ctx);
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        ReferenceCountUtil.release(msg);
        quiet.cancel(false);
        quietFrom(ctx);
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
        quiet.cancel(false);
        deadline.cancel(false);
        ctx.fireChannelInactive();
    }

    @Override
    public void userEventTriggered(ChannelHandlerContext ctx, Object evt) {
        if (evt instanceof ChannelInputShutdownEvent) {
            ctx.close(); // the client's FIN: it sends nothing more
        }
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        ctx.close(); // a reset from the client while it lingers: nothing left to tell anyone
    }

    private void quietFrom(ChannelHandlerContext ctx) {
        quiet = ctx.executor().schedule((Runnable) ctx::close, IDLE.toMillis(), TimeUnit.MILLISECONDS);
    }
}
