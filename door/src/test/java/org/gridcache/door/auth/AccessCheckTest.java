package org.gridcache.door.auth;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;
import java.util.Set;
import org.gridcache.common.authz.Activity;
import org.gridcache.common.authz.BearerIdentity;
import org.gridcache.common.authz.Grants;
import org.gridcache.common.authz.PathGrant;
import org.gridcache.common.security.GridSubject;
import org.gridcache.door.exchange.DoorException;
import org.junit.jupiter.api.Test;

class AccessCheckTest {
    private final AuthzPolicy policy = AuthzPolicy.parse("""
            authenticated /data/ro list,read
            authenticated / list,read,write
            """);

    @Test
    void theWriteRightIsRefusedWith403ToAnAuthenticatedSubjectAnd401ToAnAnonymousOne() {
        GridSubject alice = GridSubject.of("/DC=org/CN=Alice");
        AccessCheck.require(policy, alice, "/data/rw/x", Activity.UPLOAD);
        DoorException refused = assertThrows(DoorException.class,
                () -> AccessCheck.require(policy, alice, "/data/ro/x", Activity.UPLOAD));
        assertEquals(403, refused.status());
        assertEquals("/DC=org/CN=Alice may not write /data/ro/x", refused.reason());
        DoorException anonymous = assertThrows(DoorException.class,
                () -> AccessCheck.require(policy, GridSubject.ANONYMOUS, "/data/rw/x", Activity.UPLOAD));
        assertEquals(401, anonymous.status());
    }

    @Test
    void aTokensScopesDecideWithoutThePolicyAndNameTheActivityWhenTheyRefuse() {
        GridSubject token = GridSubject.ofToken(new BearerIdentity("https://iss", "42"), List.of(),
                Grants.of(new PathGrant(Activity.CREATING, "/data/ro")));
        AccessCheck.require(policy, token, "/data/ro/new", Activity.UPLOAD); // the policy would refuse a write here
        DoorException overwrite = assertThrows(DoorException.class,
                () -> AccessCheck.require(policy, token, "/data/ro/new", Activity.DELETE));
        assertEquals(403, overwrite.status());
        assertEquals("token:42@https://iss may not delete /data/ro/new (the token's scopes: MANAGE,READ_METADATA,UPLOAD:/data/ro)",
                overwrite.reason());
        AccessCheck.require(policy, GridSubject.of("/DC=org/CN=Alice"), "/data/ro/x", Activity.READ_METADATA);
    }

    /** Issue 42: a macaroon whose caveats allow what the policy file refuses its issuer says which refused. */
    @Test
    void aMacaroonRefusedByThePolicyFileSaysSoAndOneRefusedByItsCaveatsSaysThat() {
        GridSubject macaroon = GridSubject.of("/DC=org/CN=Alice").withCaveats(Grants.of(new PathGrant(Set.of(Activity.UPLOAD), "/data")));
        DoorException byPolicy = assertThrows(DoorException.class,
                () -> AccessCheck.require(policy, macaroon, "/data/ro/x", Activity.UPLOAD));
        assertEquals("/DC=org/CN=Alice may not upload /data/ro/x (the macaroon's caveats allow it; the policy file does not "
                + "allow its issuer)", byPolicy.reason());
        DoorException byCaveats = assertThrows(DoorException.class,
                () -> AccessCheck.require(policy, macaroon, "/data/rw/x", Activity.DELETE));
        assertEquals("/DC=org/CN=Alice may not delete /data/rw/x (the macaroon's caveats do not allow it)", byCaveats.reason());
    }
}
