package org.gridcache.door.exchange;

import jakarta.servlet.http.HttpServletRequest;
import org.gridcache.common.GridPath;
import org.gridcache.common.UrlCodec;
import org.gridcache.common.security.GridSubject;

/** What every part of the door reads of a request the same way: its namespace path, its subject, the door's own paths. */
public final class DoorRequests {
    /** The door's own services ({@code health}, {@code metrics}, delegation, …), never looked up in an origin. */
    public static final String SERVICES = "/.gridcache";
    /** The methods the door answers, as a 405 and OPTIONS list them. */
    public static final String ALLOW = "OPTIONS, GET, HEAD, PROPFIND, PROPPATCH, PUT, MKCOL, DELETE, MOVE, COPY, LOCK, UNLOCK";
    /** Attribute holding the {@link GridSubject} of the request: Milton's resources list the namespace as that subject. */
    public static final String SUBJECT_ATTRIBUTE = GridSubject.class.getName();

    private DoorRequests() {
    }

    /** The decoded, normalised namespace path of the request, or a 400. */
    public static String namespacePath(HttpServletRequest request) {
        return namespacePath(request, request.getRequestURI(), "bad path");
    }

    /**
     * A raw (encoded) URL path of this door as a namespace path: without the servlet context, decoded, normalised;
     * else a 400 whose reason starts with {@code what}.
     */
    public static String namespacePath(HttpServletRequest request, String raw, String what) {
        String context = request.getContextPath();
        if (context != null && !context.isEmpty() && raw.startsWith(context)) {
            raw = raw.substring(context.length());
        }
        try {
            return GridPath.normalize(UrlCodec.decode(raw));
        } catch (IllegalArgumentException e) {
            throw new DoorException(400, what + ": " + e.getMessage());
        }
    }
}
