package org.gridcache.pool.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.sun.net.httpserver.HttpsConfigurator;
import com.sun.net.httpserver.HttpsServer;
import eu.emi.security.authn.x509.X509Credential;
import io.netty.channel.nio.NioEventLoopGroup;
import io.netty.channel.socket.nio.NioSocketChannel;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.HttpResponse;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BooleanSupplier;
import javax.net.ssl.SSLHandshakeException;
import org.gridcache.common.security.GridCredentials;
import org.gridcache.common.security.GridTls;
import org.gridcache.common.security.GridTrust;
import org.gridcache.common.security.TestPki;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The pool client's connections for worker threads: to an address resolved beforehand with TLS checking the name
 * asked for, answers read only as the worker takes them, and a body that waits for {@code 100 Continue}.
 */
class ClientConnectionTest {
    private static final Duration LONG = Duration.ofSeconds(30);
    private NioEventLoopGroup group;
    private ServerSocket raw;

    @BeforeEach
    void start() throws IOException {
        group = new NioEventLoopGroup(1);
        raw = new ServerSocket(0, 8, InetAddress.getLoopbackAddress());
    }

    @AfterEach
    void stop() throws Exception {
        raw.close();
        group.shutdownGracefully(0, 1, TimeUnit.SECONDS).sync();
    }

    private InetSocketAddress rawAddress() {
        return new InetSocketAddress(InetAddress.getLoopbackAddress(), raw.getLocalPort());
    }

    private ClientConnection open(PoolClient client, InetSocketAddress address, String host, boolean tls) throws Exception {
        return client.open(address, host, tls ? client.anonymous() : null, LONG, LONG).get(60, TimeUnit.SECONDS);
    }

