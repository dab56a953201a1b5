package org.gridcache.pool.tpc;

import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;
import org.eclipse.jetty.client.CompletableResponseListener;
import org.eclipse.jetty.client.ContentResponse;
import org.eclipse.jetty.client.HttpClient;
import org.eclipse.jetty.client.InputStreamRequestContent;
import org.eclipse.jetty.client.InputStreamResponseListener;
import org.eclipse.jetty.client.Request;
import org.eclipse.jetty.client.Response;
import org.eclipse.jetty.http.HttpFields;
import org.eclipse.jetty.http.HttpHeader;
import org.gridcache.pool.origin.HttpOriginFetcher;
import org.gridcache.pool.origin.RedirectPolicy;

/**
 * One copy's requests to its remote, on connections of its own (closed with it). Redirects are followed by this
 * class, at most {@value HttpOriginFetcher#MAX_REDIRECTS}, each as an origin's would be ({@link
 * RedirectPolicy#schemeRefusal}: http(s) with a host, never from https to http) and to an address checked as the
 * first one was ({@link RemoteHttp}); a PUT only on 307 and 308, which keep the method and body. A PUT asks for
 * {@code 100 Continue} before its body, so that a remote refusing it (XRootD: a token it does not take) answers
 * with its status instead of resetting the connection mid-body.
 */
final class RemoteSession implements AutoCloseable {
    private final HttpClient client;

    RemoteSession(HttpClient client) {
        this.client = client;
    }

    /** A remote's answer whose body is read as it comes. */
    record Streamed(int status, HttpFields headers, InputStream body) {
    }

    /** GET {@code uri} with {@code headers}; the body streamed. */
    Streamed get(URI uri, Map<String, String> headers) throws IOException, CopyFailure {
        URI at = uri;
        for (int hop = 0; ; hop++) {
            InputStreamResponseListener listener = new InputStreamResponseListener();
            request(at, "GET", headers).send(listener);
            Response response = await(listener);
            URI next = next(at, response, hop);
            if (next == null) {
                return new Streamed(response.getStatus(), response.getHeaders(), listener.getInputStream());
            }
            listener.getInputStream().close(); // a redirect's body is not wanted
            at = next;
        }
    }

    /** {@code method} (HEAD, DELETE) on {@code uri} with {@code headers}; the answer's body (an error page) kept up to Jetty's 2 MiB. */
    ContentResponse send(URI uri, String method, Map<String, String> headers) throws IOException, CopyFailure {
        return send(uri, method, headers, null, 0);
    }

    /** PUT {@code size} bytes of {@code body} (opened again at each hop) to {@code uri} with {@code headers}. */
    ContentResponse put(URI uri, Map<String, String> headers, Supplier<InputStream> body, long size) throws IOException, CopyFailure {
        return send(uri, "PUT", headers, body, size);
    }

    private ContentResponse send(URI uri, String method, Map<String, String> headers, Supplier<InputStream> body, long size)
            throws IOException, CopyFailure {
        URI at = uri;
        for (int hop = 0; ; hop++) {
            Request request = request(at, method, headers);
            if (body != null) {
                // the remote refuses or redirects before it gets the body, and says so (not a reset mid-body)
                request.headers(h -> h.put(HttpHeader.EXPECT, "100-continue"));
                request.body(new InputStreamRequestContent(body.get()) {
                    @Override
                    public long getLength() {
                        return size; // sent with Content-Length: the remote knows the whole file's size at once
                    }
                });
            }
            AtomicReference<Response> answered = new AtomicReference<>();
            request.onResponseHeaders(answered::set);
            ContentResponse response;
            try {
                response = new CompletableResponseListener(request).send().get();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new CopyFailure("interrupted");
            } catch (ExecutionException e) {
                Response early = answered.get();
                if (body == null || early == null || early.getStatus() < 300) {
                    throw failure(e);
                }
                // answered instead of 100 Continue (or while the body was going): a refusal, or a redirect to follow
                boolean keepsBody = early.getStatus() == 307 || early.getStatus() == 308;
                URI next = keepsBody ? next(at, early, hop) : null;
                if (next == null) {
                    throw new CopyFailure("the remote answered " + method + " with " + early.getStatus());
                }
                at = next;
                continue;
            }
            boolean keepsBody = response.getStatus() == 307 || response.getStatus() == 308;
            URI next = body == null || keepsBody ? next(at, response, hop) : null;
            if (next == null) {
                return response;
            }
            at = next;
        }
    }

    private Request request(URI uri, String method, Map<String, String> headers) {
        Request request = client.newRequest(uri).method(method);
        request.headers(h -> {
            h.put(HttpHeader.ACCEPT_ENCODING, "identity"); // the bytes as stored, never recoded
            headers.forEach(h::put);
        });
        return request;
    }

    /** The URL {@code response} redirects to, checked; null when it is no redirect. */
    private static URI next(URI from, Response response, int hop) throws CopyFailure {
        int status = response.getStatus();
        String location = response.getHeaders().get(HttpHeader.LOCATION);
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

    private static Response await(InputStreamResponseListener listener) throws IOException, CopyFailure {
        try {
            return listener.get(RemoteHttp.IDLE_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new CopyFailure("interrupted");
        } catch (TimeoutException e) {
            throw new IOException("no answer in " + RemoteHttp.IDLE_TIMEOUT.toMinutes() + " minutes");
        } catch (ExecutionException e) {
            throw failure(e);
        }
    }

    /** A refused address is the copy's failure as it is; anything else an IOException the copy words itself. */
    private static IOException failure(ExecutionException e) throws CopyFailure {
        for (Throwable t = e.getCause(); t != null; t = t.getCause()) {
            if (t instanceof RemoteHttp.RefusedAddress refused) {
                throw new CopyFailure(refused.getMessage());
            }
        }
        Throwable cause = e.getCause() == null ? e : e.getCause();
        return cause instanceof IOException io ? io : new IOException(CopyService.oneLine(cause), cause);
    }

    /** Closes every connection of the copy (and breaks off what is still running on them). */
    @Override
    public void close() {
        try {
            client.stop();
        } catch (Exception e) {
            // closing: nothing to keep
        }
    }
}
