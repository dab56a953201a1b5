/**
 * Other pools (ARCHITECTURE.md, "Choosing a pool"): asking peers whether they hold a file (pulling it from the
 * holder instead of the origin is {@code fetch.PeerFetcher}'s).
 */
package org.gridcache.pool.peer;
