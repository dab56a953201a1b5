/**
 * WLCG HTTP third-party copy at the pool: the COPY a door redirected here with a {@code tpc-pull} or {@code tpc-push}
 * ticket is admitted, answered 202 with a stream of performance markers, and done by this pool: a pull GETs the
 * remote into the origin (and a cached copy), a push PUTs the file (from the store, filled first on a miss) to the
 * remote (ARCHITECTURE.md, "Third-party copy").
 */
package org.gridcache.pool.tpc;
