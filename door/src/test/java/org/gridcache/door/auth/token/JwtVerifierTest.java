package org.gridcache.door.auth.token;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.nimbusds.jose.JOSEException;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.JWSHeader;
import com.nimbusds.jose.crypto.MACSigner;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.PlainJWT;
import com.nimbusds.jwt.SignedJWT;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Date;
import java.util.List;
import org.gridcache.common.authz.Activity;
import org.gridcache.common.security.GridSubject;
import org.gridcache.door.auth.AccessCheck;
import org.gridcache.door.auth.AuthzPolicy;
import org.gridcache.door.exchange.DoorException;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;
import org.junit.jupiter.api.io.TempDir;

class JwtVerifierTest {
    static final String DOOR = "https://door.example.org:8443";
    static final String AUD = "https://door.example.org:8443";
    private final TestIssuer atlas = new TestIssuer("https://atlas-auth.example.org/");
    private final TestIssuer cms = new TestIssuer("https://cms-auth.example.org");
    @TempDir
    Path dir;
    private JwtVerifier verifier;

    @BeforeEach
    void issuers() throws IOException {
        atlas.writeJwks(dir.resolve("atlas.jwks"));
        cms.writeJwks(dir.resolve("cms.jwks"));
        Files.writeString(dir.resolve("issuers.json"), """
                [{"issuer": "https://atlas-auth.example.org/", "jwks": "atlas.jwks", "base-path": "/atlas",
                  "audiences": ["atlas-storage"], "groups": {"/atlas/production": "/atlas/Role=production"}},
                 {"issuer": "https://cms-auth.example.org", "jwks": "cms.jwks", "audiences": ["ANY"],
                  "groups": {"/cms": "/cms", "/cms/uscms": "/cms/uscms"}}]
                """);
        verifier = new JwtVerifier(new TokenIssuers(dir.resolve("issuers.json"), null, Duration.ofSeconds(1), Clock.systemUTC()),
                () -> DOOR, Clock.systemUTC());
    }

    private GridSubject subject(String token) {
        return verifier.verify(token).orElseThrow();
    }

    private static void refused(String reason, Executable call) {
        DoorException e = assertThrows(DoorException.class, call);
        assertEquals(401, e.status(), e.reason());
        assertEquals(reason, e.reason());
        assertEquals("Bearer error=\"invalid_token\", error_description=\"" + reason.replace('"', '\'') + "\"",
                e.headers().get("WWW-Authenticate"));
    }

    private void refused(String reason, String token) {
        refused(reason, () -> verifier.verify(token));
    }

    @Test
    void aValidTokenIsItsIssuerAndSubjectWithItsScopesBelowTheBasePath() {
        GridSubject s = subject(atlas.token(AUD, "openid storage.read:/data storage.create:/data/new"));
        assertEquals("token:alice-42@https://atlas-auth.example.org/", s.name());
        assertNull(s.dn());
        assertTrue(s.scopes().allows(Activity.DOWNLOAD, "/atlas/data/x"));
        assertFalse(s.scopes().allows(Activity.DOWNLOAD, "/data/x"));
        assertTrue(s.scopes().allows(Activity.UPLOAD, "/atlas/data/new/y"));
        assertFalse(s.scopes().allows(Activity.UPLOAD, "/atlas/data/y"));
    }

    @Test
    void anEcSignedTokenVerifiesToo() {
        String token = TestIssuer.sign(atlas.claims(AUD, "storage.read:/").build(), atlas.ec);
        assertTrue(subject(token).scopes().allows(Activity.DOWNLOAD, "/atlas/x"));
    }

    @Test
    void somethingThatIsNotAJwtIsLeftToTheNextVerifier() {
        assertTrue(verifier.verify("MDAxY2xvY2F0aW9uIE9wdGlvbmFsLmVtcHR5").isEmpty());
    }

