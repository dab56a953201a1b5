package org.gridcache.door;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.apache.curator.framework.CuratorFramework;
import org.gridcache.common.settings.ClusterSettings.Keys;
import org.gridcache.common.origin.FileOriginRoots;
import org.gridcache.common.origin.OriginEntry;
import org.gridcache.common.ticket.TicketSigningKey;
import org.gridcache.zk.ClusterConfig;
import org.gridcache.zk.EmbeddedZooKeeper;
import org.gridcache.zk.MountTable;
import org.gridcache.zk.Zk;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The door's bounds on what clients hold, through real sockets: at {@code door.max-connections} a new connection waits
 * (Jetty stops accepting; the kernel holds it in the backlog) until one closes, and while the door is at its limit an
 * idle connection is closed after {@code door.low-resources-idle-timeout}, so waiting clients get in.
 */
class DoorLimitsTest {
    @TempDir
    Path tmp;
    private final List<AutoCloseable> closeables = new ArrayList<>();
    private Door door;

    private void start(int maxConnections, String lowResourcesIdle) throws Exception {
        EmbeddedZooKeeper server = EmbeddedZooKeeper.start(tmp.resolve("zk"), "127.0.0.1", 0);
        closeables.add(server);
        CuratorFramework zk = Zk.connect(server.connectString());
        closeables.add(zk);
        Path files = Files.createDirectories(tmp.resolve("files"));
        MountTable.put(zk, OriginEntry.of("local", "/", files.toUri().toString()));
        ClusterConfig.set(zk, Keys.DOOR_MAX_CONNECTIONS.key(), String.valueOf(maxConnections));
        ClusterConfig.set(zk, Keys.DOOR_LOW_RESOURCES_IDLE_TIMEOUT.key(), lowResourcesIdle);
        door = Door.start(new DoorSettings("door-limits", "127.0.0.1", 0, null, TicketSigningKey.generate())
                .withFileOriginRoots(FileOriginRoots.of(List.of(files))), zk);
        closeables.add(door);
    }

    @AfterEach
    void stop() {
        TestResources.closeInReverse(closeables);
    }

    @Test
    void beyondTheConnectionLimitANewConnectionWaitsUntilOneCloses() throws Exception {
        start(2, "10m"); // the shorter idle timeout out of play: only a close makes room
        Socket a = served();
        Socket b = served();
        try (Socket c = connect()) {
            ask(c);
            c.setSoTimeout(1000);
            assertThrows(SocketTimeoutException.class, () -> c.getInputStream().read(), "not accepted: no answer");
            a.close();
            c.setSoTimeout(30_000);
            assertTrue(statusLine(c).startsWith("HTTP/1.1 200"), "accepted once a connection closed");
        } finally {
            b.close();
        }
    }

    @Test
    void atTheLimitIdleConnectionsAreClosedAfterTheLowResourcesTimeout() throws Exception {
        start(2, "1s");
        try (Socket a = served(); Socket b = served(); Socket c = connect()) {
            ask(c);
            c.setSoTimeout(30_000);
            assertTrue(statusLine(c).startsWith("HTTP/1.1 200"), "accepted once the door closed an idle connection");
            a.setSoTimeout(30_000);
            b.setSoTimeout(30_000);
            assertEquals(-1, endOf(a), "the idle connection a was closed by the door");
            assertEquals(-1, endOf(b), "the idle connection b was closed by the door");
        }
    }

    /** -1 when the door closed the connection (after any bytes still unread). */
    private static int endOf(Socket s) throws IOException {
        InputStream in = s.getInputStream();
        try {
            while (in.read() >= 0) {
                // drain
            }
            return -1;
        } catch (IOException reset) {
            return -1; // closed with a reset: closed all the same
        }
    }

    private Socket connect() throws IOException {
        return new Socket("127.0.0.1", door.port());
    }

    /** A connection the door accepted and answered, kept open (keep-alive). */
    private Socket served() throws IOException {
        Socket s = connect();
        s.setSoTimeout(30_000);
        ask(s);
        String status = statusLine(s);
        assertTrue(status.startsWith("HTTP/1.1 200"), status);
        return s;
    }

    private static void ask(Socket s) throws IOException {
        OutputStream out = s.getOutputStream();
        out.write("GET /.gridcache/health HTTP/1.1\r\nHost: door\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
        out.flush();
    }

    /** The status line, the rest of the head and the body ("ok\n", announced by Content-Length) consumed. */
    private static String statusLine(Socket s) throws IOException {
        InputStream in = s.getInputStream();
        String status = line(in);
        int length = 0;
        for (String header = line(in); !header.isEmpty(); header = line(in)) {
            if (header.toLowerCase(java.util.Locale.ROOT).startsWith("content-length:")) {
                length = Integer.parseInt(header.substring(header.indexOf(':') + 1).trim());
            }
        }
        in.readNBytes(length);
        return status;
    }

    private static String line(InputStream in) throws IOException {
        StringBuilder b = new StringBuilder();
        for (int c = in.read(); c >= 0 && c != '\n'; c = in.read()) {
            if (c != '\r') {
                b.append((char) c);
            }
        }
        return b.toString();
    }
}
