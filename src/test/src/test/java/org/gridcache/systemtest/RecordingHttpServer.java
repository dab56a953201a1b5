package org.gridcache.systemtest;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A small HTTP/1.1 server with keep-alive (the JDK's) that records every request it gets, with the client port of the
 * TCP connection it came on: a stand-in for a site's internal service (which must see nothing) or a remote storage
 * (which tells whether two copies shared a connection). GET answers {@link #BODY} with a Content-Length; PUT reads
 * the body and answers 201; a path given a redirect answers 302 or 307 to its URL.
 */
final class RecordingHttpServer implements AutoCloseable {
    static final byte[] BODY = "the internal service's secret\n".getBytes(StandardCharsets.US_ASCII);

    /** One request as it arrived: method, path, the client's port (one per TCP connection), its Authorization. */
    record Seen(String method, String path, int clientPort, String authorization) {
    }

    private final HttpServer server;
    private final List<Seen> seen = new CopyOnWriteArrayList<>();
    private final Map<String, String> redirects = new ConcurrentHashMap<>();

    RecordingHttpServer(String address) throws IOException {
        server = HttpServer.create(new InetSocketAddress(address, 0), 16);
        server.createContext("/", this::handle);
        server.start();
    }

    private void handle(HttpExchange exchange) throws IOException {
        String path = exchange.getRequestURI().getRawPath();
        seen.add(new Seen(exchange.getRequestMethod(), path, exchange.getRemoteAddress().getPort(),
                exchange.getRequestHeaders().getFirst("Authorization")));
        try (InputStream in = exchange.getRequestBody()) {
            in.transferTo(OutputStream.nullOutputStream());
        }
        String to = redirects.get(path);
        if (to != null) {
            exchange.getResponseHeaders().set("Location", to);
            exchange.sendResponseHeaders(exchange.getRequestMethod().equals("PUT") ? 307 : 302, -1);
        } else if (exchange.getRequestMethod().equals("PUT")) {
            exchange.sendResponseHeaders(201, -1);
        } else if (exchange.getRequestMethod().equals("HEAD")) {
            exchange.getResponseHeaders().set("Content-Length", String.valueOf(BODY.length));
            exchange.sendResponseHeaders(200, -1);
        } else {
            exchange.sendResponseHeaders(200, BODY.length);
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(BODY);
            }
        }
        exchange.close();
    }

    /** Requests to {@code path} are redirected to {@code url} (302, a PUT 307). */
    RecordingHttpServer redirect(String path, String url) {
        redirects.put(path, url);
        return this;
    }

    int port() {
        return server.getAddress().getPort();
    }

    /** Every request so far. */
    List<Seen> seen() {
        return List.copyOf(seen);
    }

    @Override
    public void close() {
        server.stop(0);
    }
}
