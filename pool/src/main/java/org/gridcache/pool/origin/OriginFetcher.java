package org.gridcache.pool.origin;

import java.net.URI;
import org.gridcache.pool.fetch.DownloadSink;

/**
 * Fetches one file from an origin into a {@link DownloadSink}, asynchronously. One implementation per protocol
 * (HTTP(S), file; GridFTP and peer pools later), chosen by URL scheme.
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
    default void fetch(URI origin, DownloadSink sink, org.gridcache.common.Ticket ticket) {
        fetch(origin, sink);
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