    @Test
    void timesAreCheckedWithSixtySecondsOfSkew() {
        Instant now = Instant.now().truncatedTo(ChronoUnit.SECONDS); // JWT times are whole seconds
        Date expired = Date.from(now.minusSeconds(120));
        refused("the token expired at " + expired.toInstant(), atlas.token(AUD, "storage.read:/", b -> b.expirationTime(expired)));
        subject(atlas.token(AUD, "storage.read:/", b -> b.expirationTime(Date.from(now.minusSeconds(30)))));
        Date later = Date.from(now.plusSeconds(120));
        refused("the token is not valid before " + later.toInstant(), atlas.token(AUD, "storage.read:/", b -> b.notBeforeTime(later)));
        subject(atlas.token(AUD, "storage.read:/", b -> b.notBeforeTime(Date.from(now.plusSeconds(30)))));
        refused("the token is issued in the future (iat " + later.toInstant() + ")",
                atlas.token(AUD, "storage.read:/", b -> b.issueTime(later)));
        refused("the token has no expiry (exp)", atlas.token(AUD, "storage.read:/", b -> b.expirationTime(null)));
    }

    @Test
    void theAudienceIsTheDoorAnAliasOfItsIssuerOrAny() {
        subject(atlas.token("https://door.example.org:8443/", "storage.read:/"));
        subject(atlas.token("atlas-storage", "storage.read:/"));
        subject(atlas.token(JwtVerifier.ANY, "storage.read:/"));
        subject(atlas.token(null, "storage.read:/", b -> b.audience(List.of("https://other.example.org", AUD))));
        refused("the token's audience https://door.example.org is not this door (https://door.example.org:8443)",
                atlas.token("https://door.example.org", "storage.read:/"));
        refused("the token's audience ANY is not this door (https://door.example.org:8443)", atlas.token("ANY", "storage.read:/"));
        subject(cms.token("ANY", "read:/")); // SciTokens' ANY, which only this issuer lists
        refused("the token names no audience (aud)", atlas.token(null, "storage.read:/", b -> b.audience((String) null)));
    }

    @Test
    void theDoorsAudienceHasNoDefaultPort() {
        assertEquals("https://door.example.org", JwtVerifier.audienceOf("https://Door.example.org:443/"));
        assertEquals("https://door.example.org:8443", JwtVerifier.audienceOf("https://door.example.org:8443"));
        assertEquals("http://127.0.0.1", JwtVerifier.audienceOf("http://127.0.0.1:80"));
    }

    @Test
    void anUnknownIssuerKeyOrSignatureIsRefused() {
        TestIssuer stranger = new TestIssuer("https://evil.example.org");
        refused("unknown token issuer https://evil.example.org", stranger.token(AUD, "storage.read:/"));
        String unknownKid = TestIssuer.sign(atlas.claims(AUD, "storage.read:/").build(), TestIssuer.rsaKey("rsa-2"));
        refused("no RS256 key of token issuer https://atlas-auth.example.org/ has key id (kid) rsa-2", unknownKid);
        String forged = TestIssuer.sign(atlas.claims(AUD, "storage.read:/").build(), TestIssuer.rsaKey("rsa-1"));
        refused("bad signature: no key of token issuer https://atlas-auth.example.org/ verifies it", forged);
        String tampered = atlas.token(AUD, "storage.read:/data");
        String[] parts = tampered.split("\\.");
        String widened = TestIssuer.sign(atlas.claims(AUD, "storage.modify:/").build(), TestIssuer.rsaKey("x")).split("\\.")[1];
        refused("bad signature: no key of token issuer https://atlas-auth.example.org/ verifies it",
                parts[0] + "." + widened + "." + parts[2]);
    }

    @Test
    void unsignedAndHmacTokensAreRefused() throws JOSEException {
        JWTClaimsSet claims = atlas.claims(AUD, "storage.read:/").build();
        refused("an unsigned token (alg none) is never accepted", new PlainJWT(claims).serialize());
        SignedJWT hmac = new SignedJWT(new JWSHeader(JWSAlgorithm.HS256), claims);
        hmac.sign(new MACSigner(atlas.rsa.toRSAPublicKey().getEncoded()));
        refused("signature algorithm HS256 is not accepted (RSA or EC only)", hmac.serialize());
        refused("malformed JWT: its parts are not base64url JSON", "a.b.c");
    }

