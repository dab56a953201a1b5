package org.gridcache.pool.http;

import io.netty.buffer.ByteBufUtil;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.handler.codec.TooLongFrameException;
import io.netty.handler.codec.http.HttpContent;
import io.netty.handler.codec.http.HttpObject;
import io.netty.handler.codec.http.HttpResponse;
import io.netty.handler.codec.http.LastHttpContent;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.CompletableFuture;

/**
 * Completes {@link PoolClient#exchange}'s answer with the response and its body, or fails it with the connection.
 * Not Netty's aggregator: that judges a response by its {@code Content-Length} alone, and a HEAD's names the size
 * of a file it does not send.
 */
final class WholeAnswer extends SimpleChannelInboundHandler<HttpObject> {
    private final CompletableFuture<PoolClient.Answer> answer;
    private final ByteArrayOutputStream body = new ByteArrayOutputStream();
    private HttpResponse head;

    WholeAnswer(CompletableFuture<PoolClient.Answer> answer) {
        this.answer = answer;
    }

    @Override
    protected void channelRead0(ChannelHandlerContext ctx, HttpObject msg) {
        if (answer.isDone()) {
            return;
        }
        if (msg.decoderResult().isFailure()) {
            fail(ctx, new IOException("a malformed answer: " + msg.decoderResult().cause()));
            return;
        }
        if (msg instanceof HttpResponse response) {
            head = response;
        }
        if (msg instanceof HttpContent content) {
            if (body.size() + content.content().readableBytes() > PoolClient.MAX_ANSWER) {
                fail(ctx, new TooLongFrameException("an answer over " + PoolClient.MAX_ANSWER + " bytes"));
                return;
            }
            body.writeBytes(ByteBufUtil.getBytes(content.content()));
        }
        if (msg instanceof LastHttpContent && head != null) {
            answer.complete(new PoolClient.Answer(head.status().code(), head.headers(), body.toString(StandardCharsets.UTF_8)));
            ctx.close();
        }
    }

    private void fail(ChannelHandlerContext ctx, Throwable cause) {
        answer.completeExceptionally(cause);
        ctx.close();
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        fail(ctx, cause);
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
        answer.completeExceptionally(new IOException("the server closed the connection without an answer"));
    }
}
