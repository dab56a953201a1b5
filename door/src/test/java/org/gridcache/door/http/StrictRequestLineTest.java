package org.gridcache.door.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.SocketException;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.HttpConfiguration;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.util.Callback;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The request lines of issue 15's hostile-input run, and the deadline of a request's head (slowloris), through a real
 * Jetty connector with the door's factory.
 */
class StrictRequestLineTest {
    private static final Duration HEAD_DEADLINE = Duration.ofSeconds(1);
    private static Server server;
    private static int port;

    @BeforeAll
    static void start() throws Exception {
        server = new Server();
        StrictHttpConnectionFactory http = new StrictHttpConnectionFactory(new HttpConfiguration());
        http.headerTimeout(HEAD_DEADLINE);
        ServerConnector connector = new ServerConnector(server, http);
        connector.setHost("127.0.0.1");
        connector.setIdleTimeout(30_000); // far beyond the tests: only the head's deadline closes a trickling client
        server.addConnector(connector);
        server.setErrorHandler(new PlainErrorHandler());
        server.setHandler(new Handler.Abstract() {
            @Override
            public boolean handle(Request request, Response response, Callback callback) {
                // what Jetty made of the line: method and version
                response.write(true, StandardCharsets.UTF_8.encode(request.getMethod() + " "
                        + request.getConnectionMetaData().getHttpVersion().asString()), callback);
                return true;
            }
        });
        server.start();
        port = connector.getLocalPort();
    }

    @AfterAll
    static void stop() throws Exception {
        server.stop();
    }

    /** Sends the bytes (in pieces of {@code piece} bytes, each flushed) and returns the whole answer. */
    private static String exchange(byte[] request, int piece) throws IOException {
        try (Socket socket = new Socket("127.0.0.1", port)) {
            socket.setSoTimeout(10_000);
            // written beside the reading: a refusal may come (and the server stop reading) before all is sent
            CompletableFuture<Void> sent = CompletableFuture.runAsync(() -> {
                try {
                    OutputStream out = socket.getOutputStream();
                    for (int i = 0; i < request.length; i += piece) {
                        out.write(request, i, Math.min(piece, request.length - i));
                        out.flush();
                    }
                    socket.shutdownOutput();
                } catch (IOException e) {
                    // the server closed first: its answer is what counts
                }
            });
            InputStream in = socket.getInputStream();
            String answer = new String(in.readAllBytes(), StandardCharsets.ISO_8859_1);
            sent.join();
            return answer;
        }
    }

    private static String exchange(String requestLine) throws IOException {
        return exchange((requestLine + "\r\nHost: x\r\nConnection: close\r\n\r\n").getBytes(StandardCharsets.ISO_8859_1), 1 << 20);
    }

    private static int status(String answer) {
        return Integer.parseInt(answer.substring(9, 12));
    }

    @Test
    void aWellFormedLineIsServed() throws IOException {
        String answer = exchange("GET /a HTTP/1.1");
        assertEquals(200, status(answer), answer);
        assertTrue(answer.endsWith("GET HTTP/1.1"), answer);
        assertEquals(200, status(exchange("GET /a HTTP/1.0")));
    }

    @Test
    void malformedLinesAndVersionsAre400WithAReason() throws IOException {
        String[][] cases = {
            {"GET  HTTP/1.1", "empty request target"},               // was 505: read as HTTP/0.9
            {"GET / HTTP/2.0", "HTTP/2.0 is not spoken"},            // was 426
            {"GET / HTTP/3.0", "HTTP/3.0 is not spoken"},            // was 505
            {"GET / http/1.1", "malformed HTTP version"},            // was served: the name is case-sensitive
            {"GET / HTXP/1.1", "malformed HTTP version"},            // was 505
            {"GET / HTTP/1.10", "malformed HTTP version"},
            {"GET /", "malformed request line"},                      // HTTP/0.9, was 505
            {"GET / HTTP/1.1 extra", "malformed"},
        };
        for (String[] c : cases) {
            String answer = exchange(c[0]);
            assertEquals(400, status(answer), c[0] + ": " + answer);
            assertTrue(answer.contains(c[1]), c[0] + ": " + answer);
        }
    }

    @Test
    void aHigherMinorVersionOfHttp1IsServedAsHttp11() throws IOException {
        String answer = exchange("GET /a HTTP/1.2");
        assertEquals(200, status(answer), answer);
        assertTrue(answer.endsWith("GET HTTP/1.1"), answer);
    }

    @Test
    void anOverlongMethodIs501AndAFloodOfEmptyLines400() throws IOException {
        String answer = exchange("A".repeat(100_000) + " / HTTP/1.1");
        assertEquals(501, status(answer), answer);                   // was 431
        answer = exchange("\r\n".repeat(32_768) + "GET / HTTP/1.1");
        assertEquals(400, status(answer), answer);                   // was 431
        assertEquals(200, status(exchange("\r\n\r\nGET / HTTP/1.1")), "an empty line or two before a request is allowed");
    }

