package org.gridcache.door.delegation;

import eu.emi.security.authn.x509.X509Credential;
import java.time.Instant;
import java.util.List;

/**
 * A credential a user delegated to the door, kept per (DN, delegation id). {@code fqans} are the VOMS attributes its
 * chain carries (primary first; none for a plain proxy): what an origin sees when the door or a pool presents it, so
 * a delegation serves only sessions that presented the same ones (GridSite's delegation id hashes DN and VOMS
 * attributes for the same reason). {@code notAfter} is when the door forgets it: when its chain expires, or earlier
 * when that is beyond the door's maximum delegation lifetime.
 */
public record Delegation(String dn, String id, List<String> fqans, X509Credential credential, Instant notAfter) {

    public Delegation {
        fqans = fqans == null ? List.of() : List.copyOf(fqans);
    }

    /** Never print the credential. */
    @Override
    public String toString() {
        return "delegation " + id + " of " + dn + (fqans.isEmpty() ? "" : " (" + String.join(",", fqans) + ")") + " until " + notAfter;
    }

    boolean validAt(Instant now) {
        return notAfter.isAfter(now);
    }

    /**
     * True when a session that presented exactly {@code sessionFqans} (in order: the first is the primary one) may act
     * with this delegation. No subset, no superset: a {@code /cms} session never acts with an {@code /atlas}
     * delegation, a session without VOMS attributes never with one that has them, nor the other way round.
     */
    public boolean servesSession(List<String> sessionFqans) {
        return fqans.equals(sessionFqans == null ? List.of() : sessionFqans);
    }

    /** The one key of (DN, id) in the door's maps and file names: a DN never holds a line break, an id cannot. */
    static String key(String dn, String id) {
        return dn + "\n" + id;
    }
}
