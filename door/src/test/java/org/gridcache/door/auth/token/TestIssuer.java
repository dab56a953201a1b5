package org.gridcache.door.auth.token;

import com.nimbusds.jose.JOSEException;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.JWSHeader;
import com.nimbusds.jose.crypto.ECDSASigner;
import com.nimbusds.jose.crypto.RSASSASigner;
import com.nimbusds.jose.jwk.Curve;
import com.nimbusds.jose.jwk.ECKey;
import com.nimbusds.jose.jwk.JWK;
import com.nimbusds.jose.jwk.JWKSet;
import com.nimbusds.jose.jwk.RSAKey;
import com.nimbusds.jose.jwk.gen.ECKeyGenerator;
import com.nimbusds.jose.jwk.gen.RSAKeyGenerator;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.SignedJWT;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Date;
import java.util.List;
import java.util.function.UnaryOperator;

/** A token issuer made by a test: its keys (RSA and EC), their JWKS, and tokens it signs. */
final class TestIssuer {
    final String issuer;
    final RSAKey rsa;
    final ECKey ec;

    TestIssuer(String issuer) {
        this.issuer = issuer;
        try {
            this.rsa = new RSAKeyGenerator(2048).keyID("rsa-1").generate();
            this.ec = new ECKeyGenerator(Curve.P_256).keyID("ec-1").generate();
        } catch (JOSEException e) {
            throw new IllegalStateException(e);
        }
    }

    static RSAKey rsaKey(String kid) {
        try {
            return new RSAKeyGenerator(2048).keyID(kid).generate();
        } catch (JOSEException e) {
            throw new IllegalStateException(e);
        }
    }

    String jwks(JWK... keys) {
        return new JWKSet(List.of(keys)).toPublicJWKSet().toString();
    }

    Path writeJwks(Path file) throws IOException {
        Files.writeString(file, jwks(rsa, ec), StandardCharsets.UTF_8);
        return file;
    }

    /** Claims valid now for {@code aud} with {@code scope}, changed by {@code edit}. */
    JWTClaimsSet.Builder claims(String aud, String scope) {
        Instant now = Instant.now();
        JWTClaimsSet.Builder b = new JWTClaimsSet.Builder().issuer(issuer).subject("alice-42").audience(aud)
                .issueTime(Date.from(now)).notBeforeTime(Date.from(now)).expirationTime(Date.from(now.plusSeconds(600)))
                .jwtID("j-1");
        return scope == null ? b : b.claim("scope", scope);
    }

    String token(String aud, String scope) {
        return sign(claims(aud, scope).build(), rsa);
    }

    String token(String aud, String scope, UnaryOperator<JWTClaimsSet.Builder> edit) {
        return sign(edit.apply(claims(aud, scope)).build(), rsa);
    }

    static String sign(JWTClaimsSet claims, JWK key) {
        try {
            SignedJWT jwt;
            if (key instanceof RSAKey r) {
                jwt = new SignedJWT(new JWSHeader.Builder(JWSAlgorithm.RS256).keyID(r.getKeyID()).build(), claims);
                jwt.sign(new RSASSASigner(r));
            } else {
                ECKey e = (ECKey) key;
                jwt = new SignedJWT(new JWSHeader.Builder(JWSAlgorithm.ES256).keyID(e.getKeyID()).build(), claims);
                jwt.sign(new ECDSASigner(e));
            }
            return jwt.serialize();
        } catch (JOSEException e) {
            throw new IllegalStateException(e);
        }
    }
}
