package org.gridcache.common;

import java.util.List;

/**
 * What a door grants a client for one file on one pool until {@code expiresAt} (epoch seconds). Reusable until it
 * expires, so range retries and seeking work (dCache #8078). {@code originUrl}, {@code size} and {@code mtime} are
 * what the door resolved, so the pool fetches exactly that object and can tell a stale copy (-1 = unknown).
 *
 * <p>The subject travels with it: {@code subject} is the client's DN ("anonymous" without one), {@code vo} and
 * {@code fqans} its VOMS attributes, so pools can log who reads and re-check permission per subject.
 * {@code credential} is how the pool authenticates to the origin ({@link OriginEntry#CREDENTIAL_NONE},
 * {@code _USER} or {@code _SERVICE}); for "user", {@code delegationId} names the client's delegated credential and
 * {@code credentialUrl} the issuing door's endpoint that hands it out, to admitted pools only, against this ticket.
 */
public record Ticket(String path, String pool, String operation, long expiresAt, String subject, String door,
                     String originUrl, long size, long mtime, String vo, List<String> fqans, String credential,
                     String delegationId, String credentialUrl) {

    public static final String QUERY_PARAMETER = "gridcache-ticket";
    public static final String READ = "read";

    public Ticket {
        fqans = fqans == null ? List.of() : List.copyOf(fqans);
        credential = credential == null ? OriginEntry.CREDENTIAL_NONE : credential;
    }

    /** A ticket of an anonymous-era door: no VOMS attributes, no origin credential. */
    public Ticket(String path, String pool, String operation, long expiresAt, String subject, String door,
                  String originUrl, long size, long mtime) {
        this(path, pool, operation, expiresAt, subject, door, originUrl, size, mtime, null, List.of(),
                OriginEntry.CREDENTIAL_NONE, null, null);
    }

    public boolean needsUserCredential() {
        return OriginEntry.CREDENTIAL_USER.equals(credential);
    }
}
