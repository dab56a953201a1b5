package org.gridcache.systemtest;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 15, slow clients: slowloris (hundreds of connections each trickling a header byte a second) on door and pool
 * does not stop normal clients, and each of those connections is closed once {@code door.header-timeout} /
 * {@code pool.header-timeout} has passed since its first byte, though it never went idle; a client that reads a large
 * hit a byte a second is cut off after {@code pool.send-timeout} without the pool's buffers growing.
 */
@Timeout(value = 5, unit = TimeUnit.MINUTES)
class SlowClientsTest {
    /** Shortened from 20 s / 60 s, so the test is short; both far below the idle timeouts (door 30 s, pool 300 s). */
    private static final Duration HEADER_TIMEOUT = Duration.ofSeconds(8);
    private static final Duration SEND_TIMEOUT = Duration.ofSeconds(5);
    private static final int SLOWLORIS = 300;
    private static final long BIG = 64L << 20;
    private static final Pattern DIRECT = Pattern.compile("(?m)^gridcache_pool_netty_direct_bytes\\{[^}]*} (\\S+)$");

    @TempDir
    static Path tmp;
    static NginxOrigin origin;
    static Standalone gridcache;
    static Path data;
    static URI door;
    static URI pool;

    @BeforeAll
    static void start() throws Exception {
        Tools.require("curl", "nginx");
        data = Files.createDirectories(tmp.resolve("data"));
        Tools.randomFile(data.resolve("small.bin"), 100_000, 1);
        Tools.randomFile(data.resolve("big.bin"), BIG, 2);
        origin = NginxOrigin.start(tmp.resolve("nginx"), data);
        gridcache = Standalone.start(tmp, origin.url());
        door = URI.create(gridcache.door());
        pool = URI.create(gridcache.location("/small.bin")).resolve("/");
        for (String[] setting : new String[][] {{"door.header-timeout", HEADER_TIMEOUT.toSeconds() + "s"},
                {"pool.header-timeout", HEADER_TIMEOUT.toSeconds() + "s"}, {"pool.send-timeout", SEND_TIMEOUT.toSeconds() + "s"}}) {
            gridcache.admin("config", "set", setting[0], setting[1]).assertOk();
        }
        for (String name : new String[] {"small.bin", "big.bin"}) { // hits from now on
            Tools.curl("-fsL", "-o", "/dev/null", gridcache.door() + "/" + name).assertOk();
        }
        // the settings reach door and pool through ZooKeeper: a head left unfinished is closed before any idle timeout
        Tools.await("door and pool to apply the header timeouts", Duration.ofSeconds(60),
                () -> closedWithin(door, HEADER_TIMEOUT.multipliedBy(2)) && closedWithin(pool, HEADER_TIMEOUT.multipliedBy(2)));
    }

    @AfterAll
    static void stop() throws Exception {
        Tools.closeAll(origin, gridcache);
    }

    /** Whether a connection that sent half a head is closed by the server within {@code limit}. */
    private static boolean closedWithin(URI server, Duration limit) {
        try (Socket socket = new Socket(server.getHost(), server.getPort())) {
            socket.setSoTimeout((int) limit.toMillis());
            socket.getOutputStream().write("GET /small.bin HTTP/1.1\r\nHost: x\r\n".getBytes(StandardCharsets.US_ASCII));
            InputStream in = socket.getInputStream();
            while (in.read() >= 0) {
                // a 408 may come first
            }
            return true;
        } catch (IOException e) {
            return e instanceof java.net.SocketException; // reset: closed; a timeout: still open
        }
    }

