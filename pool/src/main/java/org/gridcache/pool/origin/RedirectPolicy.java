package org.gridcache.pool.origin;

import java.net.URI;
import java.util.Collection;
import java.util.List;
import java.util.Locale;
import java.util.function.Supplier;
import org.gridcache.common.settings.ClusterSettings.Keys;
import org.gridcache.common.origin.OriginEntry;

/**
 * Which of an origin's redirects a pool follows. A pool re-presents the credential of the fetch (the user's
 * delegated proxy, or its host certificate) on the next hop, so a redirect decides who receives it: grid storage
 * redirects from a head node to its data servers, but an origin (or whoever answers in its name) must not send the
 * pool, and the user's proxy, to any host it likes, nor down from TLS to plain text.
 *
 * <p>Followed: http or https only (never a pool's own disk), never from https to http, and to the same host, a host
 * of the mount table (the origins' hosts), or one listed in {@code pool.redirect-hosts} (exact, or {@code *.domain}).
 */
public final class RedirectPolicy {
    private final Supplier<? extends Collection<OriginEntry>> mounts;
    private final Supplier<List<String>> allowed;

    /** {@code mounts}: the mount table now; {@code allowed}: {@link Keys#REDIRECT_HOSTS} now. */
    public RedirectPolicy(Supplier<? extends Collection<OriginEntry>> mounts, Supplier<List<String>> allowed) {
        this.mounts = mounts;
        this.allowed = allowed;
    }

    /** Null when the pool may follow {@code from}'s redirect to {@code to}; else the one-line reason it may not. */
    public String refusal(URI from, URI to) {
        String refusal = schemeRefusal(from, to);
        if (refusal != null) {
            return refusal;
        }
        String host = host(to);
        if (host.equals(host(from)) || isOriginHost(host) || isAllowed(host)) {
            return null;
        }
        return "redirected to " + host + ", which is neither an origin of the mount table nor in " + Keys.REDIRECT_HOSTS;
    }

    /**
     * What every redirect a pool follows must pass, whoever it comes from (an origin, a third-party copy's remote):
     * null when {@code to} is an http(s) URL with a host and not a step down from https to http; else the reason.
     */
    public static String schemeRefusal(URI from, URI to) {
        String scheme = to.getScheme() == null ? "" : to.getScheme().toLowerCase(Locale.ROOT);
        if (!scheme.equals("http") && !scheme.equals("https")) {
            return "redirected to a" + (scheme.isEmpty() ? "n unusable" : " " + scheme) + " URL";
        }
        if ("https".equalsIgnoreCase(from.getScheme()) && scheme.equals("http")) {
            return "redirected from https to http, which the pool never follows";
        }
        return host(to) == null ? "redirected to a URL without a host" : null;
    }

    private boolean isOriginHost(String host) {
        for (OriginEntry entry : mounts.get()) {
            try {
                if (host.equals(host(URI.create(entry.url())))) {
                    return true;
                }
            } catch (IllegalArgumentException e) {
                // an entry the mount table should have refused: it names no host
            }
        }
        return false;
    }

    private boolean isAllowed(String host) {
        for (String pattern : allowed.get()) {
            if (pattern.equals(host) || pattern.startsWith("*.") && host.endsWith(pattern.substring(1))) {
                return true;
            }
        }
        return false;
    }

    private static String host(URI uri) {
        return uri.getHost() == null ? null : uri.getHost().toLowerCase(Locale.ROOT);
    }
}
