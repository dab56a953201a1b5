package org.gridcache.door.read;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import java.util.function.IntSupplier;
import org.eclipse.jetty.client.HttpClient;
import org.eclipse.jetty.client.InputStreamResponseListener;
import org.eclipse.jetty.client.Request;
import org.eclipse.jetty.client.Response;
import org.eclipse.jetty.ee10.servlet.ServletContextRequest;
import org.eclipse.jetty.http.HttpHeader;
import org.gridcache.common.cluster.PoolRecord;
import org.gridcache.common.transfer.TransferLog;
import org.gridcache.common.transfer.TransferRecord;
import org.gridcache.common.checksum.DigestRequest;
import org.gridcache.common.security.GridSubject;
import org.gridcache.door.exchange.DoorException;
import org.gridcache.door.ops.DoorStats;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Proxy mode (ARCHITECTURE.md, "Flows", a proxied read): for clients that cannot follow a redirect, the door GETs the ticketed pool URL itself
 * and relays status, the headers that describe the body, and the body, streaming through a small buffer (never a
 * whole file in memory). If the pool breaks off mid-body the client's connection is aborted, so the client sees an
 * error rather than a short file that looks complete.
 *
 * <p>Each proxied read holds a door thread for as long as the transfer lasts, and proxy mode is chosen by the
 * client's User-Agent, which anyone can send (issue 11). So a door streams at most {@code door.proxy-max-transfers}
 * at once; one more is refused with 503, {@code Retry-After} and the reason, before any pool is asked.
 */
public final class PoolProxy {
    private static final Logger LOG = LoggerFactory.getLogger(PoolProxy.class);
    private static final List<HttpHeader> RELAYED = List.of(HttpHeader.CONTENT_LENGTH, HttpHeader.CONTENT_RANGE,
            HttpHeader.CONTENT_TYPE, HttpHeader.LAST_MODIFIED, HttpHeader.ETAG, HttpHeader.ACCEPT_RANGES);
    private static final long HEADERS_TIMEOUT_SECONDS = 60; // a pool missing a file may first fetch from the origin
    private static final long IDLE_TIMEOUT_SECONDS = 120;
    private static final int BUFFER = 64 * 1024;
    public static final String RETRY_AFTER_SECONDS = "10";
    private final HttpClient http;
    private final String doorId;
    private final DoorStats stats;
    private final IntSupplier maxTransfers;
    private final Consumer<String> unreachable;
    private final AtomicInteger active = new AtomicInteger();

    /**
     * {@code maxTransfers}: how many proxied reads may run at once, read on every read (a live setting).
     * {@code unreachable}: told the id of a pool that could not be reached or broke off (the door's liveness asks it
     * at once).
     */
    public PoolProxy(HttpClient http, String doorId, DoorStats stats, IntSupplier maxTransfers, Consumer<String> unreachable) {
        this.http = http;
        this.doorId = doorId;
        this.stats = stats;
        this.maxTransfers = maxTransfers;
        this.unreachable = unreachable;
    }

    /** A turn to stream, or a 503; the caller gives it back with {@link #release}. Taken before a ticket is made. */
    void acquire() {
        int limit = maxTransfers.getAsInt();
        if (active.incrementAndGet() > limit) {
            active.decrementAndGet();
            LOG.info("proxied read refused: door.proxy-max-transfers ({}) reached", limit);
            throw new DoorException(503, "this door already streams " + limit + " reads for clients that cannot follow "
                    + "redirects (door.proxy-max-transfers); retry later", Map.of("Retry-After", RETRY_AFTER_SECONDS));
        }
    }

    void release() {
        active.decrementAndGet();
    }

    int active() {
        return active.get();
    }

    /** Streams the pool's answer and writes the transfer record of the door ("node": "door"). */
    void stream(HttpServletRequest client, HttpServletResponse response, PoolRecord pool, String poolUrl, String path,
                GridSubject subject) throws IOException {
        long start = System.nanoTime();
        long[] relayed = {0};
        int[] status = {0};
        String[] source = {null};
        boolean complete = false;
        try {
            relay(client, response, pool, poolUrl, relayed, status, source);
            complete = true;
        } finally {
            stats.proxied(relayed[0]);
            TransferLog.write(new TransferRecord(Instant.now().truncatedTo(ChronoUnit.MILLIS).toString(), "door", doorId,
                    subject.name(), subject.vo(), client.getRemoteAddr(), client.getMethod(), path, relayed[0],
                    (System.nanoTime() - start) / 1_000_000, source[0], 0, status[0], complete, pool.id(),
                    subject.authentication().toString()));
        }
    }