    @Test
    void slowlorisNeitherStopsNormalClientsNorKeepsItsConnections() throws Exception {
        Map<SocketChannel, Long> open = new HashMap<>();
        List<Long> lifetimesMillis = new ArrayList<>();
        try (Selector selector = Selector.open()) {
            for (URI server : List.of(door, pool)) {
                for (int i = 0; i < SLOWLORIS; i++) {
                    SocketChannel channel = SocketChannel.open(new InetSocketAddress(server.getHost(), server.getPort()));
                    channel.configureBlocking(false);
                    channel.register(selector, SelectionKey.OP_READ);
                    channel.write(StandardCharsets.US_ASCII.encode("GET /small.bin HTTP/1.1\r\nHost: x\r\n"));
                    open.put(channel, System.nanoTime());
                }
            }
            // normal clients, while every slowloris connection is held: reads through door and pool, and listings
            AtomicBoolean trickling = new AtomicBoolean(true);
            CompletableFuture<List<Tools.Result>> normal = CompletableFuture.supplyAsync(() -> {
                List<Tools.Result> results = new ArrayList<>();
                for (int i = 0; i < 10 && trickling.get(); i++) {
                    results.add(Tools.curl("-fsL", "--max-time", "10", "-o", "/dev/null", "-w", "%{size_download}",
                            gridcache.door() + "/small.bin"));
                    results.add(Tools.curl("-fs", "--max-time", "10", "-o", "/dev/null", "-w", "%{size_download}", "-X", "PROPFIND",
                            "-H", "Depth: 1", gridcache.door() + "/"));
                }
                return results;
            });
            long deadline = System.nanoTime() + HEADER_TIMEOUT.multipliedBy(4).toNanos();
            ByteBuffer trickle = ByteBuffer.allocate(1);
            ByteBuffer sink = ByteBuffer.allocate(4096);
            int round = 0;
            while (!open.isEmpty() && System.nanoTime() < deadline) {
                byte b = (byte) "X-Slow: loris\r\n".charAt(round++ % 15);
                for (SocketChannel channel : List.copyOf(open.keySet())) {
                    try {
                        channel.write(trickle.clear().put(b).flip());
                    } catch (IOException e) {
                        closed(channel, open, lifetimesMillis); // reset by the server
                    }
                }
                selector.select(1000); // a byte a second
                for (SelectionKey key : selector.selectedKeys()) {
                    SocketChannel channel = (SocketChannel) key.channel();
                    try {
                        int n;
                        while ((n = channel.read(sink.clear())) > 0) {
                            // a 408 before the close
                        }
                        if (n < 0) {
                            closed(channel, open, lifetimesMillis);
                        }
                    } catch (IOException e) {
                        closed(channel, open, lifetimesMillis);
                    }
                }
                selector.selectedKeys().clear();
            }
            trickling.set(false);
            int left = open.size();
            for (SocketChannel channel : open.keySet()) {
                channel.close();
            }
            List<Tools.Result> results = normal.get(2, TimeUnit.MINUTES);
            assertTrue(results.size() >= 2, "normal clients ran beside the slowloris connections");
            for (Tools.Result r : results) {
                assertEquals(0, r.exit(), "a normal client failed beside slowloris: " + r);
            }
            assertEquals(0, left, "slowloris connections the server kept beyond " + HEADER_TIMEOUT.multipliedBy(4).toSeconds() + " s");
            assertEquals(2 * SLOWLORIS, lifetimesMillis.size());
            long longest = lifetimesMillis.stream().mapToLong(Long::longValue).max().orElseThrow();
            System.out.printf("slowloris: %d connections closed by door and pool after %d..%d ms (header timeout %d s); "
                    + "%d normal requests served beside them%n", lifetimesMillis.size(),
                    lifetimesMillis.stream().mapToLong(Long::longValue).min().orElseThrow(), longest, HEADER_TIMEOUT.toSeconds(), results.size());
        }
    }

    private static void closed(SocketChannel channel, Map<SocketChannel, Long> open, List<Long> lifetimesMillis) throws IOException {
        Long since = open.remove(channel);
        if (since != null) {
            lifetimesMillis.add((System.nanoTime() - since) / 1_000_000);
        }
        channel.close();
    }

    /** A reader of a 64 MiB hit at a byte a second: the pool gives up on it, and never buffers the file for it. */
    @Test
    void aSlowReaderIsCutOffAfterTheSendTimeoutWithoutTheBuffersGrowing() throws Exception {
        URI hit = URI.create(gridcache.location("/big.bin"));
        double directBefore = direct();
        long received = 0;
        double directMost = directBefore;
        try (Socket socket = new Socket()) {
            socket.setReceiveBufferSize(4096); // before connecting: the window stays small, the pool's sends stall
            socket.connect(new InetSocketAddress(hit.getHost(), hit.getPort()));
            socket.getOutputStream().write(("GET " + hit.getRawPath() + "?" + hit.getRawQuery() + " HTTP/1.1\r\nHost: "
                    + hit.getHost() + "\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
            InputStream in = socket.getInputStream();
            long slowUntil = System.nanoTime() + SEND_TIMEOUT.multipliedBy(3).toNanos();
            while (System.nanoTime() < slowUntil) {
                if (in.read() < 0) {
                    break;
                }
                received++;
                directMost = Math.max(directMost, direct());
                Thread.sleep(1000); // the slow reader itself: a byte a second, not a wait for the server
            }
            socket.setSoTimeout(30_000);
            byte[] buffer = new byte[1 << 16];
            try {
                for (int n; (n = in.read(buffer)) >= 0; ) {
                    received += n;
                }
            } catch (java.net.SocketException reset) {
                // closed with unsent data: a reset ends it as well as a FIN
            }
        }
        assertTrue(received < BIG, "the slow reader was cut off: it got " + received + " of " + BIG + " bytes");
        assertTrue(directMost - directBefore < 16 << 20, "the pool's direct buffers grew from " + directBefore + " to " + directMost);
        Tools.await("the pool's log line", Duration.ofSeconds(10), () -> {
            return Tools.readLog(gridcache.home().resolve("logs/standalone.log")).contains("made no progress");
        });
        Path out = tmp.resolve("after.bin");
        Tools.curl("-fsL", "-o", out.toString(), gridcache.door() + "/big.bin").assertOk();
        assertEquals(Tools.sha256(data.resolve("big.bin")), Tools.sha256(out), "a normal reader still gets the file whole");
        System.out.printf("slow reader: cut off after %d of %d bytes; pool's Netty direct memory %.0f -> at most %.0f bytes%n",
                received, BIG, directBefore, directMost);
    }

    private static double direct() {
        Tools.Result r = Tools.curl("-fs", pool.resolve("/.gridcache/metrics").toString()).assertOk();
        Matcher m = DIRECT.matcher(r.out());
        assertTrue(m.find(), "no Netty direct memory in the pool's metrics");
        return Double.parseDouble(m.group(1));
    }
}
