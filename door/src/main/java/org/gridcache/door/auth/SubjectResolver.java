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
    /**
     * The request attribute saying why the VOMS attributes of the presented proxy were not taken (an expired
     * attribute certificate), for the reason of a refusal that follows from their absence.
     */
    String VOMS_REFUSAL_ATTRIBUTE = "org.gridcache.door.vomsRefusal";

    GridSubject resolve(HttpServletRequest request);
}
