package org.gridcache.door.auth;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;
import java.util.Set;
import org.gridcache.common.origin.OriginEntry;
import org.gridcache.common.authz.Activity;
import org.gridcache.common.authz.BearerIdentity;
import org.gridcache.common.authz.Grants;
import org.gridcache.common.authz.PathGrant;
import org.gridcache.common.security.GridSubject;
import org.gridcache.door.delegation.DelegationService;
import org.gridcache.door.exchange.DoorException;
import org.gridcache.door.namespace.OriginIdentities;
import org.gridcache.door.namespace.OriginIdentity;
import org.junit.jupiter.api.Test;

/** A bearer token's subject has no DN: where the door needs an X.509 user, it is refused in words, never an NPE. */
class TokenSubjectTest {
    private static final GridSubject TOKEN = GridSubject.ofToken(new BearerIdentity("https://iss", "42"), List.of("/atlas"), null);

    @Test
    void aTokenCannotActAsAnX509UserTowardsAUserCredentialOrigin() {
        OriginIdentities identities = new OriginIdentities(subject -> {
            throw new AssertionError("no delegation is looked up for a token");
        }, () -> "https://door/.gridcache/delegation");
        OriginEntry user = OriginEntry.of("grid", "/grid", "https://origin.example.org/data", "user");
        DoorException e = assertThrows(DoorException.class, () -> identities.of(TOKEN, user));
        assertEquals(403, e.status());
        assertEquals("a bearer token cannot act as an X.509 user towards origin grid: use a certificate or proxy for it", e.reason());
        assertEquals(OriginIdentity.DOOR, identities.of(TOKEN, OriginEntry.of("open", "/open", "https://origin.example.org/open")));
    }

    @Test
    void aTokenCannotDelegate() {
        DoorException e = assertThrows(DoorException.class,
                () -> new DelegationService(null).handle(null, null, DelegationService.PATH, TOKEN));
        assertEquals(403, e.status());
        assertEquals("delegation needs a client certificate or proxy, not a bearer token", e.reason());
    }

    /** A macaroon names its X.509 issuer's DN, bounded by caveats: its holder may not manage that user's delegations. */
    @Test
    void aMacaroonOfAnX509UserCannotDelegate() {
        GridSubject macaroon = GridSubject.of("/DC=org/CN=Alice").withCaveats(Grants.of(new PathGrant(Set.of(Activity.DOWNLOAD), "/atlas")));
        DoorException e = assertThrows(DoorException.class,
                () -> new DelegationService(null).handle(null, null, DelegationService.PATH, macaroon));
        assertEquals(403, e.status());
        assertEquals("delegation needs a client certificate or proxy, not a bearer token", e.reason());
    }
}
