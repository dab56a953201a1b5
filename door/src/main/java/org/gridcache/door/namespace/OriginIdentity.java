package org.gridcache.door.namespace;

import eu.emi.security.authn.x509.X509Credential;
import java.time.Instant;
import java.util.Objects;

/**
 * Who the door is towards an origin for one request: itself ({@link #DOOR}: its host certificate with TLS, the same
 * for every user), a user's delegation (that credential, for origins mounted {@code --credential user}), or a user's
 * bearer token (sent as {@code Authorization: Bearer}, for origins mounted {@code --credential token}; keyed by the
 * token's SHA-256 and expiry, so no two tokens share an answer). What an
 * origin answers depends on who asks, so this is also the key of the door's listing cache and the tag of its HTTP
 * connections: answers and connections made for one identity are never used for another. Equal when the key is
 * equal; never printed with the credential.
 */
public final class OriginIdentity {
    public static final OriginIdentity DOOR = new OriginIdentity("door", null, null, null);
    private final String key;
    private final String delegationId;
    private final X509Credential credential;
    private final String bearerToken;

    private OriginIdentity(String key, String delegationId, X509Credential credential, String bearerToken) {
        this.key = key;
        this.delegationId = delegationId;
        this.credential = credential;
        this.bearerToken = bearerToken;
    }

    /**
     * The bearer token whose SHA-256 is {@code ref}, of the subject named {@code name}, lasting until {@code expiry}:
     * the key names the hash and expiry only, never the token.
     */
    public static OriginIdentity token(String ref, String name, Instant expiry, String bearerToken) {
        return new OriginIdentity("token " + ref + " of " + name + " until " + expiry.toEpochMilli(), null, null,
                Objects.requireNonNull(bearerToken));
    }

    /**
     * The delegation {@code id} of {@code dn}, lasting until {@code notAfter}: a renewed delegation (same id, new
     * chain) is another identity, so nothing made with the old chain is reused.
     */
    public static OriginIdentity delegation(String dn, String id, Instant notAfter, X509Credential credential) {
        return new OriginIdentity("delegation " + id + " of " + dn + " until " + notAfter.toEpochMilli(), id,
                Objects.requireNonNull(credential), null);
    }

    /** The cache key: a DN, id and time never hold a line break. */
    public String key() {
        return key;
    }

    public boolean delegated() {
        return credential != null;
    }

    /** Whether the origin judges a user here (a delegation or a bearer token), not the door: whom a refusal names. */
    public boolean actsAsUser() {
        return credential != null || bearerToken != null;
    }

    /** The user's bearer token for a token origin (null otherwise): for the {@code Authorization} header only. */
    public String bearerToken() {
        return bearerToken;
    }

    /** The delegation id (null for {@link #DOOR}). */
    public String delegationId() {
        return delegationId;
    }

    /** The user's delegated credential (null for {@link #DOOR}). */
    public X509Credential credential() {
        return credential;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof OriginIdentity other && key.equals(other.key);
    }

    @Override
    public int hashCode() {
        return key.hashCode();
    }

    @Override
    public String toString() {
        return key;
    }
}