    @Test
    void aLineArrivingByteByByteIsCheckedAsAWhole() throws IOException {
        byte[] bad = "GET /a http/1.1\r\nHost: x\r\nConnection: close\r\n\r\n".getBytes(StandardCharsets.ISO_8859_1);
        assertEquals(400, status(exchange(bad, 1)));
        byte[] good = "GET /a HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n".getBytes(StandardCharsets.ISO_8859_1);
        assertEquals(200, status(exchange(good, 1)));
    }

    @Test
    void everyRequestOfAKeptAliveConnectionIsChecked() throws IOException {
        String two = "GET /a HTTP/1.1\r\nHost: x\r\n\r\nGET /b http/1.1\r\nHost: x\r\n\r\n";
        String answer = exchange(two.getBytes(StandardCharsets.ISO_8859_1), 1 << 20);
        assertTrue(answer.startsWith("HTTP/1.1 200"), answer);
        assertTrue(answer.contains("HTTP/1.1 400"), "the second request's line is refused: " + answer);
    }

    /** Bytes that are no HTTP (a TLS hello, an SSH banner, NULs) were 501 as an overlong method; a method is a token. */
    @Test
    void aMethodOfOtherThanTokenCharactersIs400() throws IOException {
        String[] lines = {"\u0016\u0003\u0001\u0002\u0000\u0001", "SSH-2.0-OpenSSH_9.6\r\nx", "\u0000".repeat(1000), "GE\u0000T / HTTP/1.1",
            "GET\t/ HTTP/1.1", "GE(T) / HTTP/1.1"};
        for (String line : lines) {
            String answer = exchange(line);
            assertEquals(400, status(answer), answer);
            assertTrue(answer.contains("the method is not a token"), answer);
        }
        assertEquals(200, status(exchange("M-SEARCH~ / HTTP/1.1")), "token characters pass the line check (the door answers 501)");
    }

    @Test
    void anOverlongTargetStaysJettys414() throws IOException {
        assertEquals(414, status(exchange("GET /" + "a".repeat(20_000) + " HTTP/1.1")));
    }

    @Test
    void aTrickledHeadIsClosedOnceTheDeadlinePasses() throws Exception {
        try (Socket socket = new Socket("127.0.0.1", port)) {
            socket.setSoTimeout(100);
            OutputStream out = socket.getOutputStream();
            InputStream in = socket.getInputStream();
            out.write("GET / HTTP/1.1\r\nHost: x\r\n".getBytes(StandardCharsets.US_ASCII));
            long start = System.nanoTime();
            StringBuilder answer = new StringBuilder();
            boolean closed = false;
            while (!closed && System.nanoTime() - start < Duration.ofSeconds(10).toNanos()) {
                try {
                    out.write('X'); // a byte every 100 ms: the connection is never idle
                    int b;
                    while ((b = in.read()) >= 0) {
                        answer.append((char) b);
                    }
                    closed = true;
                } catch (SocketTimeoutException e) {
                    // nothing yet: trickle on
                } catch (SocketException e) {
                    closed = true; // reset: closed
                }
            }
            assertTrue(closed, "the connection was closed within 10 s (deadline " + HEAD_DEADLINE + ", idle timeout 30 s)");
            assertTrue(answer.isEmpty() || answer.toString().startsWith("HTTP/1.1 408"), answer.toString());
        }
    }

    /** A client that connects and sends nothing (or trickles a TLS handshake, which never reaches the parser). */
    @Test
    void aConnectionThatSendsNothingIsClosedAtTheDeadline() throws Exception {
        try (Socket socket = new Socket("127.0.0.1", port)) {
            socket.setSoTimeout(10_000); // the idle timeout is 30 s: only the deadline closes within this
            assertEquals(-1, socket.getInputStream().read());
        }
    }

    /** The deadline bounds heads, never a kept-alive connection whose first head came in one read (the soak found it). */
    @Test
    void aKeptAliveConnectionOutlivesTheDeadline() throws Exception {
        try (Socket socket = new Socket("127.0.0.1", port)) {
            socket.setSoTimeout(10_000);
            OutputStream out = socket.getOutputStream();
            InputStream in = socket.getInputStream();
            out.write("GET /a HTTP/1.1\r\nHost: x\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
            assertTrue(readAnswer(in).startsWith("HTTP/1.1 200"));
            Thread.sleep(HEAD_DEADLINE.multipliedBy(2).toMillis()); // an idle keep-alive client, longer than the deadline
            out.write("GET /b HTTP/1.1\r\nHost: x\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
            assertTrue(readAnswer(in).startsWith("HTTP/1.1 200"), "the connection is still served");
        }
    }

    /** One answer of the test handler (its body is "METHOD VERSION", with a Content-Length). */
    private static String readAnswer(InputStream in) throws IOException {
        StringBuilder head = new StringBuilder();
        while (!head.toString().endsWith("\r\n\r\n")) {
            int b = in.read();
            if (b < 0) {
                return head.toString();
            }
            head.append((char) b);
        }
        java.util.regex.Matcher length = java.util.regex.Pattern.compile("(?i)content-length: (\\d+)").matcher(head);
        int n = length.find() ? Integer.parseInt(length.group(1)) : 0;
        in.readNBytes(n);
        return head.toString();
    }
}
