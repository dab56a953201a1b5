package org.gridcache.pool.serve;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.handler.codec.http.HttpServerCodec;
import io.netty.util.ReferenceCountUtil;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** A request's head must be complete within the deadline of its first byte; bytes trickling in do not extend it. */
class HeaderDeadlineTest {
    private static EmbeddedChannel channel() {
        HeaderDeadline deadline = new HeaderDeadline(Duration.ofSeconds(20));
        EmbeddedChannel channel = new EmbeddedChannel(deadline.bytes(), new HttpServerCodec(), deadline.heads(),
                new ChannelInboundHandlerAdapter() {
                    @Override
                    public void channelRead(ChannelHandlerContext ctx, Object msg) {
                        ReferenceCountUtil.release(msg);
                    }
                });
        channel.freezeTime();
        return channel;
    }

    private static void send(EmbeddedChannel channel, String text) {
        channel.writeInbound(Unpooled.copiedBuffer(text, StandardCharsets.US_ASCII));
    }

    @Test
    void aHeadTrickledByteByByteIsClosedAtTheDeadline() {
        EmbeddedChannel channel = channel();
        send(channel, "GET /a HTTP/1.1\r\n");
        for (int second = 1; second < 20; second++) {
            channel.advanceTimeBy(1, TimeUnit.SECONDS);
            channel.runScheduledPendingTasks();
            send(channel, "X");
            assertTrue(channel.isOpen(), "open after " + second + " s");
        }
        channel.advanceTimeBy(1, TimeUnit.SECONDS);
        channel.runScheduledPendingTasks();
        assertFalse(channel.isOpen(), "closed once 20 s passed since the head's first byte");
    }

    @Test
    void aCompleteHeadEndsTheDeadlineAndTheNextRequestGetsItsOwn() {
        EmbeddedChannel channel = channel();
        send(channel, "GET /a HTTP/1.1\r\nHost: x\r\n\r\n");
        channel.advanceTimeBy(60, TimeUnit.SECONDS); // a long transfer, say: no head is being read
        channel.runScheduledPendingTasks();
        assertTrue(channel.isOpen());
        send(channel, "GET /b HTTP/1.1\r\n");
        channel.advanceTimeBy(19, TimeUnit.SECONDS);
        channel.runScheduledPendingTasks();
        assertTrue(channel.isOpen(), "the second head has its own 20 s");
        channel.advanceTimeBy(2, TimeUnit.SECONDS);
        channel.runScheduledPendingTasks();
        assertFalse(channel.isOpen());
    }

    /** The first head's deadline runs from the opening: a client that sends nothing, or trickles a TLS handshake. */
    @Test
    void aConnectionThatSendsNothingIsClosedAtTheDeadline() {
        EmbeddedChannel channel = channel();
        channel.advanceTimeBy(19, TimeUnit.SECONDS);
        channel.runScheduledPendingTasks();
        assertTrue(channel.isOpen());
        channel.advanceTimeBy(2, TimeUnit.SECONDS);
        channel.runScheduledPendingTasks();
        assertFalse(channel.isOpen());
    }
}
