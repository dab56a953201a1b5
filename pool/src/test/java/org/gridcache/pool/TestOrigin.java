package org.gridcache.pool;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A tiny HTTP/1.1 origin on raw sockets, so a test controls every byte: serve, serve in two halves with a latch
 * in between, die mid-body, refuse with a status, redirect. Counts the GETs per path. One request per connection
 * (the pool asks for Connection: close).
 */
final class TestOrigin implements AutoCloseable {
    interface Responder {
        void respond(OutputStream out) throws Exception;
    }

    /** Thrown by a responder to drop the connection with a reset, mid-response. */
    static final class Abort extends RuntimeException {
        private static final long serialVersionUID = 1L;
    }

    private final ServerSocket server;
    private final ExecutorService threads = Executors.newCachedThreadPool(r -> {
        Thread t = new Thread(r, "test-origin");
        t.setDaemon(true);
        return t;
    });
    private final Map<String, Responder> routes = new ConcurrentHashMap<>();
    private final Map<String, AtomicInteger> gets = new ConcurrentHashMap<>();
    private final Map<String, String> wantDigests = new ConcurrentHashMap<>();

    TestOrigin() throws IOException {
        server = new ServerSocket(0, 100, InetAddress.getLoopbackAddress());
        threads.execute(this::acceptLoop);
    }

    String url(String path) {
        return "http://127.0.0.1:" + server.getLocalPort() + path;
    }

    int gets(String path) {
        AtomicInteger n = gets.get(path);
        return n == null ? 0 : n.get();
    }

    void serve(String path, byte[] body) {
        routes.put(path, out -> {
            head(out, 200, body.length, "Last-Modified: Tue, 01 Apr 2025 10:00:00 GMT\r\nETag: \"v" + body.length + "\"\r\n");
            out.write(body);
        });
    }

    /** As {@link #serve(String, byte[])}, with extra header lines (each ending in CRLF), e.g. a Digest. */
    void serve(String path, byte[] body, String extraHeaders) {
        routes.put(path, out -> {
            head(out, 200, body.length, extraHeaders);
            out.write(body);
        });
    }

    /** The Want-Digest header of the last request for {@code path}; null if it had none. */
    String wantDigest(String path) {
        return wantDigests.get(path);
    }

        /** Sends the head and {@code first} bytes, waits for {@code gate}, then sends the rest. */
    void serveGated(String path, byte[] body, int first, CountDownLatch gate) {
        routes.put(path, out -> {
            head(out, 200, body.length, "");
            out.write(body, 0, first);
            out.flush();
            if (!gate.await(60, TimeUnit.SECONDS)) {
                throw new Abort();
            }
            out.write(body, first, body.length - first);
        });
    }

    /** Sends the head and {@code first} bytes, waits for {@code gate}, then drops the connection. */
    void serveThenDie(String path, byte[] body, int first, CountDownLatch gate) {
        routes.put(path, out -> {
            head(out, 200, body.length, "");
            out.write(body, 0, first);
            out.flush();
            gate.await(60, TimeUnit.SECONDS);
            throw new Abort();
        });
    }

    /** Sends no Content-Length: the body ends when the connection closes. */
    void serveWithoutLength(String path, byte[] body) {
        routes.put(path, out -> {
            out.write("HTTP/1.1 200 OK\r\nConnection: close\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
            out.write(body);
        });
    }

    void status(String path, int code) {
        routes.put(path, out -> head(out, code, 0, ""));
    }

    void redirect(String path, String location) {
        routes.put(path, out -> head(out, 302, 0, "Location: " + location + "\r\n"));
    }

    private static void head(OutputStream out, int code, long length, String extra) throws IOException {
        String head = "HTTP/1.1 " + code + " X\r\nContent-Length: " + length + "\r\nConnection: close\r\n" + extra + "\r\n";
        out.write(head.getBytes(StandardCharsets.US_ASCII));
    }

    private void acceptLoop() {
        while (!server.isClosed()) {
            try {
                Socket socket = server.accept();
                threads.execute(() -> handle(socket));
            } catch (IOException e) {
                return;
            }
        }
    }

    private void handle(Socket socket) {
        try {
            BufferedReader in = new BufferedReader(new InputStreamReader(socket.getInputStream(), StandardCharsets.US_ASCII));
            String requestLine = in.readLine();
            String line;
            String wantDigest = null;
            while ((line = in.readLine()) != null && !line.isEmpty()) {
                if (line.regionMatches(true, 0, "Want-Digest:", 0, 12)) {
                    wantDigest = line.substring(12).trim();
                }
            }
            if (requestLine == null) {
                return;
            }
            String path = requestLine.split(" ")[1];
            if (wantDigest != null) {
                wantDigests.put(path, wantDigest);
            } else {
                wantDigests.remove(path);
            }
            gets.computeIfAbsent(path, p -> new AtomicInteger()).incrementAndGet();
            OutputStream out = socket.getOutputStream();
            Responder responder = routes.get(path);
            if (responder == null) {
                head(out, 404, 0, "");
            } else {
                responder.respond(out);
            }
            out.flush();
        } catch (Abort e) {
            try {
                socket.setSoLinger(true, 0); // reset, not a clean end
            } catch (IOException ignored) {
                // closing anyway
            }
        } catch (Exception e) {
            // the client went away; nothing to do
        } finally {
            try {
                socket.close();
            } catch (IOException ignored) {
                // already gone
            }
        }
    }

    @Override
    public void close() throws IOException {
        server.close();
        threads.shutdownNow();
    }
}
