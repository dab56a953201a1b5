package org.gridcache.common;

/**
 * What a pool publishes in its ephemeral znode {@code /pools/<id>} (DESIGN.md §4). {@code load} is the pool's own
 * summary (active movers weighted with outgoing bandwidth); doors rank pools by it.
 */
public record PoolRecord(String id, String url, String site, long capacityBytes, long freeBytes, int activeMovers,
                         long bytesPerSecOut, double load, String version, long startedAt) {
}
