package org.gridcache.door.tpc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import jakarta.servlet.http.HttpServletRequest;
import java.lang.reflect.Proxy;
import java.util.List;
import java.util.Map;
import org.gridcache.common.ticket.Ticket;
import org.gridcache.common.authz.BearerIdentity;
import org.gridcache.common.net.AllowedHosts;
import org.gridcache.common.security.GridSubject;
import org.gridcache.door.exchange.DoorException;
import org.junit.jupiter.api.Test;

/** Which COPYs are third-party copies, and what a bad remote URL or credential gets. */
class CopyRequestTest {
    private static final GridSubject ALICE = GridSubject.of("/DC=org/CN=Alice");

    /** A COPY to http://door.example.org:2880 with these headers. */
    private static HttpServletRequest copy(Map<String, String> headers) {
        return (HttpServletRequest) Proxy.newProxyInstance(CopyRequestTest.class.getClassLoader(),
                new Class<?>[] {HttpServletRequest.class}, (p, m, args) -> switch (m.getName()) {
                    case "getMethod" -> "COPY";
                    case "getHeader" -> headers.get((String) args[0]);
                    case "getServerName" -> "door.example.org";
                    case "getServerPort" -> 2880;
                    case "getScheme" -> "http";
                    default -> null;
                });
    }

    @Test
    void aSourceIsAPullAForeignDestinationAPushAndTheDoorsOwnANamespaceCopy() {
        assertTrue(CopyRequest.isThirdParty(copy(Map.of("Source", "https://se.example.org/f"))));
        assertTrue(CopyRequest.isThirdParty(copy(Map.of("Destination", "https://se.example.org/f"))));
        assertFalse(CopyRequest.isThirdParty(copy(Map.of("Destination", "http://door.example.org:2880/g"))));
        assertFalse(CopyRequest.isThirdParty(copy(Map.of("Destination", "/g"))));
        assertFalse(CopyRequest.isThirdParty(copy(Map.of())));
        CopyRequest pull = CopyRequest.of(copy(Map.of("Source", "https://se.example.org/f")), GridSubject.ANONYMOUS);
        assertEquals(CopyRequest.Kind.PULL, pull.kind());
        assertEquals("https://se.example.org/f", pull.remote());
        CopyRequest push = CopyRequest.of(copy(Map.of("Destination", "http://se.example.org:8080/d/f")), GridSubject.ANONYMOUS);
        assertEquals(CopyRequest.Kind.PUSH, push.kind());
        assertEquals("http://se.example.org:8080/d/f", push.remote());
    }

    @Test
    void aRemoteWrittenAsAnInternalAddressIs403UnlessListedAndANameIsLeftToThePool() {
        for (String internal : new String[] {"http://127.0.0.1:8080/f", "http://169.254.169.254/latest/meta-data/",
                "http://10.1.2.3/f", "http://[::1]/f", "http://[::ffff:192.168.0.1]/f", "http://[fd00::1]/f", "http://0.0.0.0/f"}) {
            CopyRequest pull = CopyRequest.of(copy(Map.of("Source", internal)), ALICE);
            DoorException e = assertThrows(DoorException.class, () -> pull.requireReachable(AllowedHosts.NONE), internal);
            assertEquals(403, e.status(), internal);
            assertTrue(e.reason().startsWith("Source refused: ") && e.reason().endsWith("which tpc.allowed-hosts does not list"),
                    e.reason());
        }
        CopyRequest push = CopyRequest.of(copy(Map.of("Destination", "http://127.0.0.1:8080/f")), ALICE);
        assertTrue(assertThrows(DoorException.class, () -> push.requireReachable(AllowedHosts.NONE)).reason()
                .startsWith("Destination refused: 127.0.0.1 is in the loopback range"));
        push.requireReachable(AllowedHosts.parse("127.0.0.0/8"));
        CopyRequest.of(copy(Map.of("Source", "http://localhost/f")), ALICE).requireReachable(AllowedHosts.NONE); // the pool's to judge
        CopyRequest.of(copy(Map.of("Source", "https://192.0.2.7/f")), ALICE).requireReachable(AllowedHosts.NONE);
    }

    @Test
    void badRemoteUrlsAre400WithoutEchoingSecrets() {
        for (String bad : new String[] {"/relative", "ftp://se.example.org/f", "https://user:secret@se.example.org/f",
                "https:///nohost", "https://se.example.org/f#frag", "not a uri"}) {
            DoorException e = assertThrows(DoorException.class, () -> CopyRequest.of(copy(Map.of("Source", bad)), GridSubject.ANONYMOUS), bad);
            assertEquals(400, e.status(), bad);
            assertFalse(e.reason().contains("secret"), e.reason());
        }
        DoorException both = assertThrows(DoorException.class, () -> CopyRequest.of(copy(Map.of("Source", "https://a/f",
                "Destination", "https://b/f")), GridSubject.ANONYMOUS));
        assertEquals(400, both.status());
    }

    @Test
    void credentialNoneGridsiteOrTheDefaultAnythingElse400() {
        assertEquals(Ticket.REMOTE_NONE, CopyRequest.credential("none", true, false));
        assertEquals(Ticket.REMOTE_GRIDSITE, CopyRequest.credential("GridSite", false, false));
        assertEquals(Ticket.REMOTE_GRIDSITE, CopyRequest.credential(null, true, false), "a certificate client: as dCache");
        assertEquals(Ticket.REMOTE_NONE, CopyRequest.credential(null, true, true), "a token for the remote: none");
        assertEquals(Ticket.REMOTE_NONE, CopyRequest.credential(null, false, false), "anonymous: none");
        DoorException oidc = assertThrows(DoorException.class, () -> CopyRequest.credential("oidc", true, false));
        assertEquals(400, oidc.status());
        assertTrue(oidc.reason().startsWith("Credential oidc is not supported"), oidc.reason());
        assertEquals(400, assertThrows(DoorException.class, () -> CopyRequest.credential("x509", true, false)).status());
    }

    /** A token client defaults to Credential: none (it presented no certificate), and cannot ask for gridsite. */
    @Test
    void aBearerTokensSubjectPresentsNothingAndCannotAskForGridsite() {
        GridSubject token = GridSubject.ofToken(new BearerIdentity("https://iss", "42"), List.of(), null);
        assertEquals(Ticket.REMOTE_NONE, CopyRequest.of(copy(Map.of("Source", "https://a/f")), token).credential());
        assertEquals(Ticket.REMOTE_GRIDSITE, CopyRequest.of(copy(Map.of("Source", "https://a/f")), ALICE).credential());
        DoorException e = assertThrows(DoorException.class,
                () -> CopyRequest.of(copy(Map.of("Source", "https://a/f", "Credential", "gridsite")), token));
        assertEquals(403, e.status());
        assertTrue(e.reason().startsWith("Credential gridsite presents a proxy of your delegation"), e.reason());
    }
}
