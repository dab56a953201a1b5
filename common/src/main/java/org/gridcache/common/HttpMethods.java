package org.gridcache.common;

import java.util.Set;

/** The request methods of HTTP and WebDAV (RFC 9110, 5789, 4918, 3253): what door and pool recognise as methods. */
public final class HttpMethods {
    /**
     * A request with a method outside this set is 501 (not implemented) at door and pool; one inside it that a
     * server does not allow on a path is 405. Methods are case-sensitive: {@code get} is not {@code GET}.
     */
    public static final Set<String> KNOWN = Set.of("GET", "HEAD", "OPTIONS", "PROPFIND", "PROPPATCH", "PUT", "POST",
            "DELETE", "MKCOL", "COPY", "MOVE", "LOCK", "UNLOCK", "REPORT", "PATCH", "TRACE", "CONNECT");

    private HttpMethods() {
    }
}
