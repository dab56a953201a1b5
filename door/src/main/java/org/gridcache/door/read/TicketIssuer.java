package org.gridcache.door.read;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import org.gridcache.common.origin.CredentialMode;
import org.gridcache.common.origin.OriginEntry;
import org.gridcache.common.cluster.PoolRecord;
import org.gridcache.common.ticket.Ticket;
import org.gridcache.common.ticket.TicketCodec;
import org.gridcache.common.authz.TokenGrant;
import org.gridcache.common.security.GridSubject;
import org.gridcache.door.namespace.NamespaceEntry;

/**
 * Makes the signed read ticket for one file on one pool and the pool URL that carries it. The ticket binds what the
 * door resolved (size, mtime) so the pool can tell a stale copy, the subject with its VOMS attributes and, for
 * origins read as the user, where the pool obtains a proxy of the subject's delegation. It names no origin URL: the
 * pool resolves that from the mount table by path. A bearer token's subject adds what the token granted
 * ({@link TokenGrant}: identity, scopes, caveats), which the pool enforces, and for an origin mounted
 * {@code --credential token} the vault's reference to the token, which the pool exchanges at the credential endpoint.
 *
 * <p>An Ed25519 signature costs about 30 µs and a redirect carries three tickets (the Location and two fallbacks), so
 * a ticket is signed once and handed out again to the same subject for the same file and pool for a short while
 * ({@link #REUSE}, at most a quarter of its lifetime): a hot file then costs a map look-up per redirect, and every
 * ticket still has at least three quarters of its lifetime left when the client receives it.
 */
public final class TicketIssuer {
    private static final Duration REUSE = Duration.ofSeconds(15);
    private final TicketCodec codec;
    private final String doorId;
    private final Clock clock;
    private final Cache<Grant, Signed> signed = Caffeine.newBuilder().maximumSize(10_000).build();

    /** Everything a ticket says except its times. */
    private record Grant(String pool, String path, List<String> peers, String subject, String vo, List<String> fqans,
                         long size, long mtime, CredentialMode credential, String credentialUrl, long lifetime,
                         TokenGrant token) {
    }

    private record Signed(String token, long issuedAt) {
    }

    public TicketIssuer(TicketCodec codec, String doorId, Clock clock) {
        this.codec = codec;
        this.doorId = doorId;
        this.clock = clock;
    }

    /**
     * {@code peers}: what the pool consults on a miss before the origin (see {@link Ticket#peers()}). For an origin
     * read with the user's credential, the pool obtains it from {@code credentialUrl}.
     */
    String poolUrl(PoolRecord pool, List<String> peers, OriginEntry origin, NamespaceEntry file, GridSubject subject,
                   Duration lifetime, String credentialUrl) {
        CredentialMode mode = origin.credentialMode();
        Grant grant = new Grant(pool.id(), file.path(), peers, subject.name(), subject.vo(), subject.fqans(), file.size(),
                file.mtimeSeconds(), mode, credentialUrlFor(mode, credentialUrl), lifetime.toSeconds(), tokenOf(subject, mode));
        long now = clock.instant().getEpochSecond();
        long reuse = Math.min(REUSE.toSeconds(), lifetime.toSeconds() / 4);
        Signed s = signed.getIfPresent(grant);
        if (s == null || now - s.issuedAt() >= reuse || now < s.issuedAt()) {
            Ticket ticket = new Ticket(grant.path(), grant.pool(), Ticket.READ, now, now + grant.lifetime(), grant.subject(),
                    doorId, null, grant.size(), grant.mtime(), grant.vo(), grant.fqans(), mode, grant.credentialUrl(), peers, null,
                    grant.token());
            s = new Signed(codec.sign(ticket), now);
            signed.put(grant, s);
        }
        return pool.ticketedUrl(file.path(), s.token());
    }

    /**
     * The pool URL for one PUT of {@code length} bytes to {@code path}: a write ticket, signed anew every time (a
     * write is not repeated as reads are) and naming no peers (a pool pulls nothing for a write).
     */
    public String writeUrl(PoolRecord pool, OriginEntry origin, String path, long length, GridSubject subject,
                           Duration lifetime, String credentialUrl) {
        CredentialMode mode = origin.credentialMode();
        long now = clock.instant().getEpochSecond();
        Ticket ticket = new Ticket(path, pool.id(), Ticket.WRITE, now, now + lifetime.toSeconds(), subject.name(), doorId,
                null, length, -1, subject.vo(), subject.fqans(), mode, credentialUrlFor(mode, credentialUrl), List.of(), null,
                tokenOf(subject, mode));
        return pool.ticketedUrl(path, codec.sign(ticket));
    }

    /** Where the pool obtains the user's credential: for origins read as the user or with the user's token. */
    private static String credentialUrlFor(CredentialMode mode, String credentialUrl) {
        return mode == CredentialMode.USER || mode == CredentialMode.TOKEN ? credentialUrl : null;
    }

    /** The subject's token grant, naming the token itself only for a token origin. */
    private static TokenGrant tokenOf(GridSubject subject, CredentialMode mode) {
        return TokenGrant.of(subject, mode == CredentialMode.TOKEN);
    }

    /**
     * The pool URL for one third-party copy ({@link Ticket#TPC_PULL} into {@code path}, {@link Ticket#TPC_PUSH} of it)
     * with {@code remote}, the other side, bound in the ticket: signed anew every time, naming no peers. The credential
     * URL is given when the origin is read or written as the user (a proxy or a token), or when the pool presents the user's proxy to the
     * remote ({@code remoteCredential} {@link Ticket#REMOTE_GRIDSITE}).
     */
    public String copyUrl(PoolRecord pool, OriginEntry origin, String operation, String path, long size, long mtime,
                          GridSubject subject, Duration lifetime, String credentialUrl, String remote, String remoteCredential) {
        CredentialMode mode = origin.credentialMode();
        boolean user = mode == CredentialMode.USER || mode == CredentialMode.TOKEN || Ticket.REMOTE_GRIDSITE.equals(remoteCredential);
        long now = clock.instant().getEpochSecond();
        Ticket ticket = new Ticket(path, pool.id(), operation, now, now + lifetime.toSeconds(), subject.name(), doorId,
                null, size, mtime, subject.vo(), subject.fqans(), mode, user ? credentialUrl : null, List.of(), null,
                tokenOf(subject, mode), remote, remoteCredential);
        return pool.ticketedUrl(path, codec.sign(ticket));
    }
}
