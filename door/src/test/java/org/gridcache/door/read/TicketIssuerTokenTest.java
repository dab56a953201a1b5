package org.gridcache.door.read;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import org.gridcache.common.origin.CredentialMode;
import org.gridcache.common.origin.OriginEntry;
import org.gridcache.common.cluster.PoolRecord;
import org.gridcache.common.ticket.Ticket;
import org.gridcache.common.ticket.TicketCodec;
import org.gridcache.common.ticket.TicketException;
import org.gridcache.common.ticket.TicketSigningKey;
import org.gridcache.common.authz.Activity;
import org.gridcache.common.authz.BearerIdentity;
import org.gridcache.common.authz.Grants;
import org.gridcache.common.authz.PathGrant;
import org.gridcache.common.authz.TokenGrant;
import org.gridcache.common.security.GridSubject;
import org.gridcache.door.namespace.NamespaceEntry;
import org.junit.jupiter.api.Test;

/** The door's read and write tickets carry what a subject's token granted, and for a token origin the token's reference. */
class TicketIssuerTokenTest {
    private static final String CREDENTIAL_URL = "https://door.example.org:2880/.gridcache/credential";
    private static final BearerIdentity ALICE = new BearerIdentity("https://iss.example.org", "alice");
    private static final Grants READ_DATA = Grants.of(new PathGrant(Activity.READING, "/data"));
    private static final PoolRecord POOL = new PoolRecord("p1", "https://p1:20000", "s", 1, 1, 0, 0, 0, "v", 0,
            PoolRecord.ENABLED, 0, 0, "/CN=p1");
    private final TicketSigningKey key = TicketSigningKey.generate();
    private final TicketCodec codec = TicketCodec.of("door1", key, List.of(key));
    private final TicketIssuer issuer = new TicketIssuer(codec, "door1", Clock.systemUTC());
    private final GridSubject alice = GridSubject.ofToken(ALICE, List.of("/atlas"), READ_DATA)
            .withCaveats(Grants.of(new PathGrant(Set.of(Activity.DOWNLOAD), "/data/public"))).withTokenRef("ab12");

    private Ticket read(OriginEntry origin, String path) throws TicketException {
        NamespaceEntry file = new NamespaceEntry(path, path.substring(path.lastIndexOf('/') + 1), false, 10, 5000, null, null);
        String url = issuer.poolUrl(POOL, List.of(), origin, file, alice, Duration.ofMinutes(1), CREDENTIAL_URL);
        return codec.verify(url.substring(url.indexOf('=') + 1));
    }

    @Test
    void aTokenOriginsTicketNamesTheTokenAndWhereToGetIt() throws Exception {
        Ticket t = read(OriginEntry.of("se", "/data", "https://se.example.org/data", "token"), "/data/public/f");
        assertEquals(new TokenGrant(ALICE, READ_DATA, alice.caveats(), "ab12", "token https://iss.example.org"), t.token());
        assertEquals("token https://iss.example.org", t.authentication(), "how the subject authenticated, for the pool's records");
        assertEquals(CredentialMode.TOKEN, t.credential());
        assertEquals(CREDENTIAL_URL, t.credentialUrl());
        assertEquals("token:alice@https://iss.example.org", t.subject());
        assertEquals(List.of("/atlas"), t.fqans());
    }

    @Test
    void otherOriginsGetTheBoundsButNeitherTheTokenNorACredentialUrl() throws Exception {
        Ticket t = read(OriginEntry.of("open", "/data", "http://open.example.org/data"), "/data/public/f");
        assertEquals(new TokenGrant(ALICE, READ_DATA, alice.caveats(), null, "token https://iss.example.org"), t.token());
        assertNull(t.credentialUrl());
        assertEquals(TokenGrant.NONE, TokenGrant.of(GridSubject.of("/CN=Bob"), true), "an X.509 subject has nothing to carry");
        assertEquals("x509", new Ticket("/f", "p", Ticket.READ, 0, "/CN=Bob", "door1", null, 0, 0).authentication());
    }

    @Test
    void aWriteTicketCarriesTheBoundsSoThatThePoolRefusesWhatTheyDoNotAllow() throws Exception {
        OriginEntry origin = OriginEntry.of("se", "/data", "https://se.example.org/data", "token");
        String url = issuer.writeUrl(POOL, origin, "/data/public/new", 3, alice, Duration.ofMinutes(1), CREDENTIAL_URL);
        String signed = url.substring(url.indexOf('=') + 1);
        assertEquals("ab12", codec.verify(signed).token().tokenRef());
        TicketException e = assertThrows(TicketException.class, () -> codec.verify(signed, "/data/public/new", "p1", Ticket.WRITE));
        assertEquals("the token's scopes do not allow UPLOAD of /data/public/new", e.getMessage());
    }
}
