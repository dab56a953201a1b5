/**
 * The pool's HTTP vocabulary, below every other package of the pool: a refusal, the exchange a request travels in,
 * the response heads, TLS set-up and buffers. It knows nothing of stores, fetches or movers.
 */
package org.gridcache.pool.http;
