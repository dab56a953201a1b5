package org.gridcache.door.namespace;

import java.net.URI;
import java.net.URISyntaxException;
import java.util.Optional;
import org.gridcache.common.origin.OriginEntry;

/**
 * An origin where it is mounted, for pages people read: {@code mountedMillis} is when the mount table entry was last
 * written (epoch milliseconds, -1 when unknown).
 */
public record MountPoint(OriginEntry origin, long mountedMillis) {

    /**
     * Where the origin is, safe to show to anyone who may list the mount point: scheme, host, port and path of its URL,
     * never user information or a query (they may hold a password or a token); empty for a file origin, whose
     * directory on the cache's hosts stays unsaid.
     */
    public Optional<String> shownUrl() {
        if ("file".equals(origin.protocol())) {
            return Optional.empty();
        }
        try {
            URI uri = URI.create(origin.url());
            return Optional.of(new URI(uri.getScheme(), null, uri.getHost(), uri.getPort(), uri.getPath(), null, null).toString());
        } catch (IllegalArgumentException | URISyntaxException e) {
            return Optional.of(origin.protocol() + "://" + (e instanceof URISyntaxException ? "" : "…"));
        }
    }
}
