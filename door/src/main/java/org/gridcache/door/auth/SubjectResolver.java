package org.gridcache.door.auth;

import jakarta.servlet.http.HttpServletRequest;
import org.gridcache.common.security.GridSubject;
import org.gridcache.door.exchange.DoorException;

/**
 * The authentication seam: turns a request into a {@link GridSubject}, or throws a {@link DoorException} (401).
 * X.509 certificates and proxies with VOMS attributes plug in as {@link X509SubjectResolver}; bearer tokens (a later
 * issue) will be another implementation, tried when an {@code Authorization: Bearer} header is present.
 */
@FunctionalInterface
public interface SubjectResolver {
    SubjectResolver ANONYMOUS = request -> GridSubject.ANONYMOUS;

    GridSubject resolve(HttpServletRequest request);
}
