package org.gridcache.door.auth;

import java.util.Locale;
import org.gridcache.common.security.GridSubject;
import org.gridcache.door.http.DoorException;

/**
 * The policy's verdict as a status: a refused anonymous client gets 401 (it may come back with a certificate), a
 * refused authenticated one 403.
 */
public final class AccessCheck {
    private AccessCheck() {
    }

    /** Passes when {@code policy} grants {@code subject} any of {@code anyOf} on {@code path}; else a 401 or 403. */
    public static void require(AuthzPolicy policy, GridSubject subject, String path, AuthzPolicy.Right... anyOf) {
        for (AuthzPolicy.Right right : anyOf) {
            if (policy.allows(subject, path, right)) {
                return;
            }
        }
        String wanted = anyOf.length == 1 ? anyOf[0].name().toLowerCase(Locale.ROOT) : "access";
        if (subject.anonymous()) {
            throw new DoorException(401, "authentication required: present an X.509 certificate or proxy to " + wanted + " " + path);
        }
        throw new DoorException(403, subject.name() + " may not " + wanted + " " + path);
    }
}
