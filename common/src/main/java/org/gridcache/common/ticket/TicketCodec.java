package org.gridcache.common.ticket;

import org.gridcache.common.origin.CredentialMode;
import com.nimbusds.jose.JOSEException;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.JWSHeader;
import com.nimbusds.jose.JWSObject;
import com.nimbusds.jose.JWSSigner;
import com.nimbusds.jose.JWSVerifier;
import com.nimbusds.jose.Payload;
import com.nimbusds.jose.jca.JCAContext;
import com.nimbusds.jose.util.Base64URL;
import java.text.ParseException;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.LongAdder;
import org.bouncycastle.math.ec.rfc8032.Ed25519;
import org.gridcache.common.authz.Activity;
import org.gridcache.common.authz.BearerIdentity;
import org.gridcache.common.authz.Grants;
import org.gridcache.common.authz.TokenGrant;

/**
 * Signs and verifies tickets as compact JWS (EdDSA over Ed25519, nimbus-jose-jwt; {@code kid} in the header). A node
 * signs with its own {@link TicketSigningKey} and verifies with the public keys it trusts ({@link TicketKeys}), only
 * a key of the issuer the ticket names. Verification checks signature, lifetime, expiry, path, pool and operation,
 * in that order, and names the first failure.
 *
 * <p>The claims name no origin URL, host or delegation: a client can read them (a JWS is signed, not encrypted), and
 * a pool resolves the origin from the mount table by path. The verifier caps a ticket's lifetime ({@code exp - iat})
 * itself, whatever the issuer configured.
 *
 * <p>A bearer token's subject adds {@code tkiss} and {@code tksub} (the token's own {@code iss} and {@code sub}; the
 * JWS' {@code sub} is the subject's name, {@code token:<sub>@<iss>}), {@code groups} (its groups, where an X.509
 * subject has {@code fqans}), {@code scopes} (its storage scopes as encoded {@link Grants}), {@code caveats} (a
 * macaroon's, a list of encoded {@link Grants}) and, for an origin mounted {@code --credential token}, {@code tokref}
 * (the SHA-256 of the token, the door vault's key; never the token), and {@code authn}, how the subject authenticated
 * in audit's words (a token's issuer and id, a macaroon's identifier; {@link Ticket#authentication()}). The full check refuses a ticket whose scopes or
 * caveats do not allow its operation on its path.
 */
public final class TicketCodec {
    /** The longest lifetime a ticket may have, unless a pool is configured otherwise. */
    public static final Duration DEFAULT_MAX_LIFETIME = Duration.ofMinutes(10);
    /** How far issuer's and verifier's clocks may disagree. */
    private static final long SKEW_SECONDS = 60;
    private final TicketSigningKey key;
    private final JWSHeader header;
    private final TicketKeys keys;
    private final long maxLifetimeSeconds;
    private final Clock clock;
    private final VerifiedTickets verified = new VerifiedTickets();
    private final LongAdder signaturesChecked = new LongAdder();

    /**
     * {@code key}: this node's signing key (null: verify only). {@code keys}: the keys it trusts.
     * {@code maxLifetime}: longer-lived tickets are refused.
     */
    public TicketCodec(TicketSigningKey key, TicketKeys keys, Duration maxLifetime, Clock clock) {
        this.key = key;
        this.header = key == null ? null : new JWSHeader.Builder(JWSAlgorithm.EdDSA).keyID(key.kid()).build();
        this.keys = keys;
        this.maxLifetimeSeconds = maxLifetime.toSeconds();
        this.clock = clock;
    }

    /** Signs with {@code key} and trusts the keys of {@code issuer}, now: what a door needs. */
    public static TicketCodec of(String issuer, TicketSigningKey key, List<TicketSigningKey> trusted) {
        return new TicketCodec(key, TicketKeys.of(issuer, trusted), DEFAULT_MAX_LIFETIME, Clock.systemUTC());
    }

    public String sign(Ticket ticket) {
        if (key == null) {
            throw new IllegalStateException("this node verifies tickets only");
        }
        Map<String, Object> claims = new LinkedHashMap<>();
        claims.put("path", ticket.path());
        claims.put("pool", ticket.pool());
        claims.put("op", ticket.operation());
        claims.put("iat", ticket.issuedAt());
        claims.put("exp", ticket.expiresAt());
        claims.put("sub", ticket.subject());
        claims.put("door", ticket.door());
        claims.put("size", ticket.size());
        claims.put("mtime", ticket.mtime());
        claims.put("cred", ticket.credential().id());
        if (ticket.vo() != null) {
            claims.put("vo", ticket.vo());
            claims.put("fqans", ticket.fqans());
        } else if (!ticket.fqans().isEmpty()) {
            claims.put("groups", ticket.fqans());
        }
        putToken(claims, ticket.token());
        if (ticket.credentialUrl() != null) {
            claims.put("credurl", ticket.credentialUrl());
        }
        if (!ticket.peers().isEmpty()) {
            claims.put("peers", ticket.peers());
        }
        if (ticket.remote() != null) {
            claims.put("remote", ticket.remote());
            claims.put("rcred", ticket.remoteCredential());
        }
        if (ticket.issuedByPool() && ticket.needsDoorGrant() && ticket.grant() != null) {
            claims.put("grant", ticket.grant());
        }
        JWSObject jws = new JWSObject(header, new Payload(claims));
        try {
            jws.sign(new Signer(key));
        } catch (JOSEException e) {
            throw new IllegalStateException("cannot sign ticket", e);
        }
        return jws.serialize();
    }

