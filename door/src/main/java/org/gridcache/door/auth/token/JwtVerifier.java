package org.gridcache.door.auth.token;

import com.nimbusds.jose.JOSEException;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.JWSHeader;
import com.nimbusds.jose.KeySourceException;
import com.nimbusds.jose.crypto.factories.DefaultJWSVerifierFactory;
import com.nimbusds.jose.jwk.source.RateLimitReachedException;
import com.nimbusds.jose.proc.JWSVerificationKeySelector;
import com.nimbusds.jose.proc.SecurityContext;
import com.nimbusds.jwt.JWT;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.JWTParser;
import com.nimbusds.jwt.PlainJWT;
import com.nimbusds.jwt.SignedJWT;
import jakarta.servlet.http.HttpServletRequest;
import java.net.URI;
import java.security.Key;
import java.text.ParseException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Date;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.function.Supplier;
import org.gridcache.common.authz.BearerIdentity;
import org.gridcache.common.authz.Grants;
import org.gridcache.common.security.Authentication;
import org.gridcache.common.security.GridSubject;
import org.gridcache.door.auth.BearerChallenge;
import org.gridcache.door.auth.BearerVerifier;
import org.gridcache.door.auth.TokenVault;
import org.gridcache.door.exchange.DoorException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A WLCG JWT profile or SciTokens token (a JWS of three dot-separated parts): its issuer must be one of {@link
 * TokenIssuers}, its signature one of that issuer's keys' (RSA or EC; {@code none} and HMAC never: the keys are
 * public), its {@code exp}, {@code nbf} and {@code iat} right within {@link #SKEW}, its {@code aud} this door (its
 * URL's scheme and host, the port only when not the scheme's default), an alias the issuer lists, or {@link #ANY}. It
 * becomes a subject named by {@code iss} and {@code sub}, with its storage scopes as grants ({@link StorageScopes})
 * or, without any, its {@code wlcg.groups} mapped by the issuer for the policy to judge. Any failure is a 401 {@code
 * invalid_token} whose reason names the check, never the token.
 */
public final class JwtVerifier implements BearerVerifier {
    private static final Logger LOG = LoggerFactory.getLogger(JwtVerifier.class);
    static final Duration SKEW = Duration.ofSeconds(60);
    /** The WLCG profile's audience that any service accepts. */
    public static final String ANY = "https://wlcg.cern.ch/jwt/v1/any";
    private static final Set<JWSAlgorithm> ACCEPTED = Set.of(JWSAlgorithm.RS256, JWSAlgorithm.RS384, JWSAlgorithm.RS512,
            JWSAlgorithm.PS256, JWSAlgorithm.PS384, JWSAlgorithm.PS512, JWSAlgorithm.ES256, JWSAlgorithm.ES384, JWSAlgorithm.ES512);
    private static final int SHOWN = 100;
    private final TokenIssuers issuers;
    private final Supplier<String> doorUrl;
    private final Clock clock;

    /** {@code doorUrl}: the door's public URL, read at each verification (it is known once the door listens). */
    public JwtVerifier(TokenIssuers issuers, Supplier<String> doorUrl, Clock clock) {
        this.issuers = issuers;
        this.doorUrl = doorUrl;
        this.clock = clock;
    }

    @Override
    public Optional<GridSubject> verify(String token, HttpServletRequest request) {
        return verify(token);
    }

    Optional<GridSubject> verify(String token) {
        if (token.chars().filter(c -> c == '.').count() != 2) {
            return Optional.empty(); // not a JWS: another verifier's kind (a macaroon)
        }
        SignedJWT jwt = signed(token);
        JWTClaimsSet claims;
        try {
            claims = jwt.getJWTClaimsSet();
        } catch (ParseException e) {
            throw BearerChallenge.invalidToken("malformed JWT: its claims are not a JSON object");
        }
        String iss = claims.getIssuer();
        if (iss == null) {
            throw BearerChallenge.invalidToken("the token names no issuer (iss)");
        }
        TokenIssuers.Issuer issuer = issuers.of(iss).orElseThrow(() -> BearerChallenge.invalidToken("unknown token issuer " + shown(iss)));
        verifySignature(jwt, issuer);
        checkTimes(claims);
        checkAudience(claims, issuer.config());
        String sub = claims.getSubject();
        if (sub == null || sub.isBlank()) {
            throw BearerChallenge.invalidToken("the token names no subject (sub)");
        }
        Grants scopes;
        List<String> groups;
        try {
            scopes = StorageScopes.of(claims.getStringClaim("scope"), issuer.config().basePath());
            List<String> listed = claims.getStringListClaim("wlcg.groups");
            groups = listed == null ? List.of() : listed;
        } catch (ParseException e) {
            throw BearerChallenge.invalidToken("malformed token claims: scope is a string, wlcg.groups a list of strings");
        } catch (IllegalArgumentException e) {
            throw BearerChallenge.invalidToken(e.getMessage());
        }
        GridSubject subject = GridSubject.ofToken(new BearerIdentity(iss, sub), issuer.config().policyGroups(groups), scopes)
                .authenticatedBy(Authentication.token(iss, idOf(claims.getJWTID(), token), claims.getExpirationTime().toInstant()));
        LOG.debug("token of {} verified: {}", iss, subject);
        return Optional.of(subject);
    }

    private static SignedJWT signed(String token) {
        JWT jwt;
        try {
            jwt = JWTParser.parse(token);
        } catch (ParseException e) {
            throw BearerChallenge.invalidToken("malformed JWT: its parts are not base64url JSON");
        }
        if (jwt instanceof PlainJWT) {
            throw BearerChallenge.invalidToken("an unsigned token (alg none) is never accepted");
        }
        if (!(jwt instanceof SignedJWT signed)) {
            throw BearerChallenge.invalidToken("not a signed JWT");
        }
        JWSAlgorithm alg = signed.getHeader().getAlgorithm();
        if (!ACCEPTED.contains(alg)) {
            throw BearerChallenge.invalidToken("signature algorithm " + shown(alg.getName()) + " is not accepted (RSA or EC only)");
        }
        return signed;
    }

    /** The issuer's keys with the token's {@code kid} (fetched again once when none has it), one of which must verify. */
    private static void verifySignature(SignedJWT jwt, TokenIssuers.Issuer issuer) {
        JWSHeader header = jwt.getHeader();
        String iss = issuer.config().issuer();
        List<? extends Key> keys;
        try {
            keys = new JWSVerificationKeySelector<SecurityContext>(header.getAlgorithm(), issuer.keys()).selectJWSKeys(header, null);
        } catch (RateLimitReachedException e) {
            if (issuer.unavailable().getAsBoolean()) {
                throw new DoorException(503, "cannot obtain the keys of token issuer " + iss + " now: its last fetch failed");
            }
            keys = List.of(); // the keys were fetched again a moment ago: the kid is unknown
        } catch (KeySourceException e) {
            LOG.warn("keys of token issuer {} unavailable: {}", iss, e.getMessage());
            throw new DoorException(503, "cannot obtain the keys of token issuer " + iss + " now: " + e.getMessage());
        }
        if (keys.isEmpty()) {
            throw BearerChallenge.invalidToken("no " + header.getAlgorithm() + " key of token issuer " + iss
                    + (header.getKeyID() == null ? "" : " has key id (kid) " + shown(header.getKeyID())));
        }
        DefaultJWSVerifierFactory verifiers = new DefaultJWSVerifierFactory();
        for (Key key : keys) {
            try {
                if (jwt.verify(verifiers.createJWSVerifier(header, key))) {
                    return;
                }
            } catch (JOSEException e) {
                LOG.debug("key of {} does not verify: {}", iss, e.getMessage());
            }
        }
        throw BearerChallenge.invalidToken("bad signature: no key of token issuer " + iss + " verifies it");
    }

    private void checkTimes(JWTClaimsSet claims) {
        Instant now = clock.instant();
        Date exp = claims.getExpirationTime();
        if (exp == null) {
            throw BearerChallenge.invalidToken("the token has no expiry (exp)");
        }
        if (now.isAfter(exp.toInstant().plus(SKEW))) {
            throw BearerChallenge.invalidToken("the token expired at " + exp.toInstant());
        }
        Date nbf = claims.getNotBeforeTime();
        if (nbf != null && nbf.toInstant().isAfter(now.plus(SKEW))) {
            throw BearerChallenge.invalidToken("the token is not valid before " + nbf.toInstant());
        }
        Date iat = claims.getIssueTime();
        if (iat != null && iat.toInstant().isAfter(now.plus(SKEW))) {
            throw BearerChallenge.invalidToken("the token is issued in the future (iat " + iat.toInstant() + ")");
        }
    }

    private void checkAudience(JWTClaimsSet claims, TokenIssuer issuer) {
        List<String> audiences = claims.getAudience();
        if (audiences.isEmpty()) {
            throw BearerChallenge.invalidToken("the token names no audience (aud)");
        }
        String door = audienceOf(doorUrl.get());
        Set<String> accepted = new HashSet<>(issuer.audiences());
        accepted.add(door);
        accepted.add(ANY);
        for (String aud : audiences) {
            if (accepted.contains(aud) || aud.endsWith("/") && accepted.contains(aud.substring(0, aud.length() - 1))) {
                return;
            }
        }
        throw BearerChallenge.invalidToken("the token's audience " + shown(String.join(" ", audiences)) + " is not this door ("
                + door + ")");
    }

    /** {@code https://host:port} of a URL, the port only when it is not the scheme's default, host in lower case. */
    public static String audienceOf(String url) {
        URI uri = URI.create(url);
        String scheme = uri.getScheme().toLowerCase(Locale.ROOT);
        int port = uri.getPort();
        boolean defaultPort = port == -1 || scheme.equals("https") && port == 443 || scheme.equals("http") && port == 80;
        return scheme + "://" + uri.getHost().toLowerCase(Locale.ROOT) + (defaultPort ? "" : ":" + port);
    }

    /** What audit names a token by: its {@code jti}, else the start of its SHA-256; never the token. */
    static String idOf(String jti, String token) {
        return jti != null && !jti.isBlank() ? "jti:" + shown(jti) : "sha256:" + TokenVault.ref(token).substring(0, 16);
    }

    /** A claim a client chose, fit for one log and reply line. */
    private static String shown(String value) {
        String printable = value.replaceAll("[^\\x20-\\x7e]", "?");
        return printable.length() <= SHOWN ? printable : printable.substring(0, SHOWN) + "...";
    }
}
