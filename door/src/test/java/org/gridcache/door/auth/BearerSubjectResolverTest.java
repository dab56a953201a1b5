package org.gridcache.door.auth;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import jakarta.servlet.http.HttpServletRequest;
import java.lang.reflect.Proxy;
import java.security.cert.X509Certificate;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.gridcache.common.authz.BearerIdentity;
import org.gridcache.common.security.Authentication;
import org.gridcache.common.security.GridSubject;
import org.gridcache.door.exchange.DoorException;
import org.junit.jupiter.api.Test;

class BearerSubjectResolverTest {
    private static final GridSubject ALICE = GridSubject.of("/DC=org/CN=Alice");
    private static final GridSubject TOKEN = GridSubject.ofToken(new BearerIdentity("https://iss", "42"), List.of(), null);
    private final List<String> seen = new ArrayList<>();
    private final BearerVerifier jwt = (token, request) -> {
        seen.add(token);
        return token.startsWith("jwt.") ? Optional.of(TOKEN) : Optional.empty();
    };
    private final BearerSubjectResolver resolver = new BearerSubjectResolver(List.of(jwt), request -> ALICE);

    private static HttpServletRequest request(boolean secure, Map<String, String> headers, String query) {
        return request(secure, headers, query, null);
    }

    /** {@code chain}: what the TLS handshake presented (null: no certificate). */
    private static HttpServletRequest request(boolean secure, Map<String, String> headers, String query, X509Certificate[] chain) {
        return (HttpServletRequest) Proxy.newProxyInstance(BearerSubjectResolverTest.class.getClassLoader(),
                new Class<?>[] {HttpServletRequest.class}, (p, m, args) -> switch (m.getName()) {
                    case "isSecure" -> secure;
                    case "getHeader" -> headers.get((String) args[0]);
                    case "getQueryString" -> query;
                    case "getAttribute" -> X509SubjectResolver.CERTIFICATE_ATTRIBUTE.equals(args[0]) ? chain : null;
                    default -> throw new UnsupportedOperationException(m.getName());
                });
    }

    /** Issue 39 row 2: gfal2 sends the macaroon it got from the door together with the user's proxy. */
    @Test
    void aMacaroonSentWithACertificateOfItsOwnDnMayActWithTheDelegation() {
        GridSubject macaroon = new GridSubject(ALICE.dn(), null, List.of(), false, null, null, List.of(), "ref",
                Authentication.macaroon("k1:00ff", null, false));
        BearerVerifier verifier = (token, request) -> Optional.of(macaroon);
        Map<String, String> bearer = Map.of("Authorization", "Bearer m");
        X509Certificate[] presented = new X509Certificate[1]; // judged by the X.509 resolver below, not here
        assertTrue(new BearerSubjectResolver(List.of(verifier), r -> ALICE).resolve(request(true, bearer, null, presented))
                .mayActWithDelegation(), "her own certificate: she holds the key");
        assertFalse(new BearerSubjectResolver(List.of(verifier), r -> ALICE).resolve(request(true, bearer, null, null))
                .mayActWithDelegation(), "the macaroon alone");
        assertFalse(new BearerSubjectResolver(List.of(verifier), r -> GridSubject.of("/DC=org/CN=Bob"))
                .resolve(request(true, bearer, null, presented)).mayActWithDelegation(), "another DN's certificate");
        assertFalse(new BearerSubjectResolver(List.of(verifier), r -> {
            throw new DoorException(401, "certificate refused");
        }).resolve(request(true, bearer, null, presented)).mayActWithDelegation(), "a certificate that does not validate");
    }

    @Test
    void aTokenDecidesBeforeTheCertificate() {
        assertSame(TOKEN, resolver.resolve(request(true, Map.of("Authorization", "Bearer jwt.a.b"), null)));
        assertSame(TOKEN, resolver.resolve(request(true, Map.of("Authorization", "bearer  jwt.a.b "), null)));
        assertEquals(List.of("jwt.a.b", "jwt.a.b"), seen);
        assertSame(ALICE, resolver.resolve(request(true, Map.of(), null)));
        assertSame(ALICE, resolver.resolve(request(true, Map.of("Authorization", "Basic YTpi"), "x=1")));
    }

    @Test
    void theAuthzQueryParameterCarriesATokenForClientsWithoutHeaders() {
        assertSame(TOKEN, resolver.resolve(request(true, Map.of(), "x=1&authz=jwt.a%2Eb")));
        assertEquals(List.of("jwt.a.b"), seen);
        DoorException bad = assertThrows(DoorException.class, () -> resolver.resolve(request(true, Map.of(), "authz=jwt.%zz")));
        assertEquals(401, bad.status());
        assertEquals("the authz query parameter is not percent-encoded", bad.reason());
    }

    @Test
    void aTokenOverPlainHttpIsRefusedAsSpent() {
        DoorException e = assertThrows(DoorException.class,
                () -> resolver.resolve(request(false, Map.of("Authorization", "Bearer jwt.a.b"), null)));
        assertEquals(401, e.status());
        assertEquals("bearer tokens are accepted over HTTPS only (this one was sent in clear: revoke it)", e.reason());
        assertEquals(List.of(), seen); // not even looked at
    }

    @Test
    void aTokenNoVerifierKnowsIsRefusedWithItsChallenge() {
        DoorException e = assertThrows(DoorException.class,
                () -> resolver.resolve(request(true, Map.of("Authorization", "Bearer MDAxY2xvY2F0aW9u"), null)));
        assertEquals(401, e.status());
        assertEquals("Bearer error=\"invalid_token\", error_description=\"the bearer token is of no kind this door accepts "
                + "(a JWT of a configured issuer)\"", e.headers().get("WWW-Authenticate"));
        DoorException none = assertThrows(DoorException.class, () -> new BearerSubjectResolver(List.of(), r -> ALICE)
                .resolve(request(true, Map.of("Authorization", "Bearer jwt.a.b"), null)));
        assertEquals("this door accepts no bearer tokens (no token issuer is configured)", none.reason());
    }
}
