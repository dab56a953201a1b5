package org.gridcache.pool;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.concurrent.CountDownLatch;
import org.junit.jupiter.api.Test;

/** HTTP/1.1 connection handling on raw sockets: keep-alive, pipelined requests answered in order, Connection: close. */
class PoolConnectionTest extends PoolTestSupport {

    @Test
    void pipelinedRequestsAreAnsweredInOrderOnOneConnection() throws Exception {
        startPool(1 << 20);
        byte[] data = randomBytes(70_000, 60);
        origin.serve("/p", data);
        String target = uri("/p", ticket("/p", origin.url("/p"), data.length)).getRawPath() + "?"
                + uri("/p", ticket("/p", origin.url("/p"), data.length)).getRawQuery();
        String request = "GET " + target + " HTTP/1.1\r\nHost: pool\r\n";
        try (Socket socket = new Socket("127.0.0.1", pool.port())) {
            OutputStream out = socket.getOutputStream();
            out.write((request + "\r\n" + request + "Range: bytes=-5\r\n\r\n" + request + "Connection: close\r\n\r\n")
                    .getBytes(StandardCharsets.US_ASCII));
            out.flush();
            DataInputStream in = new DataInputStream(socket.getInputStream());

            Response first = Response.read(in);
            assertEquals(200, first.status);
            assertArrayEquals(data, first.body);
            Response second = Response.read(in);
            assertEquals(206, second.status);
            assertArrayEquals(Arrays.copyOfRange(data, data.length - 5, data.length), second.body);
            Response third = Response.read(in);
            assertEquals(200, third.status);
            assertArrayEquals(data, third.body);
            assertEquals(-1, in.read(), "the pool closes after a Connection: close request");
        }
        assertEquals(1, origin.gets("/p"));
    }

