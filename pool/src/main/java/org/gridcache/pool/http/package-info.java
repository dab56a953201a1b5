/**
 * The pool's HTTP vocabulary, above only the store: a refusal, a failed fetch as clients hear it
 * ({@link org.gridcache.pool.http.FetchException}, which knows the store's failures), the exchange a request travels
 * in, the response heads, TLS set-up ({@link org.gridcache.pool.http.PoolSecurity}), the pool's one HTTP client
 * ({@link org.gridcache.pool.http.PoolClient}, and its connections for worker threads that stream bodies:
 * {@link org.gridcache.pool.http.ClientConnection}), buffers and receive memory. It knows nothing of fetches or movers.
 */
package org.gridcache.pool.http;
