package org.gridcache.common;

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
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.bouncycastle.math.ec.rfc8032.Ed25519;

/**
 * Signs and verifies tickets as compact JWS (EdDSA over Ed25519, nimbus-jose-jwt; {@code kid} in the header). A node
 * signs with its own {@link TicketSigningKey} and verifies with the public keys it trusts ({@link TicketKeys}), only
 * a key of the issuer the ticket names. Verification checks signature, lifetime, expiry, path, pool and operation,
 * in that order, and names the first failure.
 *
 * <p>The claims name no origin URL, host or delegation: a client can read them (a JWS is signed, not encrypted), and
 * a pool resolves the origin from the mount table by path. The verifier caps a ticket's lifetime ({@code exp - iat})
 * itself, whatever the issuer configured.
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
        }
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
        if (ticket.issuedByPool() && ticket.needsUserCredential() && ticket.grant() != null) {
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

    /** Parses and checks the signature, the lifetime cap and expiry only. */
    public Ticket verify(String token) throws TicketException {
        if (token == null || token.isEmpty()) {
            throw new TicketException("missing ticket: read through the door, which redirects with one");
        }
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
                    (String) c.get("vo"), strings(c.get("fqans")), CredentialMode.parse((String) c.get("cred")),
                    (String) c.get("credurl"), strings(c.get("peers")), (String) c.get("grant"),
                    (String) c.get("remote"), (String) c.get("rcred"));
        } catch (RuntimeException e) {
            throw new TicketException("malformed ticket claims");
        }
        String kid = jws.getHeader().getKeyID();
        if (!JWSAlgorithm.EdDSA.equals(jws.getHeader().getAlgorithm()) || kid == null || ticket.door() == null) {
            throw new TicketException("ticket signature invalid (not an EdDSA ticket with a key id)");
        }
        byte[] publicKey = keys.publicKey(ticket.door(), kid);
        if (publicKey == null) {
            throw new TicketException("ticket signed with a key that " + ticket.door() + " does not publish (unknown or retired key)");
        }
        try {
            if (!jws.verify(new Verifier(publicKey))) {
                throw new TicketException("ticket signature invalid (forged)");
            }
        } catch (JOSEException e) {
            throw new TicketException("ticket signature invalid");
        }
        if (ticket.expiresAt() - ticket.issuedAt() > maxLifetimeSeconds) {
            throw new TicketException("ticket lifetime exceeds this pool's limit of " + maxLifetimeSeconds + " s");
        }
        long now = clock.instant().getEpochSecond();
        if (ticket.issuedAt() > now + SKEW_SECONDS) {
            throw new TicketException("ticket issued in the future: the issuer's clock is wrong");
        }
        if (now >= ticket.expiresAt()) {
            throw new TicketException("ticket expired: ask the door again");
        }
        return ticket;
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
     * signing pool for the same path, subject, attributes and credential, and still valid. Proves that the door let
     * this subject read this path through that pool.
     */
    public Ticket verifyGrant(Ticket ticket) throws TicketException {
        if (!ticket.issuedByPool() || ticket.grant() == null) {
            throw new TicketException("a pool's ticket for a file read as the user must carry the door's ticket");
        }
        String signer = ticket.door().substring(Ticket.POOL_ISSUER.length());
        Ticket grant = verify(ticket.grant(), ticket.path(), signer, ticket.operation());
        if (grant.issuedByPool() || !grant.subject().equals(ticket.subject()) || !grant.fqans().equals(ticket.fqans())
                || grant.credential() != ticket.credential()) {
            throw new TicketException("a pool's ticket does not match the door's ticket it carries");
        }
        return grant;
    }

    /** Full check for a pool: signature, expiry, then that it was issued for this path, this pool and this operation. */
    public Ticket verify(String token, String path, String pool, String operation) throws TicketException {
        Ticket ticket = verify(token);
        if (!path.equals(ticket.path())) {
            throw new TicketException("ticket was issued for another path");
        }
        if (!pool.equals(ticket.pool())) {
            throw new TicketException("ticket was issued for another pool");
        }
        if (!operation.equals(ticket.operation())) {
            throw new TicketException("ticket does not allow " + operation);
        }
        return ticket;
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
