package org.gridcache.door.namespace;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Clock;
import java.util.List;
import java.util.Optional;
import org.eclipse.jetty.client.HttpClient;
import org.eclipse.jetty.client.Request;
import org.eclipse.jetty.http.HttpHeader;
import org.gridcache.common.origin.OriginEntry;
import org.gridcache.common.authz.BearerIdentity;
import org.gridcache.common.security.GridSubject;
import org.gridcache.door.auth.TokenVault;
import org.gridcache.door.exchange.DoorException;
import org.junit.jupiter.api.Test;

/** Who the door is towards an origin mounted {@code --credential token}: the request's own token, or 401. */
class OriginIdentitiesTest {
    private static final OriginEntry TOKEN_MOUNT = OriginEntry.of("se", "/se", "https://se.example.org/data", "token");
    private static final OriginEntry OPEN_MOUNT = OriginEntry.of("open", "/open", "http://open.example.org/data");
    private static final BearerIdentity ALICE = new BearerIdentity("https://iss.example.org", "alice");
    private final TokenVault vault = new TokenVault(Clock.systemUTC());
    private final OriginIdentities identities = new OriginIdentities(s -> Optional.empty(), () -> null,
            s -> vault.get(s.tokenRef()).map(k -> OriginIdentity.token(s.tokenRef(), s.name(), k.expiry(), k.token())));

    private GridSubject aliceWith(String token) {
        return GridSubject.ofToken(ALICE, List.of(), null).withTokenRef(vault.keep(token));
    }

    @Test
    void aTokenSubjectActsWithItsOwnTokenEachTokenAnIdentityOfItsOwn() {
        OriginIdentity first = identities.of(aliceWith("token-one"), TOKEN_MOUNT);
        OriginIdentity second = identities.of(aliceWith("token-two"), TOKEN_MOUNT);
        assertEquals("token-one", first.bearerToken());
        assertNotEquals(first, second, "listings are never shared between two tokens, even of one subject");
        assertEquals(first, identities.of(aliceWith("token-one"), TOKEN_MOUNT));
        assertFalse(first.key().contains("token-one"), first.key());
        assertTrue(first.key().contains(TokenVault.ref("token-one")), first.key());
        assertFalse(first.delegated(), "no certificate of the user's");
        assertSame(OriginIdentity.DOOR, identities.of(aliceWith("token-one"), OPEN_MOUNT), "other mounts: the door itself");
    }

    @Test
    void aSubjectWithoutATokenOnATokenMountIs401() {
        for (GridSubject subject : List.of(GridSubject.ANONYMOUS, GridSubject.of("/DC=org/DC=example/CN=Alice"),
                GridSubject.ofToken(ALICE, List.of(), null))) {
            DoorException e = assertThrows(DoorException.class, () -> identities.of(subject, TOKEN_MOUNT));
            assertEquals(401, e.status());
            assertTrue(e.getMessage().startsWith("this origin needs a bearer token"), e.getMessage());
            assertEquals("Bearer", e.headers().get("WWW-Authenticate"));
        }
    }

    @Test
    void aTokenTheDoorNoLongerHoldsIs401() {
        GridSubject forgotten = GridSubject.ofToken(ALICE, List.of(), null).withTokenRef(TokenVault.ref("expired token"));
        DoorException e = assertThrows(DoorException.class, () -> identities.of(forgotten, TOKEN_MOUNT));
        assertEquals(401, e.status());
        assertTrue(e.getMessage().startsWith("your bearer token is no longer held by this door"), e.getMessage());
        DoorException none = assertThrows(DoorException.class,
                () -> new OriginIdentities(s -> Optional.empty(), () -> null).of(aliceWith("t"), TOKEN_MOUNT));
        assertEquals(401, none.status(), "a door that keeps no tokens");
    }

    @Test
    void requestsAsATokenIdentityCarryTheTokenAndTheDoorsCarryNone() throws Exception {
        HttpClient http = new HttpClient();
        Request asAlice = OriginHttpClient.as(identities.of(aliceWith("token-one"), TOKEN_MOUNT), http.newRequest("https://se.example.org/data/f"));
        assertEquals("Bearer token-one", asAlice.getHeaders().get(HttpHeader.AUTHORIZATION));
        assertEquals(identities.of(aliceWith("token-one"), TOKEN_MOUNT), asAlice.getTag(),
                "connections of that token only: an origin may keep the identity a connection authenticated first");
        Request asBob = OriginHttpClient.as(identities.of(aliceWith("token-two"), TOKEN_MOUNT), http.newRequest("https://se.example.org/data/f"));
        assertNotEquals(asAlice.getTag(), asBob.getTag(), "another token, other connections");
        Request asDoor = OriginHttpClient.as(OriginIdentity.DOOR, http.newRequest("https://se.example.org/data/f"));
        assertNull(asDoor.getHeaders().get(HttpHeader.AUTHORIZATION));
        assertNull(asDoor.getTag(), "the door's own connections");
    }
}
