package org.gridcache.pool.tpc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.sun.net.httpserver.HttpServer;
import java.net.InetSocketAddress;
import java.net.URI;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.gridcache.common.net.AllowedHosts;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The copy's HTTP client: addresses checked before connecting, redirects checked and counted, a connection per copy. */
class RemoteHttpTest {
    private HttpServer server;
    private final List<Integer> clientPorts = new CopyOnWriteArrayList<>();
    private volatile AllowedHosts allowed = AllowedHosts.parse("127.0.0.1");
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
        remote = new RemoteHttp(null, () -> allowed, "test");
    }

    @AfterEach
    void stop() {
        remote.close();
        server.stop(0);
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
