package org.gridcache.common.ticket;

import org.gridcache.common.origin.CredentialMode;
import java.util.List;
import org.gridcache.common.authz.Activity;
import org.gridcache.common.authz.TokenGrant;

/**
 * What a door grants a client for one file on one pool from {@code issuedAt} until {@code expiresAt} (epoch seconds).
 * Reusable until it expires, so range retries and seeking work (dCache #8078). {@code size} and {@code mtime} are
 * what the door resolved, so the pool can tell a stale copy (-1 = unknown).
 *
 * <p>The subject travels with it: {@code subject} is the client's DN ("anonymous" without one), {@code vo} and
 * {@code fqans} its VOMS attributes, so pools can log who reads and re-check permission per subject.
 * {@code door} is the issuer: a door's id, or {@code pool:<name>} for the tickets a pool gives its peers.
 * {@code credential} is how the pool authenticates to the origin; for {@link CredentialMode#USER},
 * {@code credentialUrl} is the issuing door's endpoint that hands out a proxy of the subject's delegation, to the
 * ticket's pool only, against this ticket.
 *
 * <p>{@code originUrl} is not a claim (clients read tickets): the pool resolves it from the mount table by path
 * ({@link #withOrigin}); it is null in a ticket as decoded.
 *
 * <p>{@code grant}: in a ticket a pool signed for a peer, the door's ticket (as signed) that the pool itself was
 * given for this read; with it the peer can tell that the door let this subject read this path through that pool,
 * which a pool's own signature cannot say. In a door's ticket as a pool verified it, the ticket's own signed form
 * ({@link #withGrant}), so that {@link #forPool} passes it on; never a claim of a door's ticket.
 *
 * <p>{@code token}: what the subject's bearer token granted (identity, scopes, caveats) and, for an origin mounted
 * {@code --credential token}, the reference under which the issuing door hands the token itself to the ticket's pool
 * ({@link TokenGrant}); {@link TokenGrant#NONE} for an X.509 or anonymous subject. A pool enforces its bounds
 * ({@link TicketCodec#verify(String, String, String, String)}) and passes them on unchanged to its peers.
 *
 * <p>{@code remote} and {@code remoteCredential}: in a third-party copy's ticket ({@link #TPC_PULL}, {@link #TPC_PUSH})
 * the other side's URL, so a stolen ticket cannot be aimed elsewhere, and what the pool presents to it
 * ({@link #REMOTE_NONE} or {@link #REMOTE_GRIDSITE}: the user's proxy from {@code credentialUrl}); null otherwise.
 */
