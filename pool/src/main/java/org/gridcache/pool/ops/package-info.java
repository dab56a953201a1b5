/**
 * Operations: the JMX bean (drain, read-only, evict), the Prometheus metrics (the counters they read,
 * {@code mover.PoolStats}, sit below, where movers count).
 */
package org.gridcache.pool.ops;
