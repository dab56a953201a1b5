package org.gridcache.common;

import java.util.List;

/**
 * What a door grants a client for one file on one pool until {@code expiresAt} (epoch seconds). Reusable until it
 * expires, so range retries and seeking work (dCache #8078). {@code originUrl}, {@code size} and {@code mtime} are
 * what the door resolved, so the pool fetches exactly that object and can tell a stale copy (-1 = unknown).
 *
 * <p>The subject travels with it: {@code subject} is the client's DN ("anonymous" without one), {@code vo} and
 * {@code fqans} its VOMS attributes, so pools can log who reads and re-check permission per subject.
 * {@code credential} is how the pool authenticates to the origin; for {@link CredentialMode#USER}, {@code delegationId} names the client's delegated credential and
 * {@code credentialUrl} the issuing door's endpoint that hands it out, to admitted pools only, against this ticket.
 */
public record Ticket(String path, String pool, String operation, long expiresAt, String subject, String door,
                     String originUrl, long size, long mtime, String vo, List<String> fqans, CredentialMode credential,
                     String delegationId, String credentialUrl, List<String> peers) {

    public static final String QUERY_PARAMETER = "gridcache-ticket";
    public static final String READ = "read";
    /**
     * {@code peers} holding only this: on a miss, ask every live peer and redirect the client to one that holds the
     * file (the seed design, policy {@code random}). Otherwise {@code peers} names, best first, the pools to pull a
     * miss from before the origin (policy {@code affinity}); empty: straight to the origin.
     */
    public static final String ALL_PEERS = "*";

    public Ticket {
        fqans = fqans == null ? List.of() : List.copyOf(fqans);
        credential = credential == null ? CredentialMode.NONE : credential;
        peers = peers == null ? List.of() : List.copyOf(peers);
    }

    /** A ticket of an anonymous subject for an origin read without credential, with no peers. */
    public Ticket(String path, String pool, String operation, long expiresAt, String subject, String door,
                  String originUrl, long size, long mtime) {
        this(path, pool, operation, expiresAt, subject, door, originUrl, size, mtime, null, List.of(),
                CredentialMode.NONE, null, null, List.of());
    }

    /** This ticket naming {@code peers} to consult on a miss. */
    public Ticket withPeers(List<String> peers) {
        return new Ticket(path, pool, operation, expiresAt, subject, door, originUrl, size, mtime, vo, fqans, credential,
                delegationId, credentialUrl, peers);
    }

    /** The same grant, for the same subject and credential, to another pool, issued by {@code issuer}, naming no peers. */
    public Ticket forPool(String otherPool, String issuer, long expires) {
        return new Ticket(path, otherPool, operation, expires, subject, issuer, originUrl, size, mtime, vo, fqans, credential,
                delegationId, credentialUrl, List.of());
    }

    public boolean needsUserCredential() {
        return credential == CredentialMode.USER;
    }

    /** True when a missing pool should ask all its peers and redirect (policy {@code random}). */
    public boolean asksAllPeers() {
        return peers.size() == 1 && peers.get(0).equals(ALL_PEERS);
    }
}
