package org.gridcache.door.read;

import jakarta.servlet.http.HttpServletRequest;
import org.gridcache.common.ClusterSettings.Keys;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.util.List;
import java.util.Optional;
import java.util.function.Supplier;
import java.util.regex.Pattern;
import org.gridcache.common.ClusterSettings;
import org.gridcache.common.CredentialMode;
import org.gridcache.common.OriginEntry;
import org.gridcache.common.PoolRecord;
import org.gridcache.common.Ticket;
import org.gridcache.common.security.GridSubject;
import org.gridcache.door.http.DoorException;
import org.gridcache.door.http.Replies;
import org.gridcache.door.namespace.NamespaceEntry;
import org.gridcache.door.ops.DoorStats;
import org.gridcache.door.select.PoolSelector;
import org.gridcache.zk.PoolDirectory;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * GET and HEAD on a file. HEAD is answered by the door from the origin's metadata. GET picks a pool and either
 * redirects the client there with a ticket (302), or, for clients that cannot follow redirects and when the cluster
 * says {@code redirect.on-read=false}, streams the pool's answer itself (ARCHITECTURE.md, "Flows": a read, a proxied
 * read).
 */
public final class FileReads {
    private static final Logger LOG = LoggerFactory.getLogger(FileReads.class);
    private final PoolDirectory pools;
    /** The chosen pool and this many fallbacks at most, in {@code Link: rel="duplicate"} headers. */
    public static final int RANKED = 4;
    private final Supplier<PoolSelector> selector;
    private final TicketIssuer tickets;
    private final PoolProxy proxy;
    private final Supplier<ClusterSettings> settings;
    private final Delegations delegations;
    private final DoorStats stats;

    /** Where the door keeps delegated credentials: finds a subject's, names the endpoint to delegate to. */
    public interface Delegations {
        /** No delegation service (a plain-HTTP door): origins that need the user's credential cannot be read. */
        Delegations NONE = new Delegations() {
            @Override
            public Optional<String> delegationOf(String dn) {
                return Optional.empty();
            }

            @Override
            public String delegationEndpoint() {
                return null;
            }

            @Override
            public String credentialEndpoint() {
                return null;
            }
        };

        /** The id of the subject's valid delegation that lasts longest, if any. */
        Optional<String> delegationOf(String dn);

        String delegationEndpoint();

        String credentialEndpoint();
    }

    /** {@code selector}: the policy in force, asked per request (selection.policy changes live). */
    public FileReads(PoolDirectory pools, Supplier<PoolSelector> selector, TicketIssuer tickets, PoolProxy proxy,
              Supplier<ClusterSettings> settings, DoorStats stats, Delegations delegations) {
        this.stats = stats;
        this.pools = pools;
        this.selector = selector;
        this.tickets = tickets;
        this.proxy = proxy;
        this.settings = settings;
        this.delegations = delegations;
    }

    public void head(NamespaceEntry file, HttpServletResponse response) {
        response.setStatus(200);
        response.setContentType(file.contentType() != null ? file.contentType() : "application/octet-stream");
        if (file.size() >= 0) {
            response.setContentLengthLong(file.size());
        }
        if (file.mtimeMillis() >= 0) {
            response.setDateHeader("Last-Modified", file.mtimeMillis());
        }
        if (file.etag() != null) {
            response.setHeader("ETag", file.etag());
        }
        response.setHeader("Accept-Ranges", "bytes");
    }

    public void get(HttpServletRequest request, HttpServletResponse response, OriginEntry origin, NamespaceEntry file, GridSubject subject)
            throws IOException {
        ClusterSettings now = settings.get();
        String delegationId = origin.credentialMode() == CredentialMode.USER ? requireDelegation(subject, origin) : null;
        String credentialUrl = delegations.credentialEndpoint();
        PoolSelector policy = selector.get();
        List<PoolSelector.Choice> ranked = policy.rank(file.path(), pools.selectable(), RANKED);
        if (ranked.isEmpty()) {
            throw noPool(now);
        }
        PoolRecord pool = ranked.get(0).pool();
        policy.redirected(ranked.get(0));
        if (mustProxy(request, now)) {
            // the door streams what the pool answers: a pool must not answer it with the seed design's redirect
            List<String> peers = ranked.get(0).peers().contains(Ticket.ALL_PEERS) ? List.of() : ranked.get(0).peers();
            proxy.acquire();
            try {
                proxy.stream(request, response, pool, tickets.poolUrl(pool, peers, origin, file, subject, now.get(Keys.TICKET_LIFETIME),
                        delegationId, credentialUrl), file.path(), subject);
            } finally {
                proxy.release();
            }
            return;
        }
        stats.redirect();
        String location = tickets.poolUrl(pool, ranked.get(0).peers(), origin, file, subject, now.get(Keys.TICKET_LIFETIME),
                delegationId, credentialUrl);
        response.setStatus(302);
        response.setHeader("Location", location);
        // Metalink-style fallbacks (RFC 6249, as Pelican's director sends them): pri=1 is the Location itself
        response.addHeader("Link", link(location, 1));
        for (int i = 1; i < ranked.size(); i++) {
            PoolSelector.Choice next = ranked.get(i);
            response.addHeader("Link", link(tickets.poolUrl(next.pool(), next.peers(), origin, file, subject, now.get(Keys.TICKET_LIFETIME),
                    delegationId, credentialUrl), i + 1));
        }
        response.setHeader("Cache-Control", "no-store"); // the ticket in the Location expires soon
        Replies.text(response, 302, "redirecting to pool " + pool.id());
        LOG.debug("GET {} for {} -> pool {}", file.path(), subject, pool.id());
    }

    /** The subject's delegation id, or a 401 telling where to delegate (as dCache does for third-party copy). */
    private String requireDelegation(GridSubject subject, OriginEntry origin) {
        String endpoint = delegations.delegationEndpoint();
        if (endpoint == null) {
            throw DoorException.cannotTakeUserCredential(origin);
        }
        Optional<String> id = subject.anonymous() ? Optional.empty() : delegations.delegationOf(subject.dn());
        return id.orElseThrow(() -> DoorException.delegateFirst(origin, "read", endpoint));
    }

    private DoorException noPool(ClusterSettings now) {
        Optional<java.time.Duration> cut = pools.disconnectedFor();
        if (cut.isPresent()) {
            return new DoorException(503, "no pool available: ZooKeeper unreachable for " + cut.get().toSeconds()
                    + " s, longer than " + Keys.ZK_GRACE.key() + " (" + now.get(Keys.ZK_GRACE).toSeconds() + " s)");
        }
        int live = pools.live().size();
        return new DoorException(503, live == 0 ? "no pool available"
                : "no pool available: all " + live + " pools are drained for maintenance");
    }

    private static String link(String url, int priority) {
        return "<" + url + ">; rel=\"duplicate\"; pri=" + priority;
    }

    private boolean mustProxy(HttpServletRequest request, ClusterSettings settings) {
        if (!settings.get(Keys.REDIRECT_ON_READ)) {
            return true;
        }
        String agent = request.getHeader("User-Agent");
        if (agent == null) {
            return false;
        }
        for (Pattern p : settings.get(Keys.PROXY_USER_AGENTS)) {
            if (p.matcher(agent).find()) {
                return true;
            }
        }
        return false;
    }
}
