package org.gridcache.pool.origin;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.buffer.ByteBuf;
import io.netty.channel.nio.NioEventLoopGroup;
import io.netty.channel.socket.nio.NioSocketChannel;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.gridcache.common.origin.OriginEntry;
import org.gridcache.common.ticket.Ticket;
import org.gridcache.pool.http.PoolClient;
import org.gridcache.pool.http.PoolSecurity;
import org.gridcache.pool.http.FetchException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** A block read's ranged GET: only a 206 of exactly the range asked, of the ticket's file, is read. */
class HttpRangedReadsTest {
    private NioEventLoopGroup group;
    private ServerSocket origin;
    private volatile String request;

    @BeforeEach
    void start() throws IOException {
        group = new NioEventLoopGroup(1);
        origin = new ServerSocket(0, 10, InetAddress.getLoopbackAddress());
    }

    @AfterEach
    void stop() throws Exception {
        origin.close();
        group.shutdownGracefully(0, 1, TimeUnit.SECONDS).sync();
    }

    /** Answers one request with {@code head} and {@code body}. */
    private void answer(String head, byte[] body) {
        Thread t = new Thread(() -> {
            try (Socket s = origin.accept(); InputStream in = s.getInputStream()) {
                byte[] buf = new byte[4096];
                int n = in.read(buf);
                request = new String(buf, 0, Math.max(0, n), StandardCharsets.US_ASCII);
                s.getOutputStream().write(head.getBytes(StandardCharsets.US_ASCII));
                s.getOutputStream().write(body);
                s.getOutputStream().flush();
            } catch (IOException e) {
                // closed at the end of the test
            }
        }, "test-origin");
        t.setDaemon(true);
        t.start();
    }

    /** What a read of {@code length} bytes from {@code offset} of a file of {@code size} bytes received, and how it ended. */
    private record Outcome(byte[] bytes, FetchException failure) {
    }

    private Outcome read(long offset, long length, long size) throws Exception {
        URI file = URI.create("http://127.0.0.1:" + origin.getLocalPort() + "/f");
        List<OriginEntry> mounts = List.of(OriginEntry.of("o", "/", "http://127.0.0.1:" + origin.getLocalPort() + "/"));
        PoolClient client = new PoolClient(group, NioSocketChannel.class, PoolSecurity.PLAIN);
        HttpOriginFetcher fetcher = new HttpOriginFetcher(client, Duration.ofSeconds(30), null, new RedirectPolicy(() -> mounts, List::of));
        Ticket ticket = new Ticket("/f", "p", Ticket.READ, Long.MAX_VALUE, "anonymous", "door", file.toString(), size, -1);
        ByteArrayOutputStream got = new ByteArrayOutputStream();
        CompletableFuture<FetchException> done = new CompletableFuture<>();
        fetcher.blockReads().orElseThrow().read(file, ticket, offset, length, new RangedReads.Receiver() {
            @Override
            public void opened() {
            }

            @Override
            public void receive(ByteBuf data) {
                byte[] b = new byte[data.readableBytes()];
                data.readBytes(b);
                data.release();
                got.writeBytes(b);
            }

            @Override
            public void done(FetchException failure) {
                done.complete(failure);
            }
        });
        FetchException failure = done.get(30, TimeUnit.SECONDS);
        return new Outcome(got.toByteArray(), failure);
    }

    @Test
    void a206OfTheRangeAskedIsRead() throws Exception {
        byte[] body = "0123456789".getBytes(StandardCharsets.US_ASCII);
        answer("HTTP/1.1 206 Partial Content\r\nContent-Range: bytes 100-109/1000\r\nContent-Length: 10\r\n\r\n", body);
        Outcome o = read(100, 10, 1000);
        assertNull(o.failure());
        assertArrayEquals(body, o.bytes());
        assertTrue(request.contains("Range: bytes=100-109\r\n") || request.contains("range: bytes=100-109\r\n"), request);
    }

    @Test
    void anOriginIgnoringRangeIsTold() throws Exception {
        answer("HTTP/1.1 200 OK\r\nContent-Length: 1000\r\n\r\n", new byte[1000]);
        Outcome o = read(100, 10, 1000);
        assertNotNull(o.failure());
        assertTrue(o.failure().isWholeInstead(), o.failure().getMessage());
        assertEquals(0, o.bytes().length);
    }

    @Test
    void anotherRangeOrAnotherVersionIsA502() throws Exception {
        answer("HTTP/1.1 206 Partial Content\r\nContent-Range: bytes 0-9/1000\r\nContent-Length: 10\r\n\r\n", new byte[10]);
        Outcome wrongRange = read(100, 10, 1000);
        assertEquals(502, wrongRange.failure().status().code());
        assertTrue(wrongRange.failure().getMessage().contains("another range"), wrongRange.failure().getMessage());

        answer("HTTP/1.1 206 Partial Content\r\nContent-Range: bytes 100-109/2000\r\nContent-Length: 10\r\n\r\n", new byte[10]);
        Outcome otherSize = read(100, 10, 1000);
        assertEquals(502, otherSize.failure().status().code());
        assertTrue(otherSize.failure().getMessage().contains("another version"), otherSize.failure().getMessage());
        assertEquals(0, otherSize.bytes().length, "nothing of it is handed on");
    }

    @Test
    void refusalsKeepTheirStatus() throws Exception {
        answer("HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\n\r\n", new byte[0]);
        assertEquals(404, read(100, 10, 1000).failure().status().code());
        answer("HTTP/1.1 503 Busy\r\nContent-Length: 0\r\n\r\n", new byte[0]);
        assertEquals(502, read(100, 10, 1000).failure().status().code());
    }

    @Test
    void aConnectionThatClosesEarlyIsA502() throws Exception {
        answer("HTTP/1.1 206 Partial Content\r\nContent-Range: bytes 100-109/1000\r\nContent-Length: 10\r\n\r\n", new byte[4]);
        Outcome o = read(100, 10, 1000);
        assertEquals(502, o.failure().status().code());
    }
}