public record Ticket(String path, String pool, String operation, long issuedAt, long expiresAt, String subject, String door,
                     String originUrl, long size, long mtime, String vo, List<String> fqans, CredentialMode credential,
                     String credentialUrl, List<String> peers, String grant, TokenGrant token, String remote,
                     String remoteCredential) {

    public static final String QUERY_PARAMETER = "gridcache-ticket";
    public static final String READ = "read";
    /**
     * A PUT of one file through the ticket's pool (issue 12): only a door signs one, a pool never passes one on, and
     * {@code size} is the length the client announced.
     */
    public static final String WRITE = "write";
    /** A third-party copy into the ticket's path from {@link #remote()} (HTTP-TPC pull): a write, signed by a door only. */
    public static final String TPC_PULL = "tpc-pull";
    /** A third-party copy of the ticket's path to {@link #remote()} (HTTP-TPC push): a read, signed by a door only. */
    public static final String TPC_PUSH = "tpc-push";
    /** {@link #remoteCredential()}: the pool presents nothing of the user's to the remote side. */
    public static final String REMOTE_NONE = "none";
    /** {@link #remoteCredential()}: the pool presents a proxy of the user's delegation to the remote side. */
    public static final String REMOTE_GRIDSITE = "gridsite";
    /** The prefix of {@link #door()} in the tickets a pool signs for its peers. */
    public static final String POOL_ISSUER = "pool:";
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
        token = token == null ? TokenGrant.NONE : token;
    }

    /** A ticket that is not a third-party copy's. */
    public Ticket(String path, String pool, String operation, long issuedAt, long expiresAt, String subject, String door,
                  String originUrl, long size, long mtime, String vo, List<String> fqans, CredentialMode credential,
                  String credentialUrl, List<String> peers, String grant, TokenGrant token) {
        this(path, pool, operation, issuedAt, expiresAt, subject, door, originUrl, size, mtime, vo, fqans, credential,
                credentialUrl, peers, grant, token, null, null);
    }

    /** A door's ticket of a subject without a bearer token, not a third-party copy's. */
    public Ticket(String path, String pool, String operation, long issuedAt, long expiresAt, String subject, String door,
                  String originUrl, long size, long mtime, String vo, List<String> fqans, CredentialMode credential,
                  String credentialUrl, List<String> peers) {
        this(path, pool, operation, issuedAt, expiresAt, subject, door, originUrl, size, mtime, vo, fqans, credential,
                credentialUrl, peers, null, TokenGrant.NONE, null, null);
    }

    /** A ticket of an anonymous subject issued now for an origin read without credential, with no peers. */
    public Ticket(String path, String pool, String operation, long expiresAt, String subject, String door,
                  String originUrl, long size, long mtime) {
        this(path, pool, operation, Math.min(expiresAt, java.time.Instant.now().getEpochSecond()), expiresAt, subject,
                door, originUrl, size, mtime, null, List.of(), CredentialMode.NONE, null, List.of());
    }

    /** This ticket naming {@code peers} to consult on a miss. */
    public Ticket withPeers(List<String> peers) {
        return new Ticket(path, pool, operation, issuedAt, expiresAt, subject, door, originUrl, size, mtime, vo, fqans,
                credential, credentialUrl, peers, grant, token, remote, remoteCredential);
    }

    /** This ticket with the origin URL the pool resolved for its path. */
    public Ticket withOrigin(String url) {
        return new Ticket(path, pool, operation, issuedAt, expiresAt, subject, door, url, size, mtime, vo, fqans,
                credential, credentialUrl, peers, grant, token, remote, remoteCredential);
    }

    /** This ticket carrying {@code signed}, the door's ticket it rests on (see {@link #grant()}). */
    public Ticket withGrant(String signed) {
        return new Ticket(path, pool, operation, issuedAt, expiresAt, subject, door, originUrl, size, mtime, vo, fqans,
                credential, credentialUrl, peers, signed, token, remote, remoteCredential);
    }

    /**
     * The same grant, for the same subject and credential, to another pool, issued now by pool {@code self} for
     * {@code seconds}, naming no peers, resting on the door's ticket this one came in ({@link #grant()}).
     */
    public Ticket forPool(String otherPool, String self, long now, long seconds) {
        return new Ticket(path, otherPool, operation, now, now + seconds, subject, POOL_ISSUER + self, null, size, mtime,
                vo, fqans, credential, credentialUrl, List.of(), grant, token);
    }

    /** This ticket carrying what the subject's bearer token granted. */
    public Ticket withToken(TokenGrant grant) {
        return new Ticket(path, pool, operation, issuedAt, expiresAt, subject, door, originUrl, size, mtime, vo, fqans,
                credential, credentialUrl, peers, this.grant, grant, remote, remoteCredential);
    }

    /**
     * What the ticket's operation does to its path, in the words of token scopes and caveats: a read or a third-party
     * push downloads, a write or a third-party pull uploads; null for an operation that has no such word yet (a bounded ticket for it is refused).
     */
    public Activity activity() {
        return switch (operation == null ? "" : operation) {
            case READ, TPC_PUSH -> Activity.DOWNLOAD;
            case WRITE, TPC_PULL -> Activity.UPLOAD;
            default -> null;
        };
    }

    /** True for a ticket a pool signed for a peer: it admits peer questions and pulls only. */
    public boolean issuedByPool() {
        return door != null && door.startsWith(POOL_ISSUER);
    }

    /** True for a third-party copy's ticket ({@link #TPC_PULL} or {@link #TPC_PUSH}). */
    public boolean thirdPartyCopy() {
        return TPC_PULL.equals(operation) || TPC_PUSH.equals(operation);
    }

    /** True when the pool presents the user's proxy to a third-party copy's remote side. */
    public boolean presentsUserProxyToRemote() {
        return REMOTE_GRIDSITE.equals(remoteCredential);
    }

    /**
     * True when the pool must obtain something of the user's from the issuing door before reaching the origin: a proxy
     * of the user's delegation ({@link CredentialMode#USER}) or the user's bearer token ({@link CredentialMode#TOKEN}).
     */
    public boolean needsUserCredential() {
        return credential == CredentialMode.USER || credential == CredentialMode.TOKEN;
    }

    /**
     * Whether a pool's ticket for a peer must carry the door's ticket it rests on ({@link #grant()}): when the
     * subject's credential is the user's (a proxy or a token), or when a bearer token bounds or names the subject, so
     * that the peer can tell that the pool neither widened nor dropped what the door granted.
     */
    public boolean needsDoorGrant() {
        return needsUserCredential() || !token.isEmpty() || (subject != null && subject.startsWith(TOKEN_SUBJECT));
    }

    /**
     * How the subject authenticated, for transfer records and log lines: what the door recorded of a bearer token or
     * macaroon ({@code token <iss> <id>}, {@code macaroon <id>}), else {@code x509} for a DN, {@code anonymous}.
     */
    public String authentication() {
        if (token.authentication() != null) {
            return token.authentication();
        }
        if (subject == null || subject.equals(org.gridcache.common.security.GridSubject.ANONYMOUS_NAME)) {
            return org.gridcache.common.security.Authentication.NONE_METHOD;
        }
        return subject.startsWith(TOKEN_SUBJECT) ? org.gridcache.common.security.Authentication.TOKEN
                : org.gridcache.common.security.Authentication.X509;
    }

    /** The subject for a log line: its name, and how it authenticated unless anonymously. */
    public String who() {
        String how = authentication();
        return how.equals(org.gridcache.common.security.Authentication.NONE_METHOD) ? String.valueOf(subject) : subject + " via " + how;
    }

    /** How a bearer token's subject is named ({@code token:<sub>@<iss>}, {@code BearerIdentity.name()}). */
    private static final String TOKEN_SUBJECT = "token:";

    /** True when a missing pool should ask all its peers and redirect (policy {@code random}). */
    public boolean asksAllPeers() {
        return peers.size() == 1 && peers.get(0).equals(ALL_PEERS);
    }
}
