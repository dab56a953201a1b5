package org.gridcache.door.write;

import jakarta.servlet.http.HttpServletRequest;
import java.util.List;
import java.util.Optional;
import java.util.function.Supplier;
import java.util.regex.Pattern;
import org.gridcache.common.settings.ClusterSettings;
import org.gridcache.common.settings.ClusterSettings.Keys;
import org.gridcache.common.origin.OriginEntry;
import org.gridcache.common.cluster.PoolRecord;
import org.gridcache.common.security.GridSubject;
import org.gridcache.door.read.TicketIssuer;
import org.gridcache.door.select.PoolSelector;

/**
 * Whether a PUT goes to a pool (307 with a write ticket, as dCache redirects uploads) or through the door, and
 * where. Only a client that waits for {@code 100 Continue} is redirected: it has sent no byte of the body yet, so
 * nothing is read twice. Clients that cannot follow a 307 on PUT are proxied, as for reads
 * ({@code door.proxy-user-agents}: neon's cadaver, davfs2, Windows' Mini-Redirector), and so is everything while
 * {@code redirect.on-write=false}, or when no enabled pool is there to take it (a read-only pool takes no upload).
 */
public final class PutRedirects {
    /**
     * The 307's body: curl without {@code -L} prints it and exits 0 having stored nothing (it cannot be told apart
     * from {@code curl -L}, whose upload the 307 sends to a pool), so it says so.
     */
    static final String NOT_STORED_YET = "Not stored yet: this 307 sends the upload to a pool; repeat it there "
            + "(curl -L -T FILE URL follows it).\n";

    private final Supplier<List<PoolRecord>> pools;
    private final Supplier<PoolSelector> selector;
    private final TicketIssuer tickets;
    private final Supplier<ClusterSettings> settings;
    private final Supplier<String> credentialEndpoint;

    /** {@code pools}: the pools a new transfer may go to now. */
    public PutRedirects(Supplier<List<PoolRecord>> pools, Supplier<PoolSelector> selector, TicketIssuer tickets,
                        Supplier<ClusterSettings> settings, Supplier<String> credentialEndpoint) {
        this.pools = pools;
        this.selector = selector;
        this.tickets = tickets;
        this.settings = settings;
        this.credentialEndpoint = credentialEndpoint;
    }

    /** Whether this PUT is one a pool takes (when an enabled pool is there), by its headers and the settings. */
    boolean applies(HttpServletRequest request) {
        return redirectable(request.getHeader("Expect"), request.getHeader("User-Agent"), request.getContentLengthLong(),
                settings.get());
    }

    /** The pool URL to redirect this PUT to, or empty when the door proxies it. */
    Optional<String> location(HttpServletRequest request, GridSubject subject, OriginEntry origin, String path) {
        ClusterSettings now = settings.get();
        long length = request.getContentLengthLong();
        if (!applies(request)) {
            return Optional.empty();
        }
        List<PoolSelector.Choice> ranked = selector.get().rank(path, pools.get(), 4);
        for (PoolSelector.Choice choice : ranked) {
            PoolRecord pool = choice.pool();
            if (!pool.readOnly() && !pool.draining()) {
                return Optional.of(tickets.writeUrl(pool, origin, path, length, subject, now.get(Keys.TICKET_LIFETIME),
                        credentialEndpoint.get()));
            }
        }
        return Optional.empty();
    }

    /**
     * A known length (a pool streams exactly that many bytes to the origin; chunked uploads are proxied), a client
     * that waits for 100, a redirect-following client, and the cluster letting writes redirect.
     */
    static boolean redirectable(String expect, String agent, long length, ClusterSettings settings) {
        if (length < 0 || expect == null || !expect.trim().equalsIgnoreCase("100-continue")
                || !settings.get(Keys.REDIRECT_ON_WRITE)) {
            return false;
        }
        if (agent != null) {
            for (Pattern p : settings.get(Keys.PROXY_USER_AGENTS)) {
                if (p.matcher(agent).find()) {
                    return false;
                }
            }
        }
        return true;
    }
}
