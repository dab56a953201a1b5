package org.gridcache.pool.serve;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.embedded.EmbeddedChannel;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** What a connection does after an early answer: drops what the client still sends, and closes within bounds. */
class LingeringCloseTest {
    private final List<Object> passed = new ArrayList<>();
    private final EmbeddedChannel channel = new EmbeddedChannel(new ChannelInboundHandlerAdapter() {
        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            passed.add(msg);
        }
    });

    LingeringCloseTest() {
        channel.freezeTime(); // the channel's clock moves only by later(): real time passing on a slow runner fired the 5 s timer 1 ms early
    }

    @Test
    void aClientStillSendingKeepsItOpenAndItsBytesAreDroppedUntilItGoesQuiet() {
        answer();
        for (int i = 0; i < 4; i++) {
            ByteBuf body = Unpooled.wrappedBuffer(new byte[1000]);
            channel.writeInbound(body);
            assertEquals(0, body.refCnt(), "released");
            later(LingeringClose.IDLE.toMillis() - 1);
            assertTrue(channel.isOpen(), "still sending: lingers");
        }
        assertTrue(passed.isEmpty(), "nothing reaches the handlers behind: " + passed);
        later(1);
        assertFalse(channel.isOpen(), "quiet for " + LingeringClose.IDLE + ": closed");
    }

    @Test
    void aClientThatNeverStopsSendingIsCutOffAfterTheLongestLinger() {
        answer();
        long step = LingeringClose.IDLE.toMillis() / 2;
        for (long t = step; t < LingeringClose.MAX.toMillis(); t += step) {
            channel.writeInbound(Unpooled.wrappedBuffer(new byte[100]));
            later(step);
            assertTrue(channel.isOpen());
        }
        channel.writeInbound(Unpooled.wrappedBuffer(new byte[100]));
        later(step);
        assertFalse(channel.isOpen(), "closed after " + LingeringClose.MAX + " however busy the client");
    }

    private void answer() {
        channel.writeAndFlush(Unpooled.wrappedBuffer(new byte[] {'4', '0', '3'})).addListener(LingeringClose.AFTER_ANSWER);
        ByteBuf out = channel.readOutbound();
        out.release();
        assertTrue(channel.isOpen());
    }

    private void later(long millis) {
        channel.advanceTimeBy(millis, TimeUnit.MILLISECONDS);
        channel.runScheduledPendingTasks();
    }
}