    /**
     * Parses and checks the signature, the lifetime cap and expiry only. A ticket seen before ({@link VerifiedTickets},
     * the same signed string) skips the parse and the signature check; that its key is still published and its times
     * are checked on every call.
     */
    public Ticket verify(String token) throws TicketException {
        if (token == null || token.isEmpty()) {
            throw new TicketException("missing ticket: read through the door, which redirects with one");
        }
        VerifiedTickets.Entry known = verified.get(token);
        if (known != null && !Arrays.equals(keys.publicKey(known.ticket().door(), known.kid()), known.publicKey())) {
            verified.forget(token);
            throw unpublished(known.ticket());
        }
        VerifiedTickets.Entry entry = known != null ? known : checkSignature(token);
        long now = clock.instant().getEpochSecond();
        try {
            checkTimes(entry.ticket(), now);
        } catch (TicketException e) {
            verified.forget(token);
            throw e;
        }
        if (known == null) {
            verified.put(token, entry, now);
        }
        return entry.ticket();
    }

    /** How many signatures this codec has checked (a cached ticket's is not checked again); for tests. */
    long signaturesChecked() {
        return signaturesChecked.sum();
    }

    /** Parses the ticket and checks its signature with a key its issuer publishes now. */
    private VerifiedTickets.Entry checkSignature(String token) throws TicketException {
        JWSObject jws;
        try {
            jws = JWSObject.parse(token);
        } catch (ParseException e) {
            throw new TicketException("malformed ticket");
        }
        Ticket ticket;
        try {
            Map<String, Object> c = jws.getPayload().toJSONObject();
            ticket = new Ticket((String) c.get("path"), (String) c.get("pool"), (String) c.get("op"),
                    ((Number) c.get("iat")).longValue(), ((Number) c.get("exp")).longValue(), (String) c.get("sub"),
                    (String) c.get("door"), null, ((Number) c.get("size")).longValue(), ((Number) c.get("mtime")).longValue(),
                    (String) c.get("vo"), strings(c.get(c.containsKey("vo") ? "fqans" : "groups")),
                    CredentialMode.parse((String) c.get("cred")), (String) c.get("credurl"), strings(c.get("peers")),
                    (String) c.get("grant"), token(c), (String) c.get("remote"), (String) c.get("rcred"));
        } catch (RuntimeException e) {
            throw new TicketException("malformed ticket claims");
        }
        String kid = jws.getHeader().getKeyID();
        if (!JWSAlgorithm.EdDSA.equals(jws.getHeader().getAlgorithm()) || kid == null || ticket.door() == null) {
            throw new TicketException("ticket signature invalid (not an EdDSA ticket with a key id)");
        }
        byte[] publicKey = keys.publicKey(ticket.door(), kid);
        if (publicKey == null) {
            throw unpublished(ticket);
        }
        signaturesChecked.increment();
        try {
            if (!jws.verify(new Verifier(publicKey))) {
                throw new TicketException("ticket signature invalid (forged)");
            }
        } catch (JOSEException e) {
            throw new TicketException("ticket signature invalid");
        }
        return new VerifiedTickets.Entry(ticket, kid, publicKey);
    }

    private static TicketException unpublished(Ticket ticket) {
        return new TicketException("ticket signed with a key that " + ticket.door() + " does not publish (unknown or retired key)");
    }

    private void checkTimes(Ticket ticket, long now) throws TicketException {
        if (ticket.expiresAt() - ticket.issuedAt() > maxLifetimeSeconds) {
            throw new TicketException("ticket lifetime exceeds this pool's limit of " + maxLifetimeSeconds + " s");
        }
        if (ticket.issuedAt() > now + SKEW_SECONDS) {
            throw new TicketException("ticket issued in the future: the issuer's clock is wrong");
        }
        if (now >= ticket.expiresAt()) {
            throw new TicketException("ticket expired: ask the door again");
        }
    }

    private static void putToken(Map<String, Object> claims, TokenGrant token) {
        if (token.bearer() != null) {
            claims.put("tkiss", token.bearer().issuer());
            claims.put("tksub", token.bearer().subject());
        }
        if (token.scopes() != null) {
            claims.put("scopes", token.scopes().encode());
        }
        if (!token.caveats().isEmpty()) {
            claims.put("caveats", token.caveats().stream().map(Grants::encode).toList());
        }
        if (token.tokenRef() != null) {
            claims.put("tokref", token.tokenRef());
        }
        if (token.authentication() != null) {
            claims.put("authn", token.authentication());
        }
    }

