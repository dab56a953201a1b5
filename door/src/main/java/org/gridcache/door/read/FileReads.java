package org.gridcache.door.read;

import jakarta.servlet.http.HttpServletRequest;
import org.gridcache.common.settings.ClusterSettings.Keys;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;
import java.util.regex.Pattern;
import org.gridcache.common.settings.ClusterSettings;
import org.gridcache.common.origin.CredentialMode;
import org.gridcache.common.origin.OriginEntry;
import org.gridcache.common.cluster.PoolRecord;
import org.gridcache.common.ticket.Ticket;
import org.gridcache.common.checksum.Checksums;
import org.gridcache.common.checksum.DigestRequest;
import org.gridcache.common.security.GridSubject;
import org.gridcache.door.exchange.DoorException;
import org.gridcache.door.exchange.Replies;
import org.gridcache.door.namespace.NamespaceEntry;
import org.gridcache.door.ops.DoorStats;
import org.gridcache.door.select.PoolSelector;
import org.gridcache.zk.PoolDirectory;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * GET and HEAD on a file. HEAD is answered by the door from the origin's metadata; a HEAD that asks for a checksum
 * ({@code Want-Digest}, {@code Want-Repr-Digest}) also asks the pool the policy ranks first for the file, which
 * answers from its sidecar or fills the file once (ARCHITECTURE.md, "Checksums"). GET picks a pool and either
 * redirects the client there with a ticket (302), or, for clients that cannot follow redirects and when the cluster
 * says {@code redirect.on-read=false}, streams the pool's answer itself (ARCHITECTURE.md, "Flows": a read, a proxied
 * read).
 */
public final class FileReads {
    private static final Logger LOG = LoggerFactory.getLogger(FileReads.class);
    private final PoolDirectory pools;
    /** The pools a new read may go to: ZooKeeper's selectable ones less those this door cannot reach. */
    private final Supplier<List<PoolRecord>> selectable;
    /** The chosen pool and this many fallbacks at most, in {@code Link: rel="duplicate"} headers. */
    public static final int RANKED = 4;
    private final Supplier<PoolSelector> selector;
    private final TicketIssuer tickets;
    private final PoolProxy proxy;
    private final Supplier<ClusterSettings> settings;
    private final Delegations delegations;
    private final DoorStats stats;
    private final PoolDigests digests;
    /** How long a HEAD waits for a pool that must first fill the file to know its checksum. */
    static final Duration FILL_TIMEOUT = Duration.ofMinutes(5);
    /** How long a PROPFIND waits for a pool's answer from its index. */
    static final Duration CACHED_TIMEOUT = Duration.ofSeconds(2);

