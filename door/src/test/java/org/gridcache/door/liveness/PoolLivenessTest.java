package org.gridcache.door.liveness;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.awaitility.Awaitility;
import org.awaitility.core.ConditionFactory;
import org.gridcache.common.cluster.PoolRecord;
import org.gridcache.common.TestPorts;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Pool liveness against real sockets: a pool process that dies (its sockets closed, its port refusing), one that stops
 * answering without closing anything (a host gone), one that was never there, and their return.
 */
class PoolLivenessTest {
    /** Longer than any test waits: what is learnt within it was not learnt from the periodic ping. */
    private static final Duration NEVER = Duration.ofMinutes(5);
    private final List<AutoCloseable> closeables = new ArrayList<>();
    private final AtomicReference<List<PoolRecord>> registered = new AtomicReference<>(List.of());

    @AfterEach
    void stop() throws Exception {
        for (int i = closeables.size() - 1; i >= 0; i--) {
            closeables.get(i).close();
        }
    }

    private PoolLiveness liveness(Duration period, int misses) throws Exception {
        PoolLiveness liveness = new PoolLiveness(Pings.client("test", null), registered::get, () -> period, () -> misses);
        closeables.add(liveness);
        return liveness.start();
    }

    private HealthServer server(int port) throws IOException {
        HealthServer server = new HealthServer(port);
        closeables.add(server);
        return server;
    }

    private static PoolRecord record(String id, int port, long startedAt) {
        return new PoolRecord(id, "http://127.0.0.1:" + port, "default", 1L << 30, 1L << 29, 0, 0, 0, "test", startedAt);
    }

    private static ConditionFactory await(String what) {
        return Awaitility.await(what).atMost(Duration.ofSeconds(20)).pollInterval(Duration.ofMillis(20));
    }

    @Test
    void aPoolWhoseProcessDiesIsSuspectAsSoonAsItsConnectionClosesNotAtTheNextPing() throws Exception {
        HealthServer p1 = server(0);
        HealthServer p2 = server(0);
        PoolRecord one = record("p1", p1.port(), 1);
        PoolRecord two = record("p2", p2.port(), 1);
        registered.set(List.of(one, two));
        PoolLiveness liveness = liveness(NEVER, 2);
        SelectablePools selectable = new SelectablePools(registered::get, liveness);
        await("the first pings answered").until(() -> p1.answered.get() == 1 && p2.answered.get() == 1);
        assertSame(registered.get(), selectable.get(), "nobody suspect: ZooKeeper's very list");

        p2.kill();
        await("p2 suspect, long before the next ping is due").until(() -> liveness.isSuspect(two));
        assertEquals(List.of(one), selectable.get());
        assertFalse(liveness.isSuspect(one));
        assertEquals(1, liveness.suspicions());
        assertEquals(1, liveness.suspectCount());
        assertTrue(liveness.suspects().get(0).startsWith("p2: connection refused"), liveness.suspects().toString());
    }

    @Test
    void aPoolSlowToAnswerButTakingConnectionsIsNotSuspect() throws Exception {
        HealthServer p1 = server(0);
        PoolRecord one = record("p1", p1.port(), 1);
        registered.set(List.of(one));
        PoolLiveness liveness = liveness(Duration.ofMillis(50), 2);
        await("a ping answered").until(() -> p1.answered.get() >= 1);
        p1.silent = true; // a starved JVM: its kernel still completes handshakes
        Awaitility.await("p1 never suspect for being slow").during(Duration.ofMillis(1500)).atMost(Duration.ofSeconds(5))
                .until(() -> !liveness.isSuspect(one));
        assertEquals(0, liveness.suspicions());
    }

    @Test
    void aHostGoneWithoutClosingAnythingIsSuspectAfterTheMissedPingsAndClearedWhenItAnswersAgain() throws Exception {
        HealthServer p1 = server(0);
        PoolRecord one = record("p1", p1.port(), 1);
        registered.set(List.of(one));
        PoolLiveness liveness = liveness(Duration.ofMillis(100), 3);
        await("a ping answered").until(() -> p1.answered.get() >= 1);
        p1.vanish(); // the kept connection stays open and silent, and no handshake is completed any more
        await("p1 suspect for want of answers and of a connection").until(() -> liveness.isSuspect(one));
        assertTrue(liveness.suspects().get(0).startsWith("p1: no answer to 3 pings in a row and no connection within 500 ms"),
                liveness.suspects().toString());
        p1.reappear(); // the network is back
        await("p1 cleared once it answers").until(() -> !liveness.isSuspect(one));
        assertEquals(1, liveness.recoveries());
        assertEquals(0, liveness.suspectCount());
    }

    @Test
    void aPoolNobodyListensForIsSuspectAndADoubtAsksItAgainAtOnce() throws Exception {
        int port = freePort();
        PoolRecord one = record("p1", port, 1);
        registered.set(List.of(one));
        PoolLiveness liveness = liveness(NEVER, 2);
        await("p1 refused").until(() -> liveness.isSuspect(one));
        HealthServer p1 = server(port);
        liveness.doubt("p1"); // as a failed proxied read does
        await("p1 cleared without waiting for the next ping").until(() -> !liveness.isSuspect(one));
        assertEquals(1, p1.answered.get());
    }

