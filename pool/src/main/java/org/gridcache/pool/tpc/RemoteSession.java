package org.gridcache.pool.tpc;

import io.netty.buffer.ByteBuf;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaderValues;
import io.netty.handler.codec.http.HttpHeaders;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.HttpResponse;
import io.netty.handler.ssl.SslContext;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.function.Supplier;
import org.gridcache.common.net.AllowedHosts;
import org.gridcache.pool.http.ClientConnection;
import org.gridcache.pool.http.PoolClient;
import org.gridcache.pool.origin.HttpOriginFetcher;
import org.gridcache.pool.origin.RedirectPolicy;

/**
 * One copy's requests to its remote, on connections of its own (closed with it): one at a time, the last kept open
 * for the next request to the same remote. Redirects are followed by this class, at most
 * {@value HttpOriginFetcher#MAX_REDIRECTS}, each as an origin's would be ({@link RedirectPolicy#schemeRefusal}: http(s)
 * with a host, never from https to http) and to an address checked as the first one was ({@link RemoteHttp}); a PUT
 * only on 307 and 308, which keep the method and body. A PUT asks for {@code 100 Continue} before its body, so that a
 * remote refusing it (XRootD: a token it does not take) answers with its status instead of resetting the connection
 * mid-body; a remote that says nothing for {@link #CONTINUE_WAIT} gets the body anyway (RFC 9110 §10.1.1). Header
 * names go spelt as RFC 9110 spells them: XRootD 5.5 matches {@code Content-Length} case-sensitively and took a PUT
 * with {@code content-length} for an empty file (it answered 200 at once and kept nothing).
 */
final class RemoteSession implements AutoCloseable {
    static final Duration CONTINUE_WAIT = Duration.ofSeconds(5);
    /** The body of a redirect or an error page read to keep the connection; a longer one closes it. */
    private static final int SKIPPED = 64 << 10;
    private static final int CHUNK = 256 << 10;
    private static final String CONTENT_LENGTH = "Content-Length";
    private static final String EXPECT = "Expect";
    private static final String ACCEPT_ENCODING = "Accept-Encoding";
    private final PoolClient client;
    private final Supplier<SslContext> tls;
    private final AllowedHosts allowed;
    private volatile boolean closed;
    private volatile ClientConnection connection;
    private volatile CompletableFuture<ClientConnection> connecting;
    /** The remote {@link #connection} goes to: scheme, host and port. */
    private String connectedTo;

    RemoteSession(PoolClient client, Supplier<SslContext> tls, AllowedHosts allowed) {
        this.client = client;
        this.tls = tls;
        this.allowed = allowed;
    }

    /** A remote's answer whose body is read as it comes. */
    record Streamed(int status, HttpHeaders headers, InputStream body) {
        /** The body's announced length; -1 when the remote announced none, or none that reads as a length. */
        long length() {
            try {
                String length = headers.get(HttpHeaderNames.CONTENT_LENGTH);
                return length == null ? -1 : Long.parseLong(length.trim());
            } catch (NumberFormatException e) {
                return -1;
            }
        }
    }

    /** A remote's answer without its body. */
    record Answer(int status, HttpHeaders headers) {
    }

    /** GET {@code uri} with {@code headers}; the body streamed. */
    Streamed get(URI uri, Map<String, String> headers) throws IOException, CopyFailure {
        URI at = uri;
        for (int hop = 0; ; hop++) {
            ClientConnection c = connection(at);
            c.send(request(at, HttpMethod.GET, headers));
            HttpResponse response = c.answer();
            URI next = next(at, response, hop);
            if (next == null) {
                return new Streamed(response.status().code(), response.headers(), c.body());
            }
            c.skip(SKIPPED); // a redirect's body is not wanted
            at = next;
        }
    }

    /** {@code method} (HEAD, DELETE) on {@code uri} with {@code headers}; the answer's body (an error page) dropped. */
    Answer send(URI uri, HttpMethod method, Map<String, String> headers) throws IOException, CopyFailure {
        URI at = uri;
        for (int hop = 0; ; hop++) {
            ClientConnection c = connection(at);
            c.send(request(at, method, headers));
            HttpResponse response = c.answer();
            c.skip(SKIPPED);
            URI next = next(at, response, hop);
            if (next == null) {
                return new Answer(response.status().code(), response.headers());
            }
            at = next;
        }
    }

