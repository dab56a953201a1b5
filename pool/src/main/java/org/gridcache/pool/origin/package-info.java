/**
 * Origin protocols: one {@link org.gridcache.pool.origin.OriginFetcher} per URL scheme (HTTP(S), file, GridFTP), with
 * optional capabilities (permission check as the user, ranged reads) that callers ask for instead of naming a
 * protocol; the sink a fetcher fills ({@link org.gridcache.pool.origin.DownloadSink}) and the permission cache
 * ({@link org.gridcache.pool.origin.OriginAccess}). GridFTP's fetcher and uploader live in {@code origin.gridftp}.
 */
package org.gridcache.pool.origin;