    @Test
    void aRestartedPoolIsNoLongerSuspectAndAPoolGoneFromZooKeeperIsForgotten() throws Exception {
        PoolRecord dead = record("p1", freePort(), 1);
        HealthServer other = server(0);
        PoolRecord alive = record("p2", other.port(), 1);
        registered.set(List.of(dead, alive));
        PoolLiveness liveness = liveness(Duration.ofMillis(100), 2);
        await("p1 suspect").until(() -> liveness.isSuspect(dead));
        long before = liveness.version();

        HealthServer restarted = server(0);
        PoolRecord again = record("p1", restarted.port(), 2);
        registered.set(List.of(again, alive));
        await("the new registration watched, not suspect").until(() -> liveness.version() != before && liveness.suspectCount() == 0);
        assertFalse(liveness.isSuspect(again));
        await("the new registration pinged").until(() -> restarted.answered.get() >= 1);

        restarted.kill();
        await("p1 suspect again").until(() -> liveness.isSuspect(again));
        registered.set(List.of(alive)); // its znode expired
        await("p1 forgotten").until(() -> liveness.suspectCount() == 0);
    }

    @Test
    void whenEveryPoolIsSuspectTheDoorChoosesAmongThemAnyway() throws Exception {
        PoolRecord one = record("p1", freePort(), 1);
        PoolRecord two = record("p2", freePort(), 1);
        registered.set(List.of(one, two));
        PoolLiveness liveness = liveness(NEVER, 2);
        SelectablePools selectable = new SelectablePools(registered::get, liveness);
        await("both refused").until(() -> liveness.suspectCount() == 2);
        assertEquals(List.of(one, two), selectable.get(), "its own trouble or theirs: ZooKeeper decides");
    }

    @Test
    void failuresAreDescribedInAFewWords() {
        assertEquals("connection refused", Pings.describe(new java.net.ConnectException("Connection refused")));
        assertEquals("connection closed", Pings.describe(new IOException("x", new java.io.EOFException())));
        assertEquals("unknown host", Pings.describe(new java.net.UnknownHostException("pool.example")));
        assertEquals("TLS failed (SSLHandshakeException)", Pings.describe(new javax.net.ssl.SSLHandshakeException("bad")));
    }

    /** A port nobody listens on until the test starts a server there ({@link TestPorts#freePort}). */
    private static int freePort() {
        return TestPorts.freePort();
    }

    /**
     * A pool's health service on a real socket, one thread per connection: answers every request with 200 "ok"
     * unless {@link #silent}; {@link #kill} closes the listening socket and every connection, as a process's death does.
     */
    static final class HealthServer implements AutoCloseable {
        final AtomicInteger answered = new AtomicInteger();
        volatile boolean silent;
        private volatile boolean vanished;
        private final ServerSocket listening;
        private final List<Socket> connections = new CopyOnWriteArrayList<>();

        HealthServer(int port) throws IOException {
            listening = new ServerSocket();
            listening.setReuseAddress(true);
            listening.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 1); // a short queue to fill (vanish)
            startAccepting();
        }

        private void startAccepting() {
            Thread acceptor = new Thread(this::accept, "health-server-" + listening.getLocalPort());
            acceptor.setDaemon(true);
            acceptor.start();
        }

        int port() {
            return listening.getLocalPort();
        }

        private void accept() {
            while (!listening.isClosed()) {
                try {
                    Socket s = listening.accept();
                    connections.add(s);
                    if (vanished) {
                        return; // accepts no more: the queue fills and later handshakes go unanswered
                    }
                    Thread t = new Thread(() -> serve(s), "health-connection");
                    t.setDaemon(true);
                    t.start();
                } catch (IOException e) {
                    return;
                }
            }
        }

        private void serve(Socket s) {
            try (s; BufferedReader in = new BufferedReader(new InputStreamReader(s.getInputStream(), StandardCharsets.US_ASCII))) {
                OutputStream out = s.getOutputStream();
                for (String line = in.readLine(); line != null; line = in.readLine()) {
                    if (!line.isEmpty()) {
                        continue; // the request line and headers; a ping has no body
                    }
                    if (silent) {
                        continue;
                    }
                    out.write("HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: 3\r\n\r\nok\n".getBytes(StandardCharsets.US_ASCII));
                    out.flush();
                    answered.incrementAndGet();
                }
            } catch (IOException e) {
                // killed
            }
        }

        /**
         * As a host that is cut off: nothing answered on the open connections, and no handshake completed (the listen
         * queue is filled, so the kernel drops further SYNs).
         */
        void vanish() throws IOException {
            silent = true;
            vanished = true;
            for (int i = 0; i < 20; i++) {
                Socket filler = new Socket();
                connections.add(filler);
                try {
                    filler.connect(listening.getLocalSocketAddress(), 300);
                } catch (java.net.SocketTimeoutException e) {
                    return; // full
                }
            }
            throw new AssertionError("the listen queue never filled");
        }

        /** Back after {@link #vanish}: answers and accepts again. */
        void reappear() {
            silent = false;
            vanished = false;
            startAccepting();
        }

        void kill() throws IOException {
            listening.close();
            for (Socket s : connections) {
                s.close();
            }
        }

        @Override
        public void close() throws IOException {
            kill();
        }
    }
}