    @Test
    void tlsToAResolvedAddressChecksTheNameAskedFor() throws Exception {
        Path pki = TestPki.get();
        X509Credential host = GridCredentials.load(pki.resolve("host/cert.pem"), pki.resolve("host/key.pem"));
        GridTrust trust = GridTrust.load(pki.resolve("certificates"), pki.resolve("vomsdir"), Duration.ofMinutes(10));
        HttpsServer server = HttpsServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 10);
        server.setHttpsConfigurator(new HttpsConfigurator(GridTls.server(host)));
        server.createContext("/", ex -> {
            ex.sendResponseHeaders(200, 2);
            ex.getResponseBody().write("ok".getBytes(StandardCharsets.US_ASCII));
            ex.close();
        });
        server.start();
        try {
            PoolClient client = new PoolClient(group, NioSocketChannel.class, new PoolSecurity(host, trust));
            InetSocketAddress address = server.getAddress();
            try (ClientConnection c = open(client, address, "localhost", true)) {
                c.send(PoolClient.head(HttpMethod.GET, URI.create("https://localhost:" + address.getPort() + "/f")));
                assertEquals(200, c.answer().status().code());
                assertEquals("ok", new String(c.body().readAllBytes(), StandardCharsets.US_ASCII));
                assertTrue(c.reusable(), "kept open for the next request");
            }
            ExecutionException refused = assertThrows(ExecutionException.class,
                    () -> open(client, address, "elsewhere.example.org", true));
            Throwable cause = refused.getCause();
            while (cause.getCause() != null && !(cause instanceof SSLHandshakeException)) {
                cause = cause.getCause();
            }
            assertInstanceOf(SSLHandshakeException.class, cause, "the certificate does not name elsewhere.example.org");
        } finally {
            server.stop(0);
        }
    }

    @Test
    void anAnswerIsReadOnlyAsTheWorkerTakesIt() throws Exception {
        long size = 64L << 20;
        AtomicLong written = new AtomicLong();
        CompletableFuture<Void> served = serve(socket -> {
            readHead(socket.getInputStream());
            OutputStream out = socket.getOutputStream();
            out.write(("HTTP/1.1 200 OK\r\nContent-Length: " + size + "\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
            byte[] block = new byte[64 << 10];
            for (long sent = 0; sent < size; sent += block.length) {
                out.write(block);
                written.addAndGet(block.length);
            }
            out.flush();
        });
        PoolClient client = new PoolClient(group, NioSocketChannel.class, PoolSecurity.PLAIN);
        try (ClientConnection c = open(client, rawAddress(), "localhost", false)) {
            c.send(PoolClient.head(HttpMethod.GET, URI.create("http://localhost/big")));
            assertEquals(200, c.answer().status().code());
            await(c::readingPaused);
            long held = c.bufferedBytes();
            assertTrue(held >= ClientConnection.BUFFERED && held <= ClientConnection.BUFFERED + (256 << 10),
                    "held " + held + " bytes");
            assertFalse(served.isDone(), "the server waits for the client to read: " + written.get() + " bytes written");
            long read = 0;
            byte[] buffer = new byte[1 << 16];
            InputStream body = c.body();
            for (int n; (n = body.read(buffer)) >= 0; ) {
                read += n;
            }
            assertEquals(size, read);
            served.get(60, TimeUnit.SECONDS);
        }
    }

    @Test
    void aBodyWaitsForContinueAndIsNotSentToAServerThatRefusedIt() throws Exception {
        CompletableFuture<Void> served = serve(socket -> {
            readHead(socket.getInputStream());
            socket.getOutputStream().write("HTTP/1.1 403 Forbidden\r\nContent-Length: 0\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
            socket.getOutputStream().flush();
            socket.getInputStream().read(); // until the client closes
        });
        PoolClient client = new PoolClient(group, NioSocketChannel.class, PoolSecurity.PLAIN);
        try (ClientConnection c = open(client, rawAddress(), "localhost", false)) {
            c.begin(put(4));
            assertFalse(c.awaitContinue(LONG), "answered instead of 100 Continue");
            HttpResponse answer = c.answer();
            assertEquals(403, answer.status().code());
        }
        served.get(60, TimeUnit.SECONDS);
    }

    @Test
    void aBodyFollowsContinue() throws Exception {
        ByteArrayOutputStream got = new ByteArrayOutputStream();
        CompletableFuture<Void> served = serve(socket -> {
            InputStream in = socket.getInputStream();
            readHead(in);
            OutputStream out = socket.getOutputStream();
            out.write("HTTP/1.1 100 Continue\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
            out.flush();
            got.write(in.readNBytes(4));
            out.write("HTTP/1.1 201 Created\r\nContent-Length: 0\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
            out.flush();
        });
        PoolClient client = new PoolClient(group, NioSocketChannel.class, PoolSecurity.PLAIN);
        try (ClientConnection c = open(client, rawAddress(), "localhost", false)) {
            c.begin(put(4));
            assertTrue(c.awaitContinue(LONG));
            io.netty.buffer.ByteBuf chunk = c.alloc().buffer(4).writeBytes("data".getBytes(StandardCharsets.US_ASCII));
            assertTrue(c.write(chunk));
            c.end();
            assertEquals(201, c.answer().status().code());
        }
        served.get(60, TimeUnit.SECONDS);
        assertEquals("data", got.toString(StandardCharsets.US_ASCII));
    }

    private static HttpRequest put(long length) {
        HttpRequest head = PoolClient.head(HttpMethod.PUT, URI.create("http://localhost/f"));
        head.headers().set(HttpHeaderNames.CONTENT_LENGTH, length).set(HttpHeaderNames.EXPECT, "100-continue");
        return head;
    }

    private interface Serving {
        void serve(Socket socket) throws IOException;
    }

    /** Serves one connection of the raw server on a thread of its own. */
    private CompletableFuture<Void> serve(Serving serving) {
        return CompletableFuture.runAsync(() -> {
            try (Socket socket = raw.accept()) {
                serving.serve(socket);
            } catch (IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
        });
    }

    private static void readHead(InputStream in) throws IOException {
        int matched = 0;
        byte[] end = "\r\n\r\n".getBytes(StandardCharsets.US_ASCII);
        while (matched < end.length) {
            int b = in.read();
            if (b < 0) {
                throw new IOException("the client closed before its head ended");
            }
            matched = b == end[matched] ? matched + 1 : (b == end[0] ? 1 : 0);
        }
    }

    private static void await(BooleanSupplier condition) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (!condition.getAsBoolean()) {
            assertTrue(System.nanoTime() < deadline, "not within 60 s");
            Thread.sleep(10);
        }
    }
}