    /** Where the door keeps delegated credentials: finds a subject's, names the endpoint to delegate to. */
    public interface Delegations {
        /** No delegation service (a plain-HTTP door): origins that need the user's credential cannot be read. */
        Delegations NONE = new Delegations() {
            @Override
            public Optional<String> delegationOf(GridSubject subject) {
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

        /**
         * The id of the delegation a request of {@code subject} may act with: same DN, same VOMS attributes as its
         * session, the one that lasts longest; empty if there is none.
         */
        Optional<String> delegationOf(GridSubject subject);

        String delegationEndpoint();

        String credentialEndpoint();
    }

    /** {@code selector}: the policy in force, asked per request (selection.policy changes live). */
    public FileReads(PoolDirectory pools, Supplier<List<PoolRecord>> selectable, Supplier<PoolSelector> selector, TicketIssuer tickets, PoolProxy proxy,
              Supplier<ClusterSettings> settings, DoorStats stats, Delegations delegations, PoolDigests digests) {
        this.stats = stats;
        this.digests = digests;
        this.pools = pools;
        this.selectable = selectable;
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

    /** A HEAD: the origin's metadata, and the checksums asked for where a pool knows or learns them. */
    public void head(HttpServletRequest request, HttpServletResponse response, OriginEntry origin, NamespaceEntry file,
                     GridSubject subject) {
        head(file, response);
        String wantDigest = request.getHeader(DigestRequest.WANT_DIGEST);
        String wantRepr = request.getHeader(DigestRequest.WANT_REPR_DIGEST);
        if (DigestRequest.of(wantDigest, wantRepr).isEmpty() || origin == null) {
            return;
        }
        Map<String, String> ask = new LinkedHashMap<>();
        if (wantDigest != null) {
            ask.put(DigestRequest.WANT_DIGEST, wantDigest);
        }
        if (wantRepr != null) {
            ask.put(DigestRequest.WANT_REPR_DIGEST, wantRepr);
        }
        askPool(origin, file, subject, ask, FILL_TIMEOUT).ifPresent(answer -> {
            if (answer.digest() != null) {
                response.setHeader(DigestRequest.DIGEST, answer.digest());
            }
            if (answer.reprDigest() != null) {
                response.setHeader(DigestRequest.REPR_DIGEST, answer.reprDigest());
            }
        });
    }

    /**
     * The checksums a pool holds for the file now (PROPFIND's {@code Checksums} property): asked of the pool the
     * policy ranks first, answered from its index alone; none when it does not hold the file.
     */
    public Checksums cachedChecksums(OriginEntry origin, NamespaceEntry file, GridSubject subject) {
        Map<String, String> ask = Map.of(PoolDigests.ONLY_IF_CACHED, "1", DigestRequest.WANT_DIGEST, "adler32, md5, sha-256, crc32c");
        return askPool(origin, file, subject, ask, CACHED_TIMEOUT)
                .map(a -> DigestRequest.offered(a.digest(), null)).orElse(Checksums.NONE);
    }

    private Optional<PoolDigests.Answer> askPool(OriginEntry origin, NamespaceEntry file, GridSubject subject,
                                                 Map<String, String> headers, Duration timeout) {
        if (origin.credentialMode() == CredentialMode.USER
                && (subject.anonymous() || delegations.delegationOf(subject).isEmpty())) {
            return Optional.empty(); // the pool could not read it as the user: no checksum, the HEAD still answers
        }
        if (origin.credentialMode() == CredentialMode.TOKEN && subject.tokenRef() == null) {
            return Optional.empty(); // nor without the user's token
        }
        List<PoolSelector.Choice> ranked = selector.get().rank(file.path(), selectable.get(), 1);
        if (ranked.isEmpty()) {
            return Optional.empty();
        }
        PoolSelector.Choice choice = ranked.get(0);
        // the door reads the answer itself: the seed design's redirect to a peer would not be followed
        List<String> peers = choice.peers().contains(Ticket.ALL_PEERS) ? List.of() : choice.peers();
        String url = tickets.poolUrl(choice.pool(), peers, origin, file, subject, settings.get().get(Keys.TICKET_LIFETIME),
                delegations.credentialEndpoint());
        return digests.head(url, headers, timeout, choice.pool().id());
    }

    public void get(HttpServletRequest request, HttpServletResponse response, OriginEntry origin, NamespaceEntry file, GridSubject subject)
            throws IOException {
        ClusterSettings now = settings.get();
        if (origin.credentialMode() == CredentialMode.USER) {
            requireDelegation(subject, origin);
        }
        String credentialUrl = delegations.credentialEndpoint();
        PoolSelector policy = selector.get();
        List<PoolSelector.Choice> ranked = policy.rank(file.path(), selectable.get(), RANKED);
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
                proxy.stream(request, response, pool, tickets.poolUrl(pool, peers, origin, file, subject,
                        now.get(Keys.TICKET_LIFETIME), credentialUrl), file.path(), subject);
            } finally {
                proxy.release();
            }
            return;
        }
        stats.redirect();
        String location = tickets.poolUrl(pool, ranked.get(0).peers(), origin, file, subject,
                now.get(Keys.TICKET_LIFETIME), credentialUrl);
        response.setStatus(302);
        response.setHeader("Location", location);
        // Metalink-style fallbacks (RFC 6249, as Pelican's director sends them): pri=1 is the Location itself
        response.addHeader("Link", link(location, 1));
        for (int i = 1; i < ranked.size(); i++) {
            PoolSelector.Choice next = ranked.get(i);
            response.addHeader("Link", link(tickets.poolUrl(next.pool(), next.peers(), origin, file, subject,
                    now.get(Keys.TICKET_LIFETIME), credentialUrl), i + 1));
        }
        response.setHeader("Cache-Control", "no-store"); // the ticket in the Location expires soon
        Replies.text(response, 302, "redirecting to pool " + pool.id());
        LOG.debug("GET {} for {} -> pool {}", file.path(), subject, pool.id());
    }

    /**
     * A 401 telling where to delegate (as dCache does for third-party copy) unless the subject has a delegation; the
     * ticket does not name it: the credential service finds it again from the ticket's subject.
     */
    private void requireDelegation(GridSubject subject, OriginEntry origin) {
        String endpoint = delegations.delegationEndpoint();
        if (endpoint == null) {
            throw DoorException.cannotTakeUserCredential(origin);
        }
        if (!subject.anonymous() && subject.dn() == null) {
            throw DoorException.tokenCannotActAsUser(origin);
        }
        if (!subject.anonymous() && !subject.mayActWithDelegation()) {
            throw DoorException.delegationNotGranted(subject, "origin " + origin.name() + " (read as the user)");
        }
        Optional<String> id = subject.anonymous() ? Optional.empty() : delegations.delegationOf(subject);
        id.orElseThrow(() -> DoorException.delegateFirst(origin, "read", endpoint));
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
