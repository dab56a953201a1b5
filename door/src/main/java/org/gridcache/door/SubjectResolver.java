package org.gridcache.door;

import jakarta.servlet.http.HttpServletRequest;

/**
 * The authentication seam: turns a request into a {@link Subject}, or throws a {@link DoorException} (401/403).
 * X.509, VOMS and bearer tokens will plug in here; today everyone is anonymous.
 */
@FunctionalInterface
public interface SubjectResolver {
    SubjectResolver ANONYMOUS = request -> Subject.ANONYMOUS;

    Subject resolve(HttpServletRequest request);
}
