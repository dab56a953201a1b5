package org.gridcache.pool.store;

/**
 * The metadata file next to each stored data file ({@code <hex>.json}): what was fetched, from where, and how
 * big it must be. Start-up trusts a data file only when its size equals {@link #size}.
 */
public record Sidecar(String originUrl, long size, long mtime, String etag, long storedAt) {
}
