package org.gridcache.pool;

/**
 * The metadata file next to each stored data file ({@code <hex>.json}): what was fetched, from where, and how
 * big it must be. Start-up trusts a data file only when its size equals {@link #size}.
 */
record Sidecar(String originUrl, long size, long mtime, String etag, long storedAt) {
}
