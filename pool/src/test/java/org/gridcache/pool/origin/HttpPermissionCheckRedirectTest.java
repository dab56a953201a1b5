package org.gridcache.pool.origin;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.netty.channel.nio.NioEventLoopGroup;
import io.netty.channel.socket.nio.NioSocketChannel;
import io.netty.handler.ssl.SslContextBuilder;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.gridcache.common.origin.OriginEntry;
import org.gridcache.common.ticket.Ticket;
import org.gridcache.pool.http.PoolClient;
import org.gridcache.pool.http.PoolSecurity;
import org.gridcache.pool.access.DelegatedCredentials;
import org.gridcache.pool.http.FetchException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The permission check as the user (a HEAD presenting the user's proxy) follows the same redirects as a fetch: one
 * to a host outside the mount table is refused before any connection, so the proxy never reaches it.
 */
class HttpPermissionCheckRedirectTest {
    private NioEventLoopGroup group;
    private ServerSocket origin;
    private ServerSocket elsewhere;
    private final AtomicInteger elsewhereConnections = new AtomicInteger();

    @BeforeEach
    void start() throws IOException {
        group = new NioEventLoopGroup(1);
        elsewhere = new ServerSocket(0, 10, InetAddress.getLoopbackAddress());
        origin = new ServerSocket(0, 10, InetAddress.getLoopbackAddress());
        daemon(() -> answer(origin,
                "HTTP/1.1 302 Found\r\nLocation: http://localhost:" + elsewhere.getLocalPort() + "/f\r\nContent-Length: 0\r\n\r\n"));
        daemon(() -> {
            try (Socket s = elsewhere.accept()) {
                elsewhereConnections.incrementAndGet();
            } catch (IOException e) {
                // closed at the end of the test
            }
        });
    }

    private static void daemon(Runnable task) {
        Thread t = new Thread(task, "test-server");
        t.setDaemon(true);
        t.start();
    }

    private static void answer(ServerSocket server, String response) {
        try (Socket s = server.accept(); InputStream in = s.getInputStream()) {
            byte[] head = new byte[4096];
            int n = in.read(head); // one small HEAD request
            if (n > 0) {
                s.getOutputStream().write(response.getBytes(StandardCharsets.US_ASCII));
                s.getOutputStream().flush();
            }
        } catch (IOException e) {
            // closed at the end of the test
        }
    }

    @AfterEach
    void stop() throws Exception {
        origin.close();
        elsewhere.close();
        group.shutdownGracefully(0, 1, TimeUnit.SECONDS).sync();
    }

    @Test
    void aRedirectToAHostOutsideTheMountTableIsRefusedAndNeverContacted() throws Exception {
        URI file = URI.create("http://127.0.0.1:" + origin.getLocalPort() + "/f");
        List<OriginEntry> mounts = List.of(OriginEntry.of("o", "/", "http://127.0.0.1:" + origin.getLocalPort() + "/"));
        PoolClient client = new PoolClient(group, NioSocketChannel.class, PoolSecurity.PLAIN);
        HttpOriginFetcher fetcher = new HttpOriginFetcher(client, Duration.ofSeconds(30), null, new RedirectPolicy(() -> mounts, List::of));
        var tls = SslContextBuilder.forClient().build();
        DelegatedCredentials.OriginCredential credential = new DelegatedCredentials.OriginCredential("/CN=Alice", null, () -> tls, 0);
        Ticket ticket = new Ticket("/f", "p", Ticket.READ, Long.MAX_VALUE, "/CN=Alice", "door", file.toString(), 1, -1);

        ExecutionException e = assertThrows(ExecutionException.class,
                () -> fetcher.permissionCheck().orElseThrow().check(file, ticket, credential).get(30, TimeUnit.SECONDS));
        FetchException refused = assertInstanceOf(DelegatedCredentials.CompletionFailure.class, e.getCause()).reason();
        assertEquals(502, refused.status().code());
        assertEquals("origin http://127.0.0.1:" + origin.getLocalPort() + " redirected to localhost, which is neither an origin "
                + "of the mount table nor in pool.redirect-hosts", refused.getMessage());
        assertEquals(0, elsewhereConnections.get());
    }
}
