package org.gridcache.pool.origin;

import java.net.URI;
import java.util.Optional;

/**
 * An origin protocol: fetches one file from an origin into a {@link DownloadSink}, asynchronously. One
 * implementation per protocol (HTTP(S), file, GridFTP), chosen by URL scheme ({@link Origins}). What only some
 * protocols can do is an optional capability, asked for rather than implied by a concrete class.
 */
public interface OriginFetcher extends AutoCloseable {

    boolean supports(URI origin);

    /**
     * Starts fetching {@code origin}. Calls {@link DownloadSink#begin} once the size is known, then writes, then
     * exactly one of {@link DownloadSink#complete} or {@link DownloadSink#fail}.
     */
    void fetch(URI origin, DownloadSink sink);

    /**
     * As {@link #fetch(URI, DownloadSink)}, for the file {@code ticket} names: a fetcher that presents credentials
     * chooses them by the ticket (the user's delegated proxy, or the pool's host certificate).
     */
    default void fetch(URI origin, DownloadSink sink, org.gridcache.common.ticket.Ticket ticket) {
        fetch(origin, sink);
    }

    /**
     * Reading the blocks of a partial file ({@code pool.fetch.BlockFetches}) (empty: a Range on a cold file is
     * served from a whole-file fetch).
     */
    default Optional<RangedReads> blockReads() {
        return Optional.empty();
    }

    /** Asking the origin as the user whether the user may read the file (empty: no such check for this protocol). */
    default Optional<PermissionCheck> permissionCheck() {
        return Optional.empty();
    }

    @Override
    void close();

    /** The origin as it may appear in a message: scheme and host, never the user info or the query. */
    static String describe(URI origin) {
        if (origin.getHost() == null) {
            return origin.getScheme() + "://" + (origin.getPath() == null ? "" : origin.getPath());
        }
        return origin.getScheme() + "://" + origin.getHost() + (origin.getPort() < 0 ? "" : ":" + origin.getPort());
    }
}
