package org.gridcache.door.namespace;

import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.eclipse.jetty.client.CompletableResponseListener;
import org.eclipse.jetty.client.ContentResponse;
import org.eclipse.jetty.client.HttpClient;
import org.eclipse.jetty.client.Request;
import org.eclipse.jetty.client.StringRequestContent;
import org.eclipse.jetty.http.HttpHeader;
import org.gridcache.common.GridPath;
import org.gridcache.common.OriginEntry;
import org.gridcache.common.security.GridSubject;
import org.gridcache.door.http.DoorException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Lists an {@code http(s)} origin with PROPFIND (Depth 0 for one entry, Depth 1 for a collection) over Jetty's
 * {@link HttpClient}. Origin statuses map to the door's: 404 stays 404, 401/403 become 403 (the user may not see it),
 * anything else and an unreachable origin become 502. The door asks as itself (its host certificate with TLS), so every
 * subject sees the same listing.
 */
public final class WebDavOriginLister implements OriginLister {
    private static final Logger LOG = LoggerFactory.getLogger(WebDavOriginLister.class);
    private static final String PROPFIND_BODY = """
            <?xml version="1.0" encoding="utf-8"?>
            <D:propfind xmlns:D="DAV:"><D:prop>
            <D:resourcetype/><D:getcontentlength/><D:getlastmodified/><D:getetag/><D:getcontenttype/>
            </D:prop></D:propfind>
            """;
    /** A listing bigger than this is refused rather than buffered (a directory of ~100k entries). */
    private static final int MAX_LISTING_BYTES = 64 << 20;
    private static final long TIMEOUT_SECONDS = 30;
    private final HttpClient http;

    public WebDavOriginLister(HttpClient http) {
        this.http = http;
    }

    @Override
    public NamespaceEntry stat(GridSubject subject, OriginEntry origin, String path) {
        String url = origin.urlOf(path);
        List<MultistatusParser.Item> items;
        try {
            items = propfind(origin, path, url, "0");
        } catch (NotWebDav e) {
            return head(origin, path, url); // a plain HTTP server (no WebDAV) can still be a file origin
        }
        if (items.isEmpty()) {
            throw DoorException.badGateway("origin " + origin.name() + " sent an empty multistatus for " + path);
        }
        String self = selfPath(url);
        MultistatusParser.Item item = items.stream().filter(i -> i.hrefPath().equals(self)).findFirst().orElse(items.get(0));
        return entry(item, path, GridPath.name(path));
    }

    @Override
    public List<NamespaceEntry> list(GridSubject subject, OriginEntry origin, String dir) {
        String url = origin.urlOf(dir);
        if (!url.endsWith("/")) {
            url += "/";
        }
        String self = selfPath(url);
        List<MultistatusParser.Item> items;
        try {
            items = propfind(origin, dir, url, "1");
        } catch (NotWebDav e) {
            throw DoorException.badGateway(describe(origin) + " is not a WebDAV server: its directories cannot be listed");
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

    private static NamespaceEntry entry(MultistatusParser.Item item, String path, String name) {
        return new NamespaceEntry(path, name, item.collection(), item.collection() ? -1 : item.size(), item.mtimeMillis(),
                item.etag(), item.contentType());
    }

    private static String selfPath(String url) {
        return MultistatusParser.hrefPath(URI.create(url).getRawPath());
    }

    private List<MultistatusParser.Item> propfind(OriginEntry origin, String path, String url, String depth) {
        ContentResponse response = send(origin, url, depth);
        int status = response.getStatus();
        if (isRedirect(status) && !url.endsWith("/")) {
            // many servers answer a collection asked for without its slash with a redirect to the slashed URL
            response = send(origin, url + "/", depth);
            status = response.getStatus();
        }
        if (status == 207) {
            try {
                return MultistatusParser.parse(response.getContent());
            } catch (IllegalArgumentException e) {
                LOG.warn("origin {} answered PROPFIND {} with bad XML: {}", origin.name(), url, e.getMessage());
                throw DoorException.badGateway("origin " + origin.name() + " sent a malformed listing");
            }
        }
        if (status == 404 || status == 410) {
            throw DoorException.notFound(path);
        }
        if (status == 401 || status == 403) {
            throw new DoorException(403, "origin " + origin.name() + " refuses access to " + path);
        }
        if (status == 405 || status == 501) {
            throw new NotWebDav();
        }
        LOG.warn("origin {} answered PROPFIND {} with {}", origin.name(), url, status);
        throw DoorException.badGateway(describe(origin) + " answered " + status);
    }

    /**
     * Stats one entry with HEAD on an origin that does not speak WebDAV: 200 is a file (size, mtime, ETag from the
     * headers); a redirect to the slashed URL is a directory.
     */
    private NamespaceEntry head(OriginEntry origin, String path, String url) {
        ContentResponse response = send(origin, http.newRequest(url).method("HEAD"));
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
            throw new DoorException(403, "origin " + origin.name() + " refuses access to " + path);
        }
        LOG.warn("origin {} answered HEAD {} with {}", origin.name(), redacted(url), status);
        throw DoorException.badGateway(describe(origin) + " answered " + status);
    }

    private ContentResponse send(OriginEntry origin, String url, String depth) {
        return send(origin, http.newRequest(url)
                .method("PROPFIND")
                .headers(h -> h.put("Depth", depth).put(HttpHeader.ACCEPT, "application/xml, text/xml"))
                .body(new StringRequestContent("application/xml; charset=utf-8", PROPFIND_BODY)));
    }

    private ContentResponse send(OriginEntry origin, Request request) {
        String url = request.getURI().toString();
        request.followRedirects(false).timeout(TIMEOUT_SECONDS, TimeUnit.SECONDS);
        try {
            return new CompletableResponseListener(request, MAX_LISTING_BYTES).send().get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw DoorException.badGateway("interrupted while asking origin " + origin.name());
        } catch (ExecutionException e) {
            Throwable cause = e.getCause() != null ? e.getCause() : e;
            String why = cause instanceof TimeoutException ? "timed out" : "unreachable (" + oneLine(cause) + ")";
            LOG.warn("origin {} at {} {}", origin.name(), redacted(url), why);
            throw DoorException.badGateway(describe(origin) + " " + why);
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
