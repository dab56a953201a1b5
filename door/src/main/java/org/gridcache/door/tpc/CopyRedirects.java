package org.gridcache.door.tpc;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;
import java.util.function.Supplier;
import org.gridcache.common.settings.ClusterSettings;
import org.gridcache.common.settings.ClusterSettings.Keys;
import org.gridcache.common.origin.CredentialMode;
import org.gridcache.common.origin.OriginEntry;
import org.gridcache.common.cluster.PoolRecord;
import org.gridcache.common.ticket.Ticket;
import org.gridcache.common.security.GridSubject;
import org.gridcache.common.authz.Activity;
import org.gridcache.door.auth.AccessCheck;
import org.gridcache.door.auth.AuthzPolicy;
import org.gridcache.door.exchange.DoorException;
import org.gridcache.door.namespace.Namespace;
import org.gridcache.door.namespace.NamespaceEntry;
import org.gridcache.door.read.FileReads;
import org.gridcache.door.read.TicketIssuer;
import org.gridcache.door.select.PoolSelector;
import org.gridcache.door.write.DoorWrites;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The door's part of an HTTP third-party copy: it checks the copy as the write (pull) or read (push) it is, and
 * answers 307 to the pool that does it, with a ticket ({@link Ticket#TPC_PULL} or {@link Ticket#TPC_PUSH}) binding
 * the path, the remote URL and what the pool presents to the remote. The client (gfal2, davix, curl -L) repeats its
 * COPY there and reads the performance markers from the pool. Pull: the pool like a PUT's (an enabled pool the policy
 * ranks first); push: the pool the policy ranks first for the path, so that affinity sends it where the file likely
 * is. Only an authenticated subject may ask (401), and never for a remote written as an address in an internal range
 * that {@code tpc.allowed-hosts} does not list (403; a name is resolved and checked by the pool when it connects).
 * {@code Credential: gridsite} needs a delegation of the session: without one the answer is 401 with
 * {@code X-Delegate-To}, on which davix delegates and repeats the COPY.
 */
public final class CopyRedirects implements DoorWrites.ThirdPartyCopies {
    private static final Logger LOG = LoggerFactory.getLogger(CopyRedirects.class);
    /** The header davix sends with every COPY (its stream count): a client that delegates and follows a redirect. */
    static final String DAVIX_STREAMS = "X-Number-Of-Streams";
    private final Namespace namespace;
    private final Supplier<AuthzPolicy> policy;
    private final Supplier<List<PoolRecord>> pools;
    private final Supplier<PoolSelector> selector;
    private final TicketIssuer tickets;
    private final Supplier<ClusterSettings> settings;
    private final FileReads.Delegations delegations;

    public CopyRedirects(Namespace namespace, Supplier<AuthzPolicy> policy, Supplier<List<PoolRecord>> pools, Supplier<PoolSelector> selector,
                         TicketIssuer tickets, Supplier<ClusterSettings> settings, FileReads.Delegations delegations) {
        this.namespace = namespace;
        this.policy = policy;
        this.pools = pools;
        this.selector = selector;
        this.tickets = tickets;
        this.settings = settings;
        this.delegations = delegations;
    }

    @Override
    public boolean takes(HttpServletRequest request) {
        return CopyRequest.isThirdParty(request);
    }

    @Override
    public void handle(HttpServletRequest request, HttpServletResponse response, String path, GridSubject subject,
                       DoorWrites writes) throws IOException {
        if (subject.anonymous()) {
            // the pool acts at a remote the client names: only for someone the door knows, as a write or read is
            throw new DoorException(401, "authentication required: a third-party copy needs an X.509 certificate, a proxy "
                    + "or a bearer token");
        }
        CopyRequest copy = CopyRequest.of(request, subject);
        copy.requireReachable(settings.get().get(Keys.TPC_ALLOWED_HOSTS));
        OriginEntry origin;
        long size = -1;
        long mtime = -1;
        if (copy.kind() == CopyRequest.Kind.PULL) {
            origin = writes.requirePuttable(request, subject, path);
        } else {
            AccessCheck.require(policy.get(), subject, path, Activity.DOWNLOAD);
            NamespaceEntry entry = namespace.stat(subject, path);
            if (entry.collection()) {
                throw new DoorException(403, path + " is a collection: a third-party copy sends files only");
            }
            origin = namespace.originOf(path).orElseThrow(() -> DoorException.notFound(path));
            size = entry.size();
            mtime = entry.mtimeSeconds();
        }
        if (Ticket.REMOTE_GRIDSITE.equals(copy.credential()) || origin.credentialMode() == CredentialMode.USER) {
            requireDelegation(request, subject, copy);
        }
        PoolRecord pool = choose(path, copy.kind()).orElseThrow(() -> new DoorException(503,
                "no pool available for a third-party copy of " + path));
        String location = tickets.copyUrl(pool, origin, copy.kind() == CopyRequest.Kind.PULL ? Ticket.TPC_PULL : Ticket.TPC_PUSH,
                path, size, mtime, subject, settings.get().get(Keys.TICKET_LIFETIME), delegations.credentialEndpoint(),
                copy.remote(), copy.credential());
        if (copy.kind() == CopyRequest.Kind.PULL) {
            writes.writingElsewhere(path); // the pools drop their copies before the pulling pool keeps the new one
        }
        response.setStatus(307); // 307 keeps the method: the client repeats its COPY at the pool
        response.setHeader("Location", location);
        response.setHeader("Cache-Control", "no-store");
        response.setContentLength(0);
        LOG.info("COPY {} by {}: third-party {} {} (credential {}) -> 307 to pool {}", path, subject,
                copy.kind() == CopyRequest.Kind.PULL ? "pull from" : "push to", hostOf(copy.remote()), copy.credential(), pool.id());
    }

    /**
     * Unless the session has a delegation the pool can be given a proxy of: 401 with {@code X-Delegate-To}, the
     * delegation endpoint at the host and port the client reached (its certificate names that host). davix (gfal2,
     * FTS) delegates on that header but repeats the COPY only when sent back with a redirect, as dCache does: a client
     * that sends {@code X-Number-Of-Streams}, which davix adds to every COPY, gets 307 to the same URL instead.
     */
    private void requireDelegation(HttpServletRequest request, GridSubject subject, CopyRequest copy) {
        if (delegations.delegationEndpoint() == null) {
            throw new DoorException(400, "Credential " + copy.credential() + " needs an HTTPS door with delegation: use Credential: none");
        }
        if (!subject.anonymous() && !subject.mayActWithDelegation()) {
            throw DoorException.delegationNotGranted(subject, "this third-party copy");
        }
        if (!subject.anonymous() && delegations.delegationOf(subject).isPresent()) {
            return;
        }
        String endpoint = request.getScheme() + "://" + request.getServerName() + ":" + request.getServerPort()
                + org.gridcache.door.delegation.DelegationService.PATH;
        String reason = "this third-party copy acts with your credential: delegate a proxy to " + endpoint + " first";
        if (request.getHeader(DAVIX_STREAMS) != null && !subject.anonymous()) {
            throw new DoorException(307, reason, Map.of(DoorException.DELEGATE_TO, endpoint, "Location",
                    request.getRequestURL().toString()));
        }
        throw new DoorException(401, reason, Map.of(DoorException.DELEGATE_TO, endpoint));
    }

    /** Pull: an enabled pool (it writes); push: the policy's first choice that is not draining. */
    private java.util.Optional<PoolRecord> choose(String path, CopyRequest.Kind kind) {
        Predicate<PoolRecord> usable = kind == CopyRequest.Kind.PULL ? p -> !p.readOnly() && !p.draining() : p -> !p.draining();
        List<PoolSelector.Choice> ranked = selector.get().rank(path, pools.get(), 4);
        return ranked.stream().map(PoolSelector.Choice::pool).filter(usable).findFirst();
    }

    /** The remote's scheme, host and port, for the log (never its path's query, which may hold a token). */
    private static String hostOf(String remote) {
        java.net.URI uri = java.net.URI.create(remote);
        return uri.getScheme() + "://" + uri.getHost() + (uri.getPort() >= 0 ? ":" + uri.getPort() : "");
    }
}
