package org.gridcache.door.write;

import org.gridcache.door.exchange.DoorRequests;
import jakarta.servlet.http.HttpServletRequest;
import java.net.URI;
import java.util.Locale;
import org.gridcache.door.exchange.DoorException;

/**
 * The {@code Destination} of a MOVE or COPY as a namespace path of this door: an absolute URL must name this door
 * (scheme, host and port of the request; else 502, as Apache's mod_dav answers a copy to another server); its path is
 * decoded and normalised like the request's (400 for {@code ..}, an encoded slash, bad escapes).
 */
public final class Destination {
    private Destination() {
    }

    static String pathOf(HttpServletRequest request) {
        String header = request.getHeader("Destination");
        if (header == null || header.isBlank()) {
            throw new DoorException(400, request.getMethod() + " needs a Destination header");
        }
        URI uri;
        try {
            uri = new URI(header.trim());
        } catch (java.net.URISyntaxException e) {
            throw new DoorException(400, "bad Destination: not a URI");
        }
        if (uri.getRawQuery() != null) {
            throw new DoorException(400, "bad Destination: a query is not part of a namespace path");
        }
        if (uri.isAbsolute()) {
            requireThisDoor(request, uri);
        }
        String raw = uri.getRawPath();
        if (raw == null || !raw.startsWith("/")) {
            throw new DoorException(400, "bad Destination: no absolute path");
        }
        if (raw.toLowerCase(Locale.ROOT).contains("%2f")) {
            throw new DoorException(400, "bad Destination: an encoded slash in the path");
        }
        return DoorRequests.namespacePath(request, raw, "bad Destination");
    }

    private static void requireThisDoor(HttpServletRequest request, URI uri) {
        String scheme = uri.getScheme().toLowerCase(Locale.ROOT);
        if (!scheme.equals("http") && !scheme.equals("https")) {
            throw new DoorException(400, "bad Destination: not an http(s) URL");
        }
        if (!namesThisDoor(request, uri)) {
            int port = uri.getPort() >= 0 ? uri.getPort() : scheme.equals("https") ? 443 : 80;
            String host = uri.getHost();
            throw DoorException.badGateway("the Destination is on another server (" + (host == null ? "?" : host) + ":" + port
                    + "): this door moves and copies only within its own namespace");
        }
    }

    /** Whether the absolute http(s) {@code uri} names this door: the request's scheme, host and port. */
    public static boolean namesThisDoor(HttpServletRequest request, URI uri) {
        String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
        int port = uri.getPort() >= 0 ? uri.getPort() : scheme.equals("https") ? 443 : 80;
        String host = uri.getHost();
        return host != null && stripBrackets(host).equalsIgnoreCase(stripBrackets(request.getServerName()))
                && port == request.getServerPort() && scheme.equalsIgnoreCase(request.getScheme());
    }

    private static String stripBrackets(String host) {
        return host != null && host.startsWith("[") && host.endsWith("]") ? host.substring(1, host.length() - 1) : host;
    }
}
