package org.gridcache.door.write;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.URI;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.eclipse.jetty.client.HttpClient;
import org.eclipse.jetty.client.InputStreamResponseListener;
import org.eclipse.jetty.client.OutputStreamRequestContent;
import org.eclipse.jetty.client.Request;
import org.eclipse.jetty.client.Response;
import org.eclipse.jetty.http.HttpHeader;
import org.gridcache.common.origin.OriginEntry;
import org.gridcache.common.security.CredentialRefusal;
import org.gridcache.common.security.GridSubject;
import org.gridcache.door.exchange.BodyDeadline;
import org.gridcache.door.exchange.DoorException;
import org.gridcache.door.namespace.OriginHttpClient;
import org.gridcache.door.namespace.OriginIdentity;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Forwards writes to an {@code http(s)} WebDAV origin with the door's Jetty client, as the identity the user has there
 * (a delegated request is tagged, and {@code OriginHttpClient} presents that credential on connections of its own).
 * PUT streams the client's body to the origin while it arrives, through a small buffer: memory stays bounded whatever
 * the size. A client that breaks off aborts the origin's request, so a WebDAV server that writes to a temporary file
 * (nginx, Apache mod_dav) keeps nothing. MOVE and COPY carry a {@code Destination} rewritten to the origin's URL, and
 * {@code Overwrite} and {@code Depth} as the client sent them. Collections are addressed with a trailing slash (nginx
 * refuses MKCOL, DELETE, MOVE and COPY of a directory without it). The origin's refusals keep their status (401 becomes
 * 403: the user has no other credential to offer); a server error other than 507 is 502.
 */
public final class WebDavOriginWriter implements OriginWriter {
    private static final Logger LOG = LoggerFactory.getLogger(WebDavOriginWriter.class);
    private static final int CHUNK = 64 * 1024;
    private static final int MAX_MULTISTATUS = 64 * 1024;
    private static final long IDLE_SECONDS = 120;
    private final HttpClient http;

    public WebDavOriginWriter(HttpClient http) {
        this.http = http;
    }

    @Override
    public Written put(GridSubject subject, OriginIdentity as, OriginEntry origin, String path, InputStream body, long length,
                       String contentType) {
        OutputStreamRequestContent content = new SizedContent(contentType != null ? contentType : "application/octet-stream", length);
        Request request = prepare(as, http.newRequest(origin.urlOf(path)).method("PUT").body(content));
        InputStreamResponseListener listener = new InputStreamResponseListener();
        request.send(listener);
        long sent = 0;
        try (OutputStream out = content.getOutputStream()) {
            byte[] chunk = new byte[CHUNK];
            while (true) {
                int n;
                try {
                    n = body.read(chunk);
                } catch (IOException e) {
                    request.abort(e); // the origin drops what it received
                    throw BodyDeadline.refusal(e, "the client broke off the upload of " + path + " after " + sent + " bytes");
                }
                if (n < 0) {
                    break;
                }
                if (length >= 0 && sent + n > length) {
                    request.abort(new IOException("body longer than announced"));
                    throw new DoorException(400, "the client sent more than the " + length + " bytes it announced for " + path);
                }
                out.write(chunk, 0, n);
                sent += n;
            }
        } catch (IOException e) {
            // the origin stopped reading (it answered early, or broke the connection): its answer says which
            LOG.debug("PUT {}: the origin stopped reading after {} bytes: {}", path, sent, e.toString());
        }
        return answer(subject, as, origin, "PUT", path, request, listener);
    }

    @Override
    public Written mkcol(GridSubject subject, OriginIdentity as, OriginEntry origin, String path) {
        return send(subject, as, origin, "MKCOL", path, slashed(origin.urlOf(path)), r -> r);
    }

    @Override
    public Written delete(GridSubject subject, OriginIdentity as, OriginEntry origin, String path, boolean collection) {
        String url = collection ? slashed(origin.urlOf(path)) : origin.urlOf(path);
        return send(subject, as, origin, "DELETE", path, url, r -> r);
    }

    @Override
    public Written move(GridSubject subject, OriginIdentity as, OriginEntry origin, String from, String to, boolean collection,
                        boolean overwrite) {
        return transfer("MOVE", subject, as, origin, from, to, collection, overwrite, null);
    }

    @Override
    public Written copy(GridSubject subject, OriginIdentity as, OriginEntry origin, String from, String to, boolean collection,
                        boolean overwrite, boolean deep) {
        return transfer("COPY", subject, as, origin, from, to, collection, overwrite, deep ? "infinity" : "0");
    }

