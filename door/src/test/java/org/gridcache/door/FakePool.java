package org.gridcache.door;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.gridcache.common.ticket.Ticket;
import org.gridcache.common.ticket.TicketCodec;
import org.gridcache.common.ticket.TicketKeys;
import org.gridcache.common.ticket.TicketSigningKey;
import org.gridcache.common.ticket.TicketException;

/**
 * A pool's data server for proxy tests: checks the ticket like a real pool, serves bytes by namespace path, honours
 * a single {@code Range}, and can break off mid-body.
 */
public final class FakePool implements AutoCloseable {
    private static final Pattern RANGE = Pattern.compile("bytes=(\\d+)-(\\d*)");
    public final Map<String, byte[]> files = new ConcurrentHashMap<>();
    /** Per path, the {@code Digest} value answered to a request with {@code Want-Digest}. */
    public final Map<String, String> digests = new ConcurrentHashMap<>();
    /** Per path, the {@code Want-Digest} the last request carried. */
    public final Map<String, String> wantDigests = new ConcurrentHashMap<>();
    public volatile boolean breakMidBody;
    /** When set, every body stops half-way until it is counted down. */
    public volatile CountDownLatch holdMidBody;
    private final String id;
    private final TicketCodec codec;
    private final HttpServer server;

    public FakePool(String id, TicketSigningKey key) throws IOException {
        this.id = id;
        // whichever door it is: a fake pool trusts the test's key for any issuer
        this.codec = new TicketCodec(null, (issuer, kid) -> TicketKeys.of(issuer, java.util.List.of(key)).publicKey(issuer, kid),
                TicketCodec.DEFAULT_MAX_LIFETIME, java.time.Clock.systemUTC());
        server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.createContext("/", this::handle);
        server.start();
    }

    public String url() {
        return "http://127.0.0.1:" + server.getAddress().getPort();
    }

    private void handle(HttpExchange exchange) throws IOException {
        try (exchange) {
            String path = exchange.getRequestURI().getPath();
            String token = ticketOf(exchange.getRequestURI().getRawQuery());
            try {
                codec.verify(token, path, id, Ticket.READ);
            } catch (TicketException e) {
                text(exchange, 403, e.getMessage());
                return;
            }
            byte[] data = files.get(path);
            if (data == null) {
                text(exchange, 404, "not on this pool");
                return;
            }
            String want = exchange.getRequestHeaders().getFirst("Want-Digest");
            if (want != null) {
                wantDigests.put(path, want);
                if (digests.containsKey(path)) {
                    exchange.getResponseHeaders().set("Digest", digests.get(path));
                }
            }
            if (exchange.getRequestMethod().equals("HEAD")) {
                exchange.getResponseHeaders().set("Content-Length", String.valueOf(data.length));
                exchange.sendResponseHeaders(200, -1);
                return;
            }
            serve(exchange, data);
        }
    }

    private void serve(HttpExchange exchange, byte[] data) throws IOException {
        exchange.getResponseHeaders().set("Content-Type", "application/octet-stream");
        exchange.getResponseHeaders().set("ETag", "\"pool\"");
        exchange.getResponseHeaders().set("Cache-Status", "gridcache; hit");
        String range = exchange.getRequestHeaders().getFirst("Range");
        int from = 0;
        int to = data.length - 1;
        int status = 200;
        if (range != null) {
            Matcher m = RANGE.matcher(range);
            if (!m.matches() || Integer.parseInt(m.group(1)) >= data.length) {
                exchange.getResponseHeaders().set("Content-Range", "bytes */" + data.length);
                exchange.sendResponseHeaders(416, -1);
                return;
            }
            from = Integer.parseInt(m.group(1));
            to = m.group(2).isEmpty() ? to : Math.min(to, Integer.parseInt(m.group(2)));
            status = 206;
            exchange.getResponseHeaders().set("Content-Range", "bytes " + from + "-" + to + "/" + data.length);
        }
        int length = to - from + 1;
        exchange.sendResponseHeaders(status, length);
        OutputStream out = exchange.getResponseBody();
        if (breakMidBody) {
            out.write(data, from, length / 2);
            out.flush();
            return; // closing the exchange with bytes missing drops the connection
        }
        CountDownLatch hold = holdMidBody;
        if (hold != null) {
            out.write(data, from, length / 2);
            out.flush();
            try {
                hold.await(1, TimeUnit.MINUTES);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            out.write(data, from + length / 2, length - length / 2);
            return;
        }
        out.write(data, from, length);
    }

    private static String ticketOf(String query) {
        if (query == null) {
            return null;
        }
        for (String pair : query.split("&")) {
            if (pair.startsWith(Ticket.QUERY_PARAMETER + "=")) {
                return pair.substring(Ticket.QUERY_PARAMETER.length() + 1);
            }
        }
        return null;
    }

    private static void text(HttpExchange exchange, int status, String line) throws IOException {
        byte[] body = (line + "\n").getBytes(StandardCharsets.UTF_8);
        exchange.sendResponseHeaders(status, body.length);
        exchange.getResponseBody().write(body);
    }

    @Override
    public void close() {
        server.stop(0);
    }
}
