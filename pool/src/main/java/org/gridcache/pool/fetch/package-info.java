/**
 * Hit or fetch: {@link org.gridcache.pool.fetch.Downloads} coalesces concurrent misses of one file into one
 * {@link org.gridcache.pool.fetch.Download}, which clients read while it fills (cut-through) and writes behind to
 * disk within a memory budget (ARCHITECTURE.md, "Flows"); a miss may be pulled from a peer
 * ({@link org.gridcache.pool.fetch.PeerFetcher}).
 */
package org.gridcache.pool.fetch;