    private Written transfer(String method, GridSubject subject, OriginIdentity as, OriginEntry origin, String from, String to,
                             boolean collection, boolean overwrite, String depth) {
        String source = collection ? slashed(origin.urlOf(from)) : origin.urlOf(from);
        String destination = collection ? slashed(origin.urlOf(to)) : origin.urlOf(to);
        return send(subject, as, origin, method, from, source, r -> r.headers(h -> {
            h.put("Destination", destination);
            h.put("Overwrite", overwrite ? "T" : "F");
            if (depth != null) {
                h.put("Depth", depth);
            }
        }));
    }

    private Written send(GridSubject subject, OriginIdentity as, OriginEntry origin, String method, String path, String url,
                         java.util.function.UnaryOperator<Request> extra) {
        Request request = prepare(as, extra.apply(http.newRequest(url).method(method)));
        InputStreamResponseListener listener = new InputStreamResponseListener();
        request.send(listener);
        return answer(subject, as, origin, method, path, request, listener);
    }

    private Written answer(GridSubject subject, OriginIdentity as, OriginEntry origin, String method, String path, Request request,
                           InputStreamResponseListener listener) {
        Response response;
        try {
            response = listener.get(IDLE_SECONDS, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            request.abort(e);
            throw DoorException.badGateway("interrupted while writing to origin " + origin.name());
        } catch (ExecutionException | TimeoutException e) {
            request.abort(e);
            throw unreachable(subject, as, origin, e);
        }
        int status = response.getStatus();
        byte[] body;
        try (InputStream in = listener.getInputStream()) {
            body = in.readNBytes(MAX_MULTISTATUS);
        } catch (IOException e) {
            body = new byte[0];
        }
        if (status == 207) {
            return new Written(207, body); // a partial failure of a collection: the origin's report, as it is
        }
        if (status >= 200 && status < 300) {
            return status == 201 ? Written.CREATED : Written.NO_CONTENT;
        }
        throw refused(subject, as, origin, method, path, status);
    }

    private static DoorException refused(GridSubject subject, OriginIdentity as, OriginEntry origin, String method, String path,
                                         int status) {
        String who = as.actsAsUser() ? subject.name() : "this door";
        return switch (status) {
            case 401, 403 -> new DoorException(403, "the origin refuses " + who + " " + method + " " + path + " (origin "
                    + origin.name() + ", " + status + ")");
            case 404, 410 -> DoorException.notFound(path);
            case 409 -> new DoorException(409, "conflict: origin " + origin.name() + " cannot " + method + " " + path
                    + " (a parent collection is missing?)");
            case 412 -> new DoorException(412, "the destination exists and Overwrite is F (origin " + origin.name() + ")");
            case 507 -> new DoorException(507, "origin " + origin.name() + " has no space for " + path);
            default -> {
                if (status >= 500 || status < 400) {
                    LOG.warn("origin {} answered {} {} with {}", origin.name(), method, path, status);
                    yield DoorException.badGateway("origin " + origin.name() + " answered " + method + " " + path + " with " + status);
                }
                yield new DoorException(status, "origin " + origin.name() + " answered " + method + " " + path + " with " + status);
            }
        };
    }

    private static Request prepare(OriginIdentity as, Request request) {
        return OriginHttpClient.as(as, request).followRedirects(false).idleTimeout(IDLE_SECONDS, TimeUnit.SECONDS);
    }

    private static DoorException unreachable(GridSubject subject, OriginIdentity as, OriginEntry origin, Exception e) {
        Throwable cause = e instanceof ExecutionException && e.getCause() != null ? e.getCause() : e;
        String alert = CredentialRefusal.alertOf(cause);
        if (alert != null) {
            String whose = as.delegated() ? "the credential of " + subject.name() : "this door's host credential";
            return new DoorException(403, "the origin refuses " + whose + " (TLS alert " + alert + "; origin " + origin.name() + ")");
        }
        URI u = URI.create(origin.url());
        String why = cause instanceof TimeoutException ? "timed out" : "unreachable (" + cause.getClass().getSimpleName() + ")";
        LOG.warn("origin {} ({}:{}) {} during a write: {}", origin.name(), u.getHost(), u.getPort(), why, cause.toString());
        return DoorException.badGateway("origin " + origin.name() + " (" + u.getHost() + (u.getPort() < 0 ? "" : ":" + u.getPort())
                + ") " + why);
    }

    private static String slashed(String url) {
        return url.endsWith("/") ? url : url + "/";
    }

    /** A streamed body whose length is announced when known (a Content-Length, not chunks: some origins want it). */
    private static final class SizedContent extends OutputStreamRequestContent {
        private final long length;

        SizedContent(String contentType, long length) {
            super(contentType);
            this.length = length;
        }

        @Override
        public long getLength() {
            return length;
        }
    }
}
