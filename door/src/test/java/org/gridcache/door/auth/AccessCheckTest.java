package org.gridcache.door.auth;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.gridcache.common.security.GridSubject;
import org.gridcache.door.http.DoorException;
import org.junit.jupiter.api.Test;

class AccessCheckTest {
    private final AuthzPolicy policy = AuthzPolicy.parse("""
            authenticated /data/ro list,read
            authenticated / list,read,write
            """);

    @Test
    void theWriteRightIsRefusedWith403ToAnAuthenticatedSubjectAnd401ToAnAnonymousOne() {
        GridSubject alice = GridSubject.of("/DC=org/CN=Alice");
        AccessCheck.require(policy, alice, "/data/rw/x", AuthzPolicy.Right.WRITE);
        DoorException refused = assertThrows(DoorException.class,
                () -> AccessCheck.require(policy, alice, "/data/ro/x", AuthzPolicy.Right.WRITE));
        assertEquals(403, refused.status());
        assertEquals("/DC=org/CN=Alice may not write /data/ro/x", refused.reason());
        DoorException anonymous = assertThrows(DoorException.class,
                () -> AccessCheck.require(policy, GridSubject.ANONYMOUS, "/data/rw/x", AuthzPolicy.Right.WRITE));
        assertEquals(401, anonymous.status());
    }
}
