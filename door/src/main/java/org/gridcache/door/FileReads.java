package org.gridcache.door;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;
import java.util.regex.Pattern;
import org.gridcache.common.ClusterSettings;
import org.gridcache.common.OriginEntry;
import org.gridcache.common.PoolRecord;
import org.gridcache.common.security.GridSubject;
import org.gridcache.zk.PoolDirectory;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * GET and HEAD on a file. HEAD is answered by the door from the origin's metadata. GET picks a pool and either
 * redirects the client there with a ticket (302), or, for clients that cannot follow redirects and when the cluster
 * says {@code redirect.on-read=false}, streams the pool's answer itself.
 */
final class FileReads {
    private static final Logger LOG = LoggerFactory.getLogger(FileReads.class);
    private final PoolDirectory pools;
    private final PoolSelector selector;
    private final TicketIssuer tickets;
    private final PoolProxy proxy;
    private final Supplier<ClusterSettings> settings;
    private final Delegations delegations;
    private final DoorStats stats;

    /** Where the door keeps delegated credentials: finds a subject's, names the endpoint to delegate to. */
    interface Delegations {
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

    FileReads(PoolDirectory pools, PoolSelector selector, TicketIssuer tickets, PoolProxy proxy, Supplier<ClusterSettings> settings,
              DoorStats stats, Delegations delegations) {
        this.stats = stats;
        this.pools = pools;
        this.selector = selector;
        this.tickets = tickets;
        this.proxy = proxy;
        this.settings = settings;
        this.delegations = delegations;
    }

    void head(NamespaceEntry file, HttpServletResponse response) {
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

    void get(HttpServletRequest request, HttpServletResponse response, OriginEntry origin, NamespaceEntry file, GridSubject subject)
            throws IOException {
        ClusterSettings now = settings.get();
        String delegationId = null;
        if (OriginEntry.CREDENTIAL_USER.equals(origin.credentialMode())) {
            delegationId = requireDelegation(subject, origin);
        }
        PoolRecord pool = selector.choose(file.path(), pools.selectable()).orElseThrow(this::noPool);
        String location = tickets.poolUrl(pool, origin, file, subject, now.ticketLifetime(), delegationId,
                delegations.credentialEndpoint());
        if (mustProxy(request, now)) {
            proxy.stream(request, response, pool, location, file.path(), subject);
            return;
        }
        stats.redirect();
        response.setStatus(302);
        response.setHeader("Location", location);
        response.setHeader("Cache-Control", "no-store"); // the ticket in the Location expires soon
        Replies.text(response, 302, "redirecting to pool " + pool.id());
        LOG.debug("GET {} for {} -> pool {}", file.path(), subject, pool.id());
    }

    /** The subject's delegation id, or a 401 telling where to delegate (as dCache does for third-party copy). */
    private String requireDelegation(GridSubject subject, OriginEntry origin) {
        String endpoint = delegations.delegationEndpoint();
        if (endpoint == null) {
            throw new DoorException(403, "origin " + origin.name() + " is read with the user's credential, which this door cannot take (no TLS)");
        }
        Optional<String> id = subject.anonymous() ? Optional.empty() : delegations.delegationOf(subject.dn());
        return id.orElseThrow(() -> new DoorException(401,
                "origin " + origin.name() + " is read with your own credential: delegate a proxy to " + endpoint + " first",
                Map.of("X-Delegate-To", endpoint)));
    }

    private DoorException noPool() {
        int live = pools.live().size();
        return new DoorException(503, live == 0 ? "no pool available"
                : "no pool available: all " + live + " pools are drained for maintenance");
    }

    private boolean mustProxy(HttpServletRequest request, ClusterSettings settings) {
        if (!settings.redirectOnRead()) {
            return true;
        }
        String agent = request.getHeader("User-Agent");
        if (agent == null) {
            return false;
        }
        for (Pattern p : settings.proxyUserAgents()) {
            if (p.matcher(agent).find()) {
                return true;
            }
        }
        return false;
    }
}
