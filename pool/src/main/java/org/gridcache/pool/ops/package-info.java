/**
 * Operations: the JMX bean (drain, read-only, evict), the Prometheus metrics and the pool's counters.
 */
package org.gridcache.pool.ops;
