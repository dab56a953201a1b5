package org.gridcache.door.namespace;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.LongSupplier;
import org.eclipse.jetty.client.CompletableResponseListener;
import org.eclipse.jetty.client.ContentResponse;
import org.eclipse.jetty.client.HttpClient;
import org.eclipse.jetty.client.InputStreamResponseListener;
import org.eclipse.jetty.client.Request;
import org.eclipse.jetty.client.Response;
import org.eclipse.jetty.client.StringRequestContent;
import org.eclipse.jetty.http.HttpHeader;
import org.gridcache.common.GridPath;
import org.gridcache.common.origin.OriginEntry;
import org.gridcache.common.security.CredentialRefusal;
import org.gridcache.common.security.GridSubject;
import org.gridcache.door.exchange.DoorException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Lists an {@code http(s)} origin with PROPFIND (Depth 0 for one entry, Depth 1 for a collection) over Jetty's
 * {@link HttpClient}, as the identity the user has there: a request for a delegation is tagged with it, and the
 * client ({@link OriginHttpClient}) presents that credential on connections of their own. Origin statuses map to the
 * door's: 404 stays 404, 401/403 become 403 (the user may not see it), anything else and an unreachable origin become
 * 502. A listing is parsed as it arrives (StAX) and refused with 502 beyond {@code door.listing-max-bytes}: an
 * origin's answer is never held whole in memory. A server without WebDAV (PROPFIND refused as a method) is statted
 * with HEAD and listed from its HTML index ({@link HtmlIndexParser}; mod_gridsite's carries sizes and times).
 * Every PROPFIND also asks for RFC 4331 quota (SabreDAV, Nextcloud and ownCloud answer it; nginx and Debian 12's
 * Apache mod_dav_fs do not), kept on the collection's entry: it is cached and invalidated with the listing, at no
 * extra request.
 */
public final class WebDavOriginLister implements OriginLister {
    private static final Logger LOG = LoggerFactory.getLogger(WebDavOriginLister.class);
    private static final String PROPFIND_BODY = """
            <?xml version="1.0" encoding="utf-8"?>
            <D:propfind xmlns:D="DAV:"><D:prop>
            <D:resourcetype/><D:getcontentlength/><D:getlastmodified/><D:getetag/><D:getcontenttype/>
            <D:quota-available-bytes/><D:quota-used-bytes/>
            </D:prop></D:propfind>
            """;
    private static final long TIMEOUT_SECONDS = 30;
    private final HttpClient http;
    private final LongSupplier maxListingBytes;
    /**
     * Directories (by URL) whose origin refused PROPFIND as a method, for ten minutes: a stat or listing there goes
     * straight to HEAD or the HTML index. Otherwise every miss on a plain HTTP origin (nginx, mod_gridsite) first cost
     * a refused PROPFIND, and nginx closes the connection after refusing one, so the HEAD needed a new connection.
     * By directory, not by origin: a server may speak WebDAV in some locations only.
     */
    private final Cache<String, Boolean> notWebDav = Caffeine.newBuilder()
            .maximumSize(10_000).expireAfterWrite(Duration.ofMinutes(10)).build();

    /** {@code maxListingBytes}: the largest PROPFIND answer read (the cluster setting, asked per request). */
    public WebDavOriginLister(HttpClient http, LongSupplier maxListingBytes) {
        this.http = http;
        this.maxListingBytes = maxListingBytes;
    }

    @Override
    public NamespaceEntry stat(GridSubject subject, OriginIdentity as, OriginEntry origin, String path) {
        String url = origin.urlOf(path);
        // the directory holding path; the mount's root is its own (its parent is outside the origin)
        String dir = directoryUrl(origin, path.length() <= origin.prefix().length() ? path : GridPath.parent(path));
        if (notWebDav.getIfPresent(dir) != null) {
            return head(subject, as, origin, path, url);
        }
        List<MultistatusParser.Item> items;
        try {
            items = propfind(subject, as, origin, path, url, "0");
        } catch (NotWebDav e) {
            notWebDav.put(dir, Boolean.TRUE);
            return head(subject, as, origin, path, url); // a plain HTTP server (no WebDAV) can still be a file origin
        }
        if (items.isEmpty()) {
            throw DoorException.badGateway("origin " + origin.name() + " sent an empty multistatus for " + path);
        }
        String self = selfPath(url);
        MultistatusParser.Item item = items.stream().filter(i -> i.hrefPath().equals(self)).findFirst().orElse(items.get(0));
        return entry(item, path, GridPath.name(path));
    }

    @Override
    public List<NamespaceEntry> list(GridSubject subject, OriginIdentity as, OriginEntry origin, String dir) {
        String url = directoryUrl(origin, dir);
        if (notWebDav.getIfPresent(url) != null) {
            return index(subject, as, origin, dir, url);
        }
        String self = selfPath(url);
        List<MultistatusParser.Item> items;
        try {
            items = propfind(subject, as, origin, dir, url, "1");
        } catch (NotWebDav e) {
            notWebDav.put(url, Boolean.TRUE);
            return index(subject, as, origin, dir, url);
        }
        List<NamespaceEntry> out = new ArrayList<>();
        for (MultistatusParser.Item item : items) {
            String name = GridPath.name(item.hrefPath());
            if (item.hrefPath().equals(self) || name.isEmpty() || name.equals(".") || name.equals("..")) {
                continue;
            }
            out.add(entry(item, GridPath.child(dir, name), name));
        }
        return out;
    }

    /**
     * The children of a directory of a server without WebDAV, from its HTML index (mod_gridsite, mod_autoindex):
     * GET of the slashed URL, as the same identity, capped as a multistatus is.
     */
    private List<NamespaceEntry> index(GridSubject subject, OriginIdentity as, OriginEntry origin, String dir, String url) {
        Request request = prepare(as, http.newRequest(url).method("GET").headers(h -> h.put(HttpHeader.ACCEPT, "text/html")));
        long max = maxListingBytes.getAsLong();
        ContentResponse response;
        try {
            response = new CompletableResponseListener(request, (int) Math.min(Integer.MAX_VALUE, max)).send().get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw DoorException.badGateway("interrupted while asking origin " + origin.name());
        } catch (ExecutionException e) {
            if (e.getCause() instanceof IllegalArgumentException) { // Jetty: "Buffering capacity exceeded"
                throw tooLarge(origin, url, max);
            }
            throw unreachable(subject, as, origin, url, e);
        }
        int status = response.getStatus();
        if (status == 401 || status == 403) {
            throw refused(subject, as, origin, dir, status);
        }
        // a 404 here is a directory (its HEAD said so) without an index, not a missing one: 502 below
        String type = response.getMediaType();
        if (status != 200 || type == null || !type.equalsIgnoreCase("text/html")) {
            LOG.warn("origin {} answered GET {} with {} {} (no WebDAV, no HTML index)", origin.name(), redacted(url), status, type);
            throw DoorException.badGateway(describe(origin) + " is not a WebDAV server and sends no HTML index: its directories"
                    + " cannot be listed");
        }
        List<NamespaceEntry> out = new ArrayList<>();
        for (HtmlIndexParser.Child c : HtmlIndexParser.parse(response.getContentAsString())) {
            out.add(new NamespaceEntry(GridPath.child(dir, c.name()), c.name(), c.collection(), c.size(), c.mtimeMillis(), null, null));
        }
        return out;
    }

    private static NamespaceEntry entry(MultistatusParser.Item item, String path, String name) {
        if (item.collection()) {
            return new NamespaceEntry(path, name, true, -1, item.mtimeMillis(), item.etag(), item.contentType(), item.quota());
        }
        return new NamespaceEntry(path, name, false, item.size(), item.mtimeMillis(),
                item.etag() != null ? item.etag() : NamespaceEntry.tagOf(item.size(), item.mtimeMillis()), item.contentType());
    }

    private static String selfPath(String url) {
        return MultistatusParser.hrefPath(URI.create(url).getRawPath());
    }

    private List<MultistatusParser.Item> propfind(GridSubject subject, OriginIdentity as, OriginEntry origin, String path, String url, String depth) {
        Answer answer = send(subject, as, origin, url, depth);
        int status = answer.response().getStatus();
        if (isRedirect(status) && !url.endsWith("/")) {
            // many servers answer a collection asked for without its slash with a redirect to the slashed URL
            answer.discard();
            answer = send(subject, as, origin, url + "/", depth);
            status = answer.response().getStatus();
        }
        try (Answer a = answer) {
            if (status == 207) {
                return parse(origin, url, a);
            }
            if (status == 404 || status == 410) {
                throw DoorException.notFound(path);
            }
            if (status == 401 || status == 403) {
                throw refused(subject, as, origin, path, status);
            }
            if (status == 405 || status == 501) {
                throw new NotWebDav();
            }
            LOG.warn("origin {} answered PROPFIND {} with {}", origin.name(), redacted(url), status);
            throw DoorException.badGateway(describe(origin) + " answered " + status);
        }
    }

    /** The multistatus, read as it arrives and never beyond {@code door.listing-max-bytes}. */
    private List<MultistatusParser.Item> parse(OriginEntry origin, String url, Answer answer) {
        long max = maxListingBytes.getAsLong();
        long announced = answer.response().getHeaders().getLongField(HttpHeader.CONTENT_LENGTH);
        if (announced > max) {
            throw tooLarge(origin, url, max);
        }
        try {
            return MultistatusParser.parse(new CappedInputStream(answer.body(), max));
        } catch (CappedInputStream.LimitExceeded e) {
            throw tooLarge(origin, url, max);
        } catch (IllegalArgumentException e) {
            LOG.warn("origin {} answered PROPFIND {} with bad XML: {}", origin.name(), redacted(url), e.getMessage());
            throw DoorException.badGateway("origin " + origin.name() + " sent a malformed listing");
        }
    }

    private static DoorException tooLarge(OriginEntry origin, String url, long max) {
        LOG.warn("origin {} answered PROPFIND {} with more than {} bytes (door.listing-max-bytes)", origin.name(), redacted(url), max);
        return DoorException.badGateway("origin " + origin.name() + " sent a listing larger than this door reads ("
                + max + " bytes, door.listing-max-bytes)");
    }

    /** 403 with the origin's word: who was refused (the user, as with their delegation or token, or the door itself). */
    private static DoorException refused(GridSubject subject, OriginIdentity as, OriginEntry origin, String path, int status) {
        String who = as.actsAsUser() ? subject.name() : "this door";
        return new DoorException(403, "the origin refuses " + who + " access to " + path + " (origin " + origin.name() + ", " + status + ")");
    }

    /**
     * Stats one entry with HEAD on an origin that does not speak WebDAV: 200 is a file (size, mtime, ETag from the
     * headers); a redirect to the slashed URL is a directory.
     */
    private NamespaceEntry head(GridSubject subject, OriginIdentity as, OriginEntry origin, String path, String url) {
        ContentResponse response = sendHead(subject, as, origin, url);
        int status = response.getStatus();
        String name = GridPath.name(path);
        if (status == 200) {
            String length = response.getHeaders().get(HttpHeader.CONTENT_LENGTH);
            long mtime = response.getHeaders().getDateField(HttpHeader.LAST_MODIFIED.asString());
            return new NamespaceEntry(path, name, false, length == null ? -1 : Long.parseLong(length), mtime,
                    response.getHeaders().get(HttpHeader.ETAG), response.getHeaders().get(HttpHeader.CONTENT_TYPE));
        }
        if (isRedirect(status) && redirectsToSlashed(url, response.getHeaders().get(HttpHeader.LOCATION))) {
            return new NamespaceEntry(path, name, true, -1, -1, null, null);
        }
        if (status == 404 || status == 410) {
            throw DoorException.notFound(path);
        }
        if (status == 401 || status == 403) {
            throw refused(subject, as, origin, path, status);
        }
        LOG.warn("origin {} answered HEAD {} with {}", origin.name(), redacted(url), status);
        throw DoorException.badGateway(describe(origin) + " answered " + status);
    }

    private Answer send(GridSubject subject, OriginIdentity as, OriginEntry origin, String url, String depth) {
        Request request = prepare(as, http.newRequest(url)
                .method("PROPFIND")
                .headers(h -> h.put("Depth", depth).put(HttpHeader.ACCEPT, "application/xml, text/xml"))
                .body(new StringRequestContent("application/xml; charset=utf-8", PROPFIND_BODY)));
        InputStreamResponseListener listener = new InputStreamResponseListener();
        request.send(listener);
        try {
            return new Answer(listener.get(TIMEOUT_SECONDS, TimeUnit.SECONDS), listener);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw DoorException.badGateway("interrupted while asking origin " + origin.name());
        } catch (ExecutionException | TimeoutException e) {
            request.abort(e);
            throw unreachable(subject, as, origin, url, e);
        }
    }

    private ContentResponse sendHead(GridSubject subject, OriginIdentity as, OriginEntry origin, String url) {
        Request request = prepare(as, http.newRequest(url).method("HEAD"));
        try {
            return new CompletableResponseListener(request, 0).send().get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw DoorException.badGateway("interrupted while asking origin " + origin.name());
        } catch (ExecutionException e) {
            throw unreachable(subject, as, origin, url, e);
        }
    }

    /** Tagged with the user's identity, so that it goes out on connections made with that credential only. */
    private static Request prepare(OriginIdentity as, Request request) {
        return OriginHttpClient.as(as, request).followRedirects(false).timeout(TIMEOUT_SECONDS, TimeUnit.SECONDS);
    }

    /** 502 for an origin that cannot be reached; 403 when it refused the presented certificate in the handshake. */
    private static DoorException unreachable(GridSubject subject, OriginIdentity as, OriginEntry origin, String url, Exception e) {
        Throwable cause = e instanceof ExecutionException && e.getCause() != null ? e.getCause() : e;
        String alert = CredentialRefusal.alertOf(cause);
        if (alert != null) {
            String whose = as.delegated() ? "the credential of " + subject.name() : "this door's host credential";
            LOG.info("origin {} refused {} in the TLS handshake: alert {}", origin.name(), whose, alert);
            return new DoorException(403, "the origin refuses " + whose + " (TLS alert " + alert + "; origin " + origin.name() + ")");
        }
        String why = cause instanceof TimeoutException ? "timed out" : "unreachable (" + oneLine(cause) + ")";
        LOG.warn("origin {} at {} {}", origin.name(), redacted(url), why);
        return DoorException.badGateway(describe(origin) + " " + why);
    }

    /** A response whose body is still arriving; closing it drops what was not read (and the connection with it). */
    private record Answer(Response response, InputStreamResponseListener listener) implements AutoCloseable {
        InputStream body() {
            return listener.getInputStream();
        }

        void discard() {
            close();
        }

        @Override
        public void close() {
            try {
                listener.close();
            } catch (IOException e) {
                LOG.debug("closing an origin's answer: {}", e.toString());
            }
        }
    }

    /** "origin NAME (host:port)": admins look for the host in a 502; never the URL's user info or path. */
    private static String describe(OriginEntry origin) {
        URI u = URI.create(origin.url());
        return "origin " + origin.name() + " (" + u.getHost() + (u.getPort() < 0 ? "" : ":" + u.getPort()) + ")";
    }

    /** True when {@code location} (absolute or not) names {@code url}'s path with a slash appended: a directory. */
    private static boolean redirectsToSlashed(String url, String location) {
        if (location == null) {
            return false;
        }
        try {
            return (URI.create(url).getRawPath() + "/").equals(URI.create(url).resolve(location).getRawPath());
        } catch (IllegalArgumentException e) {
            return false;
        }
    }

    /** The URL of {@code dir} at {@code origin}, with its trailing slash. */
    private static String directoryUrl(OriginEntry origin, String dir) {
        String url = origin.urlOf(dir);
        return url.endsWith("/") ? url : url + "/";
    }

    /** PROPFIND refused as a method (405, 501): a plain HTTP server. */
    private static final class NotWebDav extends RuntimeException {
        private static final long serialVersionUID = 1L;

        NotWebDav() {
            super(null, null, false, false);
        }
    }

    private static boolean isRedirect(int status) {
        return status == 301 || status == 302 || status == 307 || status == 308;
    }

    private static String oneLine(Throwable t) {
        String m = t.getMessage();
        return t.getClass().getSimpleName() + (m == null ? "" : ": " + m.lines().findFirst().orElse(""));
    }

    /** The URL without user info or query, for logs. */
    private static String redacted(String url) {
        URI u = URI.create(url);
        return u.getScheme() + "://" + u.getHost() + (u.getPort() < 0 ? "" : ":" + u.getPort()) + u.getRawPath();
    }
}