    private void relay(HttpServletRequest client, HttpServletResponse response, PoolRecord pool, String poolUrl,
                       long[] relayed, int[] status, String[] source) throws IOException {
        Request request = http.newRequest(poolUrl).followRedirects(false).idleTimeout(IDLE_TIMEOUT_SECONDS, TimeUnit.SECONDS);
        copyRequestHeader(client, request, HttpHeader.RANGE);
        copyRequestHeader(client, request, HttpHeader.IF_RANGE);
        long headersTimeout = HEADERS_TIMEOUT_SECONDS;
        for (String want : List.of(DigestRequest.WANT_DIGEST, DigestRequest.WANT_REPR_DIGEST)) {
            String value = client.getHeader(want);
            if (value != null) {
                request.headers(h -> h.put(want, value));
                // a pool that misses sends the head of such a request only once the whole file is there
                headersTimeout = FileReads.FILL_TIMEOUT.toSeconds();
            }
        }
        InputStreamResponseListener listener = new InputStreamResponseListener();
        request.send(listener);
        Response answer = awaitHeaders(request, listener, pool, headersTimeout);
        status[0] = answer.getStatus();
        String cache = answer.getHeaders().get("X-Cache");
        source[0] = cache == null ? null : cache.toLowerCase(Locale.ROOT);
        response.setStatus(answer.getStatus());
        for (HttpHeader header : RELAYED) {
            String value = answer.getHeaders().get(header);
            if (value != null) {
                response.setHeader(header.asString(), value);
            }
        }
        // the pool's Cache-Status (RFC 9211) too: the door only relays, the client learns what the cache did
        for (String name : List.of(DigestRequest.DIGEST, DigestRequest.REPR_DIGEST, "Cache-Status")) {
            String value = answer.getHeaders().get(name);
            if (value != null) {
                response.setHeader(name, value);
            }
        }
        try {
            relayBody(listener, response, pool, relayed);
        } catch (PoolBrokeOffException e) {
            unreachable.accept(pool.id());
            abortClient(client, e);
        }
    }

    /** Drops the client connection (no last chunk, no missing bytes pretended away); falls back to throwing. */
    private static void abortClient(HttpServletRequest client, PoolBrokeOffException e) throws IOException {
        ServletContextRequest request = ServletContextRequest.getServletContextRequest(client);
        if (request == null) {
            throw e;
        }
        request.getServletChannel().abort(e);
    }

    private static void copyRequestHeader(HttpServletRequest client, Request request, HttpHeader header) {
        String value = client.getHeader(header.asString());
        if (value != null) {
            request.headers(h -> h.put(header, value));
        }
    }

    private Response awaitHeaders(Request request, InputStreamResponseListener listener, PoolRecord pool, long timeoutSeconds) {
        try {
            return listener.get(timeoutSeconds, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            request.abort(e);
            throw DoorException.badGateway("interrupted while waiting for pool " + pool.id());
        } catch (TimeoutException e) {
            request.abort(e);
            throw DoorException.badGateway("pool " + pool.id() + " did not answer within " + timeoutSeconds + " s");
        } catch (ExecutionException e) {
            Throwable cause = e.getCause() != null ? e.getCause() : e;
            unreachable.accept(pool.id());
            throw DoorException.badGateway("pool " + pool.id() + " unreachable (" + cause.getClass().getSimpleName() + ")");
        }
    }

    private static void relayBody(InputStreamResponseListener listener, HttpServletResponse response, PoolRecord pool,
                                  long[] count) throws IOException {
        byte[] buffer = new byte[BUFFER];
        long relayed = 0;
        try (InputStream in = listener.getInputStream()) {
            OutputStream out = response.getOutputStream();
            while (true) {
                int n;
                try {
                    n = in.read(buffer);
                } catch (IOException e) {
                    LOG.warn("pool {} broke off after {} bytes ({}); aborting the client's connection", pool.id(), relayed,
                            e.getClass().getSimpleName());
                    throw new PoolBrokeOffException(pool.id(), e);
                }
                if (n < 0) {
                    break;
                }
                out.write(buffer, 0, n); // a client that went away throws here; closing `in` then aborts the pool request
                relayed += n;
                count[0] = relayed;
            }
        }
    }

    /** The pool's body ended early; the client connection must be aborted, never ended cleanly. */
    static final class PoolBrokeOffException extends IOException {
        private static final long serialVersionUID = 1L;

        PoolBrokeOffException(String pool, Throwable cause) {
            super("pool " + pool + " broke off mid-body", cause);
        }
    }
}