    /**
     * A client that sends its requests and shuts its output down (a FIN, as HTTP/1.0 tools and {@code nc -N} do) before
     * the first answer is ready (its origin holds back the rest of the file) gets every answer, whole; then the pool
     * closes. The pool used to close on the FIN, and a request still being answered got nothing (HostileRequestsTest's
     * baseline GET, once in CI).
     */
    @Test
    void aClientThatShutsItsOutputDownAfterItsRequestsGetsEveryAnswer() throws Exception {
        startPool(1 << 20);
        byte[] data = randomBytes(70_000, 62);
        CountDownLatch gate = new CountDownLatch(1);
        origin.serveGated("/half", data, 1000, gate);
        URI half = uri("/half", ticket("/half", origin.url("/half"), data.length));
        try (Socket socket = new Socket("127.0.0.1", pool.port())) {
            socket.setSoTimeout((int) WAIT.toMillis());
            socket.getOutputStream().write(("GET " + half.getRawPath() + "?" + half.getRawQuery() + " HTTP/1.1\r\nHost: pool\r\n\r\n"
                    + "GET /.gridcache/health HTTP/1.1\r\nHost: pool\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
            socket.shutdownOutput();
            await().atMost(WAIT).until(() -> origin.gets("/half") == 1); // the request is read, and the FIN behind it
            gate.countDown();
            DataInputStream in = new DataInputStream(socket.getInputStream());
            Response first = Response.read(in);
            assertEquals(200, first.status);
            assertArrayEquals(data, first.body);
            assertEquals(200, Response.read(in).status, "the request behind it, read before the FIN");
            assertEquals(-1, in.read(), "then the pool closes");
        }
    }

    @Test
    void aConnectionShutDownWithNothingInProgressIsClosed() throws Exception {
        startPool(1 << 20);
        try (Socket socket = new Socket("127.0.0.1", pool.port())) {
            socket.setSoTimeout((int) WAIT.toMillis());
            socket.shutdownOutput();
            assertEquals(-1, socket.getInputStream().read());
        }
    }

    /**
     * A transfer in progress (its origin holds back the rest of the file), and behind it 16 pipelined requests that
     * may wait, one more, and one after that: the 16 are answered in order, the 17th is 503 with Connection: close,
     * the 18th never answered, and the connection closes.
     */
    @Test
    void atMostSixteenPipelinedRequestsWaitTheNextIs503AndTheConnectionCloses() throws Exception {
        startPool(1 << 20);
        byte[] data = randomBytes(70_000, 61);
        CountDownLatch gate = new CountDownLatch(1);
        origin.serveGated("/slow", data, 1000, gate);
        URI slow = uri("/slow", ticket("/slow", origin.url("/slow"), data.length));
        StringBuilder requests = new StringBuilder("GET " + slow.getRawPath() + "?" + slow.getRawQuery() + " HTTP/1.1\r\nHost: pool\r\n\r\n");
        for (int i = 0; i < 18; i++) {
            requests.append("GET /.gridcache/health HTTP/1.1\r\nHost: pool\r\n\r\n");
        }
        try (Socket socket = new Socket("127.0.0.1", pool.port())) {
            socket.getOutputStream().write(requests.toString().getBytes(StandardCharsets.US_ASCII));
            socket.getOutputStream().flush();
            await().atMost(WAIT).alias("the pool to refuse the 17th waiting request")
                    .until(() -> metric("gridcache_pool_pipelining_limits_total").equals("1.0"));
            gate.countDown();
            DataInputStream in = new DataInputStream(socket.getInputStream());
            Response first = Response.read(in);
            assertEquals(200, first.status);
            assertArrayEquals(data, first.body);
            for (int i = 0; i < 16; i++) {
                assertEquals(200, Response.read(in).status, "waiting request " + (i + 1));
            }
            Response refused = Response.read(in);
            assertEquals(503, refused.status);
            assertTrue(refused.head.toLowerCase().contains("connection: close"), refused.head);
            assertEquals("more than 16 pipelined requests on one connection; send the rest on a new connection",
                    new String(refused.body, StandardCharsets.UTF_8).trim());
            assertEquals(-1, in.read(), "the pool closes after the 503; the 18th is never answered");
        }
        HttpResponse<byte[]> after = http.send(HttpRequest.newBuilder(URI.create(pool.url() + "/.gridcache/health")).build(),
                HttpResponse.BodyHandlers.ofByteArray());
        assertEquals(200, after.statusCode(), "other connections are served as before");
    }

    /** The value of a metric of the pool's Prometheus page, "" when absent. */
    private String metric(String name) throws Exception {
        String page = new String(http.send(HttpRequest.newBuilder(URI.create(pool.url() + "/.gridcache/metrics")).build(),
                HttpResponse.BodyHandlers.ofByteArray()).body(), StandardCharsets.UTF_8);
        return page.lines().filter(l -> l.startsWith(name + "{") || l.startsWith(name + " "))
                .map(l -> l.substring(l.lastIndexOf(' ') + 1)).findFirst().orElse("");
    }

    /** Just enough of an HTTP/1.1 response reader for Content-Length bodies. */
    private record Response(int status, String head, byte[] body) {
        static Response read(DataInputStream in) throws IOException {
            String head = readHead(in);
            int status = Integer.parseInt(head.substring(9, 12));
            int length = head.lines().filter(l -> l.toLowerCase().startsWith("content-length:"))
                    .map(l -> Integer.parseInt(l.substring(15).trim())).findFirst().orElseThrow();
            byte[] body = new byte[length];
            in.readFully(body);
            assertTrue(head.startsWith("HTTP/1.1 "), head);
            return new Response(status, head, body);
        }

        private static String readHead(InputStream in) throws IOException {
            ByteArrayOutputStream head = new ByteArrayOutputStream();
            int matched = 0;
            while (matched < 4) {
                int b = in.read();
                if (b < 0) {
                    throw new IOException("connection closed in a response head");
                }
                head.write(b);
                matched = (b == "\r\n\r\n".charAt(matched)) ? matched + 1 : (b == '\r' ? 1 : 0);
            }
            return head.toString(StandardCharsets.US_ASCII);
        }
    }
}
