package org.gridcache.door.webdav;

import org.gridcache.door.exchange.DoorRequests;
import io.milton.http.ResourceFactory;
import io.milton.resource.Resource;
import io.milton.servlet.MiltonServlet;
import jakarta.servlet.http.HttpServletRequest;
import org.gridcache.common.GridPath;
import org.gridcache.common.security.GridSubject;
import org.gridcache.door.exchange.DoorException;
import org.gridcache.door.namespace.Namespace;

/**
 * Milton's entry into the namespace. The filter has already checked the path and resolved it for the request's subject
 * (so this is a cache hit); the subject comes with the request, so that Milton's resources list as that subject too.
 * Anything absent is null, which Milton answers with 404.
 */
final class DoorResourceFactory implements ResourceFactory {
    private final Namespace namespace;

    DoorResourceFactory(Namespace namespace) {
        this.namespace = namespace;
    }

    @Override
    public Resource getResource(String host, String path) {
        String normalized;
        try {
            normalized = GridPath.normalize(path);
        } catch (IllegalArgumentException e) {
            return null;
        }
        if (GridPath.isUnder(normalized, DoorRequests.SERVICES)) {
            return null;
        }
        try {
            GridSubject subject = subjectOf(MiltonServlet.request());
            return DoorResource.of(namespace, subject, namespace.stat(subject, normalized));
        } catch (DoorException e) {
            if (e.status() == 404) {
                return null;
            }
            throw e;
        }
    }

    /** The subject the filter resolved; a request that did not pass the filter is anonymous. */
    private static GridSubject subjectOf(HttpServletRequest request) {
        Object subject = request == null ? null : request.getAttribute(DoorRequests.SUBJECT_ATTRIBUTE);
        return subject instanceof GridSubject s ? s : GridSubject.ANONYMOUS;
    }
}