    private static TokenGrant token(Map<String, Object> c) {
        BearerIdentity bearer = c.containsKey("tkiss") || c.containsKey("tksub")
                ? new BearerIdentity((String) c.get("tkiss"), (String) c.get("tksub")) : null;
        Grants scopes = c.containsKey("scopes") ? Grants.decode(strings(c.get("scopes"))) : null;
        List<Grants> caveats = new ArrayList<>();
        if (c.get("caveats") != null) {
            for (Object one : (List<?>) c.get("caveats")) {
                caveats.add(Grants.decode(strings(one)));
            }
        }
        TokenGrant token = new TokenGrant(bearer, scopes, caveats, (String) c.get("tokref"), (String) c.get("authn"));
        return token.equals(TokenGrant.NONE) ? TokenGrant.NONE : token;
    }

    private static List<String> strings(Object value) {
        if (value == null) {
            return List.of();
        }
        List<String> out = new ArrayList<>();
        for (Object o : (List<?>) value) {
            out.add((String) o);
        }
        return out;
    }

    /**
     * The door's ticket that {@code ticket}, signed by a pool for a peer, rests on: signed by a door, issued to the
     * signing pool for the same path, subject, attributes, credential and token grant, and still valid. Proves that the door let
     * this subject read this path through that pool.
     */
    public Ticket verifyGrant(Ticket ticket) throws TicketException {
        if (!ticket.issuedByPool() || ticket.grant() == null) {
            throw new TicketException(ticket.credential() == CredentialMode.USER
                    ? "a pool's ticket for a file read as the user must carry the door's ticket"
                    : "a pool's ticket for a token's subject must carry the door's ticket");
        }
        String signer = ticket.door().substring(Ticket.POOL_ISSUER.length());
        Ticket grant = verify(ticket.grant(), ticket.path(), signer, ticket.operation());
        if (grant.issuedByPool() || !grant.subject().equals(ticket.subject()) || !grant.fqans().equals(ticket.fqans())
                || grant.credential() != ticket.credential() || !grant.token().equals(ticket.token())) {
            throw new TicketException("a pool's ticket does not match the door's ticket it carries");
        }
        return grant;
    }

    /**
     * Full check for a pool: signature, expiry, then that it was issued for this path, this pool and this operation,
     * and that its token's scopes and caveats, if any, allow that operation on that path. {@code path} is the path as
     * the request names it, decoded but never normalised: a ticket opens exactly the path it names ({@code /f/} is not
     * {@code /f}).
     */
    public Ticket verify(String token, String path, String pool, String operation) throws TicketException {
        Ticket ticket = verify(token);
        if (!path.equals(ticket.path())) {
            throw new TicketException("ticket was issued for another path: it opens exactly " + ticket.path());
        }
        if (!pool.equals(ticket.pool())) {
            throw new TicketException("ticket was issued for another pool");
        }
        if (!operation.equals(ticket.operation())) {
            throw new TicketException("ticket does not allow " + operation);
        }
        checkBounds(ticket);
        return ticket;
    }

    /**
     * Refuses a ticket whose token's scopes or caveats do not allow its operation on its path: the one place pools
     * enforce a token's bounds, which they get from the ticket, never from the token.
     */
    public static void checkBounds(Ticket ticket) throws TicketException {
        TokenGrant token = ticket.token();
        if (!token.bounds()) {
            return;
        }
        Activity activity = ticket.activity();
        if (activity == null) {
            throw new TicketException("a token's ticket cannot allow " + ticket.operation());
        }
        if (!token.allows(activity, ticket.path())) {
            throw new TicketException("the token's " + (token.scopes() != null && !token.scopes().allows(activity, ticket.path())
                    ? "scopes do" : "caveats do") + " not allow " + activity.id() + " of " + ticket.path());
        }
    }

    /** EdDSA with BouncyCastle's Ed25519 (nimbus' own needs Google Tink, which gridcache does not ship). */
    private static final class Signer implements JWSSigner {
        private final TicketSigningKey key;

        Signer(TicketSigningKey key) {
            this.key = key;
        }

        @Override
        public Base64URL sign(JWSHeader header, byte[] signingInput) {
            return Base64URL.encode(key.sign(signingInput));
        }

        @Override
        public Set<JWSAlgorithm> supportedJWSAlgorithms() {
            return Set.of(JWSAlgorithm.EdDSA);
        }

        @Override
        public JCAContext getJCAContext() {
            return new JCAContext();
        }
    }

    private static final class Verifier implements JWSVerifier {
        private final byte[] publicKey;

        Verifier(byte[] publicKey) {
            this.publicKey = publicKey;
        }

        @Override
        public boolean verify(JWSHeader header, byte[] signingInput, Base64URL signature) {
            byte[] sig = signature.decode();
            return sig.length == Ed25519.SIGNATURE_SIZE
                    && Ed25519.verify(sig, 0, publicKey, 0, signingInput, 0, signingInput.length);
        }

        @Override
        public Set<JWSAlgorithm> supportedJWSAlgorithms() {
            return Set.of(JWSAlgorithm.EdDSA);
        }

        @Override
        public JCAContext getJCAContext() {
            return new JCAContext();
        }
    }
}