    @Test
    void aStorageScopeWithoutAPathMakesTheTokenInvalid() {
        refused("storage scope storage.read without a path (storage.read:/path)", atlas.token(AUD, "storage.read"));
        refused("storage scope write without a path (write:/path)", cms.token(AUD, "read:/ write"));
        refused("storage scope storage.modify: path contains '..'", atlas.token(AUD, "storage.modify:/../cms"));
    }

    @Test
    void aScopeForFooDoesNotReachFoobarAndCreateMayNotOverwriteOrDelete() {
        AuthzPolicy policy = AuthzPolicy.parse("anyone / list,read,write\n");
        GridSubject s = subject(cms.token(AUD, "storage.read:/foo storage.create:/up"));
        AccessCheck.require(policy, s, "/foo/x", Activity.DOWNLOAD);
        DoorException foobar = assertThrows(DoorException.class, () -> AccessCheck.require(policy, s, "/foobar", Activity.DOWNLOAD));
        assertEquals(403, foobar.status());
        assertEquals("Bearer error=\"insufficient_scope\", error_description=\"" + foobar.reason() + "\"",
                foobar.headers().get("WWW-Authenticate"));
        AccessCheck.require(policy, s, "/up/new", Activity.UPLOAD);
        assertEquals(403, assertThrows(DoorException.class, () -> AccessCheck.require(policy, s, "/up/new", Activity.DELETE)).status());
        GridSubject modify = subject(cms.token(AUD, "storage.modify:/up"));
        AccessCheck.require(policy, modify, "/up/new", Activity.DELETE);
    }

    @Test
    void sciTokensReadAndWriteScopes() {
        GridSubject s = subject(cms.token(AUD, "read:/store write:/store/user"));
        assertTrue(s.scopes().allows(Activity.DOWNLOAD, "/store/x"));
        assertTrue(s.scopes().allows(Activity.LIST, "/store"));
        assertFalse(s.scopes().allows(Activity.UPLOAD, "/store/x"));
        assertTrue(s.scopes().allows(Activity.DELETE, "/store/user/x"));
    }

    @Test
    void withoutStorageScopesTheGroupsAreMappedForThePolicy() {
        GridSubject mapped = subject(atlas.token(AUD, "openid", b -> b.claim("wlcg.groups", List.of("/atlas", "/atlas/production"))));
        assertNull(mapped.scopes());
        assertEquals("token", mapped.authentication().method());
        assertTrue(mapped.toString().contains(" via token https://atlas-auth.example.org/ "), mapped.toString());
        String jti = mapped.authentication().id();
        assertTrue(jti.matches("jti:.+|sha256:[0-9a-f]{16}"), jti);
        assertEquals(List.of("/atlas/Role=production"), mapped.fqans()); // the map names only production: /atlas is dropped
        GridSubject asTheyAre = subject(cms.token(AUD, null, b -> b.claim("wlcg.groups", List.of("/cms", "/cms/uscms"))));
        assertEquals(List.of("/cms", "/cms/uscms"), asTheyAre.fqans());
        assertEquals(List.of(), subject(cms.token(AUD, null, b -> b.claim("wlcg.groups", List.of("/atlas")))).fqans(),
                "an issuer's groups count only as its map says: cms cannot claim atlas");
        AuthzPolicy policy = AuthzPolicy.parse("fqan:/atlas/Role=production /atlas list,read\n");
        AccessCheck.require(policy, mapped, "/atlas/x", Activity.DOWNLOAD);
        DoorException refused = assertThrows(DoorException.class, () -> AccessCheck.require(policy, asTheyAre, "/atlas/x", Activity.DOWNLOAD));
        assertEquals(403, refused.status());
        assertNull(refused.headers().get("WWW-Authenticate")); // no scopes: the policy refused, not a scope
    }

    @Test
    void aTokenWithoutSubjectOrIssuerIsRefused() {
        refused("the token names no subject (sub)", atlas.token(AUD, "storage.read:/", b -> b.subject(null)));
        refused("the token names no issuer (iss)", atlas.token(AUD, "storage.read:/", b -> b.issuer(null)));
    }
}
