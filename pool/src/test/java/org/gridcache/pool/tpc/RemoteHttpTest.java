package org.gridcache.pool.tpc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.sun.net.httpserver.HttpServer;
import io.netty.channel.nio.NioEventLoopGroup;
import io.netty.channel.socket.nio.NioSocketChannel;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.util.List;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.gridcache.common.net.AllowedHosts;
import org.gridcache.pool.http.PoolClient;
import org.gridcache.pool.http.PoolSecurity;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The copy's HTTP client: addresses checked before connecting, redirects checked and counted, a connection per copy. */
class RemoteHttpTest {
    private HttpServer server;
    private final List<Integer> clientPorts = new CopyOnWriteArrayList<>();
    private volatile AllowedHosts allowed = AllowedHosts.parse("127.0.0.1");
    private NioEventLoopGroup group;
    private RemoteHttp remote;

    @BeforeEach
    void start() throws Exception {
        server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 8);
        server.createContext("/", exchange -> {
            clientPorts.add(exchange.getRemoteAddress().getPort());
            String path = exchange.getRequestURI().getPath();
            if (path.equals("/loop")) {
                exchange.getResponseHeaders().set("Location", "/loop");
                exchange.sendResponseHeaders(302, -1);
            } else if (path.equals("/to-ftp")) {
                exchange.getResponseHeaders().set("Location", "ftp://127.0.0.1/f");
                exchange.sendResponseHeaders(302, -1);
            } else {
                exchange.sendResponseHeaders(200, 2);
                exchange.getResponseBody().write("ok".getBytes());
            }
            exchange.close();
        });
        server.start();
        group = new NioEventLoopGroup(1);
        remote = new RemoteHttp(new PoolClient(group, NioSocketChannel.class, PoolSecurity.PLAIN), () -> allowed);
    }

    @AfterEach
    void stop() throws Exception {
        server.stop(0);
        group.shutdownGracefully(0, 1, TimeUnit.SECONDS).sync();
    }

    private URI url(String path) {
        return URI.create("http://127.0.0.1:" + server.getAddress().getPort() + path);
    }

    @Test
    void anUnlistedInternalAddressIsRefusedBeforeAnyConnection() throws Exception {
        allowed = AllowedHosts.NONE;
        try (RemoteSession session = remote.open(null)) {
            CopyFailure f = assertThrows(CopyFailure.class, () -> session.get(url("/f"), Map.of()));
            assertEquals("127.0.0.1 is in the loopback range, which tpc.allowed-hosts does not list", f.getMessage());
        }
        assertEquals(List.of(), clientPorts, "the server saw no request");
    }

    @Test
    void redirectsAreCountedAndCheckedForTheirScheme() throws Exception {
        try (RemoteSession session = remote.open(null)) {
            CopyFailure loop = assertThrows(CopyFailure.class, () -> session.get(url("/loop"), Map.of()));
            assertEquals("the remote redirected more than 5 times", loop.getMessage());
            CopyFailure ftp = assertThrows(CopyFailure.class, () -> session.get(url("/to-ftp"), Map.of()));
            assertEquals("the remote redirected to a ftp URL", ftp.getMessage());
        }
    }

    /**
     * XRootD 5.5 reads {@code Content-Length} case-sensitively: a PUT with {@code content-length} was an empty file to
     * it, answered 200 at once. The head goes as RFC 9110 spells it, the body after {@code 100 Continue}.
     */
    @Test
    void aPutsHeadNamesItsLengthAsRfc9110SpellsItAndItsBodyFollowsContinue() throws Exception {
        try (ServerSocket raw = new ServerSocket(0, 1, InetAddress.getByName("127.0.0.1"))) {
            CompletableFuture<String> seen = CompletableFuture.supplyAsync(() -> {
                try (Socket socket = raw.accept()) {
                    InputStream in = socket.getInputStream();
                    StringBuilder head = new StringBuilder();
                    while (!head.toString().endsWith("\r\n\r\n")) {
                        head.append((char) in.read());
                    }
                    OutputStream out = socket.getOutputStream();
                    out.write("HTTP/1.1 100 Continue\r\nConnection: Close\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
                    out.flush();
                    String body = new String(in.readNBytes(4), StandardCharsets.US_ASCII);
                    out.write("HTTP/1.1 201 Created\r\nContent-Length: 0\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
                    out.flush();
                    return head + body;
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            });
            try (RemoteSession session = remote.open(null)) {
                URI to = URI.create("http://127.0.0.1:" + raw.getLocalPort() + "/f");
                RemoteSession.Answer answer = session.put(to, Map.of("Authorization", "Bearer t"),
                        () -> new ByteArrayInputStream("data".getBytes(StandardCharsets.US_ASCII)), 4);
                assertEquals(201, answer.status());
            }
            String request = seen.get(60, TimeUnit.SECONDS);
            assertTrue(request.startsWith("PUT /f HTTP/1.1\r\n"), request);
            for (String header : List.of("Host: 127.0.0.1:", "Content-Length: 4\r\n", "Expect: 100-continue\r\n",
                    "Authorization: Bearer t\r\n")) {
                assertTrue(request.contains("\r\n" + header), "sends " + header.strip() + ": " + request);
            }
            assertTrue(request.endsWith("\r\n\r\ndata"), request);
        }
    }

    @Test
    void eachSessionHasConnectionsOfItsOwn() throws Exception {
        for (int i = 0; i < 2; i++) {
            try (RemoteSession session = remote.open(null)) {
                RemoteSession.Streamed first = session.get(url("/f"), Map.of());
                assertEquals("ok", new String(first.body().readAllBytes()));
                RemoteSession.Streamed second = session.get(url("/f"), Map.of());
                assertEquals("ok", new String(second.body().readAllBytes()));
            }
        }
        assertEquals(4, clientPorts.size());
        assertEquals(clientPorts.get(0), clientPorts.get(1), "one copy's requests may share its connection");
        assertTrue(!clientPorts.subList(2, 4).contains(clientPorts.get(0)), "the next copy never gets it: " + clientPorts);
    }
}
