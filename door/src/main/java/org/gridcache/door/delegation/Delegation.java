package org.gridcache.door.delegation;

import eu.emi.security.authn.x509.X509Credential;
import java.time.Instant;

/**
 * A credential a user delegated to the door, kept per (DN, delegation id). {@code notAfter} is when the door forgets
 * it: when its chain expires, or earlier when that is beyond the door's maximum delegation lifetime.
 */
public record Delegation(String dn, String id, X509Credential credential, Instant notAfter) {

    /** Never print the credential. */
    @Override
    public String toString() {
        return "delegation " + id + " of " + dn + " until " + notAfter;
    }

    boolean validAt(Instant now) {
        return notAfter.isAfter(now);
    }

    /** The one key of (DN, id) in the door's maps and file names: a DN never holds a line break, an id cannot. */
    static String key(String dn, String id) {
        return dn + "\n" + id;
    }
}
