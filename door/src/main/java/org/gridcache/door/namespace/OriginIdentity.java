package org.gridcache.door.namespace;

import eu.emi.security.authn.x509.X509Credential;
import java.time.Instant;
import java.util.Objects;

/**
 * Who the door is towards an origin for one request: itself ({@link #DOOR}: its host certificate with TLS, the same
 * for every user), or a user's delegation (that credential, for origins mounted {@code --credential user}). What an
 * origin answers depends on who asks, so this is also the key of the door's listing cache and the tag of its HTTP
 * connections: answers and connections made for one identity are never used for another. Equal when the key is
 * equal; never printed with the credential.
 */
public final class OriginIdentity {
    public static final OriginIdentity DOOR = new OriginIdentity("door", null, null);
    private final String key;
    private final String delegationId;
    private final X509Credential credential;

    private OriginIdentity(String key, String delegationId, X509Credential credential) {
        this.key = key;
        this.delegationId = delegationId;
        this.credential = credential;
    }

    /**
     * The delegation {@code id} of {@code dn}, lasting until {@code notAfter}: a renewed delegation (same id, new
     * chain) is another identity, so nothing made with the old chain is reused.
     */
    public static OriginIdentity delegation(String dn, String id, Instant notAfter, X509Credential credential) {
        return new OriginIdentity("delegation " + id + " of " + dn + " until " + notAfter.toEpochMilli(), id,
                Objects.requireNonNull(credential));
    }

    /** The cache key: a DN, id and time never hold a line break. */
    public String key() {
        return key;
    }

    public boolean delegated() {
        return credential != null;
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