    /** PUT {@code size} bytes of {@code body} (opened again at each hop) to {@code uri} with {@code headers}. */
    Answer put(URI uri, Map<String, String> headers, Supplier<InputStream> body, long size) throws IOException, CopyFailure {
        URI at = uri;
        for (int hop = 0; ; hop++) {
            ClientConnection c = connection(at);
            HttpRequest head = request(at, HttpMethod.PUT, headers);
            head.headers().set(CONTENT_LENGTH, size) // the remote knows the whole file's size at once
                    .set(EXPECT, HttpHeaderValues.CONTINUE);
            c.begin(head);
            if (c.awaitContinue(CONTINUE_WAIT)) {
                sendBody(c, body, size);
            }
            HttpResponse response = c.answer();
            c.skip(SKIPPED);
            int status = response.status().code();
            URI next = status == 307 || status == 308 ? next(at, response, hop) : null;
            if (next == null) {
                return new Answer(status, response.headers());
            }
            at = next;
        }
    }

    /** Sends the body until its end or until the remote answered (a refusal, a redirect) before it. */
    private static void sendBody(ClientConnection c, Supplier<InputStream> body, long size) throws IOException {
        long sent = 0;
        try (InputStream in = body.get()) {
            while (true) {
                ByteBuf chunk = c.alloc().buffer(CHUNK);
                int n;
                try {
                    n = chunk.writeBytes(in, CHUNK);
                } catch (IOException | RuntimeException e) {
                    chunk.release();
                    throw e;
                }
                if (n < 0) {
                    chunk.release();
                    break;
                }
                sent += n;
                if (!c.write(chunk)) {
                    return; // answered meanwhile: the answer says what became of the PUT
                }
            }
        }
        if (sent != size) {
            c.close(); // the remote waits for bytes that do not come
            throw new IOException("the file to send has " + sent + " bytes, not " + size);
        }
        c.end();
    }

    private static HttpRequest request(URI uri, HttpMethod method, Map<String, String> headers) {
        HttpRequest request = PoolClient.head(method, uri);
        request.headers().set(ACCEPT_ENCODING, HttpHeaderValues.IDENTITY); // the bytes as stored
        headers.forEach(request.headers()::set);
        return request;
    }

    /**
     * The connection to {@code uri}'s remote: the last one when it goes there and may be used again, else a new one
     * to the first of the remote's checked addresses that takes it.
     */
    private ClientConnection connection(URI uri) throws IOException, CopyFailure {
        String host = uri.getHost();
        if (host == null) {
            throw new CopyFailure("the remote URL names no host");
        }
        boolean https = PoolClient.https(uri);
        int port = PoolClient.port(uri);
        String to = uri.getScheme().toLowerCase(Locale.ROOT) + "://" + host.toLowerCase(Locale.ROOT) + ":" + port;
        ClientConnection last = connection;
        if (last != null && last.reusable() && to.equals(connectedTo)) {
            return last;
        }
        if (last != null) {
            last.close();
            connection = null;
        }
        String name = host.startsWith("[") ? host.substring(1, host.length() - 1) : host; // an IPv6 literal's address
        List<InetSocketAddress> addresses = RemoteHttp.addresses(allowed, name, port);
        IOException failure = null;
        for (InetSocketAddress address : addresses) {
            CompletableFuture<ClientConnection> opening = client.open(address, name, https ? tls : null,
                    RemoteHttp.CONNECT_TIMEOUT, RemoteHttp.IDLE_TIMEOUT);
            connecting = opening;
            if (closed) {
                opening.cancel(false);
            }
            try {
                ClientConnection c = opening.get();
                connection = c;
                connectedTo = to;
                if (closed) {
                    c.close();
                }
                return c;
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new CopyFailure("interrupted");
            } catch (CancellationException e) {
                throw new IOException("closed");
            } catch (ExecutionException e) {
                Throwable cause = e.getCause();
                failure = cause instanceof IOException io ? io : new IOException(CopyService.oneLine(cause), cause);
            }
        }
        throw failure;
    }

    /** The URL {@code response} redirects to, checked; null when it is no redirect. */
    private static URI next(URI from, HttpResponse response, int hop) throws CopyFailure {
        int status = response.status().code();
        String location = response.headers().get(HttpHeaderNames.LOCATION);
        if (status < 300 || status > 399 || status == 304 || location == null) {
            return null;
        }
        if (hop >= HttpOriginFetcher.MAX_REDIRECTS) {
            throw new CopyFailure("the remote redirected more than " + HttpOriginFetcher.MAX_REDIRECTS + " times");
        }
        URI to;
        try {
            to = from.resolve(location.trim());
        } catch (IllegalArgumentException e) {
            throw new CopyFailure("the remote redirected to an unusable Location");
        }
        String refusal = RedirectPolicy.schemeRefusal(from, to);
        if (refusal != null) {
            throw new CopyFailure("the remote " + refusal);
        }
        return to;
    }

    /** Closes the copy's connection (and breaks off what is still running on it); may be called from any thread. */
    @Override
    public void close() {
        closed = true;
        CompletableFuture<ClientConnection> opening = connecting;
        if (opening != null) {
            opening.cancel(false);
        }
        ClientConnection c = connection;
        if (c != null) {
            c.close();
        }
    }
}
