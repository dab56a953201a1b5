package org.gridcache.door.auth;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.JWSHeader;
import com.nimbusds.jose.crypto.MACSigner;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.SignedJWT;
import java.time.Duration;
import java.time.Instant;
import java.util.Date;
import java.util.List;
import java.util.Optional;
import org.gridcache.common.authz.BearerIdentity;
import org.gridcache.common.security.GridSubject;
import org.gridcache.door.MutableClock;
import org.junit.jupiter.api.Test;

class TokenVaultTest {
    private final MutableClock clock = new MutableClock();
    private final Instant start = clock.instant();

    private static String jwt(Instant exp) throws Exception {
        SignedJWT jwt = new SignedJWT(new JWSHeader(JWSAlgorithm.HS256),
                new JWTClaimsSet.Builder().issuer("https://iss.example.org").subject("alice").expirationTime(Date.from(exp)).build());
        jwt.sign(new MACSigner(new byte[32]));
        return jwt.serialize();
    }

    @Test
    void keepsAJwtUntilItsExpiryUnderItsSha256() throws Exception {
        TokenVault vault = new TokenVault(clock);
        String token = jwt(start.plus(Duration.ofMinutes(20)));
        String ref = vault.keep(token);
        assertEquals(64, ref.length());
        assertEquals(TokenVault.ref(token), ref);
        assertFalse(ref.contains(token.substring(0, 10)));
        assertEquals(token, vault.get(ref).orElseThrow().token());
        assertEquals(start.plus(Duration.ofMinutes(20)), vault.get(ref).orElseThrow().expiry());
        assertFalse(vault.get(ref).orElseThrow().toString().contains(token), "never shown");
        clock.advance(Duration.ofMinutes(20).toMillis());
        assertEquals(Optional.empty(), vault.get(ref), "gone at its expiry");
    }

    @Test
    void aTokenWithoutReadableExpiryIsKeptAnHourAndNoneBeyondTheLongest() throws Exception {
        TokenVault vault = new TokenVault(clock);
        String macaroon = "MDAxY2xvY2F0aW9uIGdyaWRjYWNoZQowMDE";
        assertEquals(start.plus(TokenVault.UNREADABLE_EXPIRY), vault.get(vault.keep(macaroon)).orElseThrow().expiry());
        clock.advance(60_000);
        assertEquals(start.plus(TokenVault.UNREADABLE_EXPIRY), vault.get(vault.keep(macaroon)).orElseThrow().expiry(),
                "kept again by the next request: the first keeping stands");
        String longLived = jwt(start.plus(Duration.ofDays(30)));
        assertEquals(clock.instant().plus(TokenVault.LONGEST), vault.get(vault.keep(longLived)).orElseThrow().expiry());
    }

    @Test
    void anExpiredTokenIsNotKeptAndUnknownReferencesFindNothing() throws Exception {
        TokenVault vault = new TokenVault(clock);
        assertEquals(Optional.empty(), vault.get(vault.keep(jwt(start.minusSeconds(1)))));
        assertEquals(Optional.empty(), vault.get(TokenVault.ref("never kept")));
        assertEquals(Optional.empty(), vault.get(null));
    }

    @Test
    void isBounded() throws Exception {
        TokenVault vault = new TokenVault(clock, 10);
        for (int i = 0; i < 100; i++) {
            vault.keep("token-" + i);
        }
        assertTrue(vault.size() <= 10, "kept " + vault.size());
    }

    @Test
    void aKeepingVerifierPutsTheReferenceInTheSubjectAndKeepsOnlyWhatItAccepts() throws Exception {
        TokenVault vault = new TokenVault(clock);
        BearerIdentity alice = new BearerIdentity("https://iss.example.org", "alice");
        BearerVerifier verifier = vault.keeping((token, request) -> token.startsWith("good")
                ? Optional.of(GridSubject.ofToken(alice, List.of(), null)) : Optional.empty());
        GridSubject subject = verifier.verify("good-token", null).orElseThrow();
        assertEquals(TokenVault.ref("good-token"), subject.tokenRef());
        assertEquals("good-token", vault.get(subject.tokenRef()).orElseThrow().token());
        assertFalse(subject.toString().contains("good-token"), subject.toString());
        assertEquals(Optional.empty(), verifier.verify("other-token", null));
        assertEquals(Optional.empty(), vault.get(TokenVault.ref("other-token")));
        // a macaroon's caveats keep the reference
        assertEquals(subject.tokenRef(), subject.withCaveats(org.gridcache.common.authz.Grants.NONE).tokenRef());
    }
}
