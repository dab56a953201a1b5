package org.gridcache.pool.serve;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpServerCodec;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.util.ReferenceCountUtil;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** A request's Transfer-Encoding at the pool (issue 15, R6): refused, or served with the connection closed after it. */
class FramingCheckTest {
    @Test
    void codingsThePoolCannotFrameAreRefused() {
        assertEquals(HttpResponseStatus.BAD_REQUEST, FramingCheck.refusal(HttpVersion.HTTP_1_1, List.of("gzip")).status());
        assertEquals(HttpResponseStatus.BAD_REQUEST, FramingCheck.refusal(HttpVersion.HTTP_1_1, List.of("chunked, chunked")).status());
        assertEquals(HttpResponseStatus.BAD_REQUEST, FramingCheck.refusal(HttpVersion.HTTP_1_1, List.of("chunked", "identity")).status());
        assertEquals(HttpResponseStatus.BAD_REQUEST, FramingCheck.refusal(HttpVersion.HTTP_1_1, List.of("")).status());
        assertEquals(HttpResponseStatus.BAD_REQUEST, FramingCheck.refusal(HttpVersion.HTTP_1_1, List.of("chunked;x=1")).status());
        assertEquals(HttpResponseStatus.BAD_REQUEST, FramingCheck.refusal(HttpVersion.HTTP_1_0, List.of("chunked")).status());
        assertEquals(HttpResponseStatus.NOT_IMPLEMENTED, FramingCheck.refusal(HttpVersion.HTTP_1_1, List.of("gzip, chunked")).status());
        assertNull(FramingCheck.refusal(HttpVersion.HTTP_1_1, List.of("CHUNKED")));
    }

    /** CL.TE: what a front end reading Content-Length took for the body is a request here; it is never read. */
    @Test
    void aHiddenRequestAfterAChunkedBodyIsNeverPassedOn() {
        List<Object> passed = new ArrayList<>();
        EmbeddedChannel channel = channel(passed);
        String hidden = "GET /smuggled HTTP/1.1\r\nHost: x\r\n\r\n";
        channel.writeInbound(bytes("GET /a HTTP/1.1\r\nHost: x\r\nContent-Length: " + (5 + hidden.length())
                + "\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n" + hidden));
        HttpRequest first = (HttpRequest) passed.get(0);
        assertEquals("/a", first.uri());
        assertFalse(HttpUtil.isKeepAlive(first), "the connection closes after the chunked request's answer");
        passed.forEach(ReferenceCountUtil::release);
        channel.finishAndReleaseAll();
    }

    @Test
    void anUnimplementedCodingIsAnsweredAndTheConnectionClosed() {
        List<Object> passed = new ArrayList<>();
        EmbeddedChannel channel = channel(passed);
        channel.writeInbound(bytes("GET /a HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: gzip, chunked\r\n\r\n0\r\n\r\n"
                + "GET /b HTTP/1.1\r\nHost: x\r\n\r\n"));
        assertTrue(passed.isEmpty(), "nothing of the connection reaches the handlers: " + passed);
        ByteBuf out = channel.readOutbound();
        String answer = out.toString(StandardCharsets.ISO_8859_1);
        out.release();
        assertTrue(answer.startsWith("HTTP/1.1 501"), answer);
        assertTrue(answer.contains("transfer coding not implemented: gzip"), answer);
        channel.writeInbound(bytes("more of a body whose framing is unknown"));
        assertTrue(passed.isEmpty(), "what follows is dropped while the connection lingers: " + passed);
        channel.advanceTimeBy(LingeringClose.IDLE.toMillis(), java.util.concurrent.TimeUnit.MILLISECONDS);
        channel.runScheduledPendingTasks();
        assertFalse(channel.isOpen(), "closed once the client went quiet");
        channel.finishAndReleaseAll();
    }

    private static EmbeddedChannel channel(List<Object> passed) {
        return new EmbeddedChannel(new HttpServerCodec(), new FramingCheck(), new io.netty.channel.ChannelInboundHandlerAdapter() {
            @Override
            public void channelRead(io.netty.channel.ChannelHandlerContext ctx, Object msg) {
                passed.add(msg);
            }
        });
    }

    private static ByteBuf bytes(String text) {
        return Unpooled.copiedBuffer(text, StandardCharsets.ISO_8859_1);
    }
}
