/**
 * The gridcache pool: a Netty HTTP data server in front of the grid's origins (ARCHITECTURE.md, "Parts" and
 * "Flows"). Its public surface is this package: {@link org.gridcache.pool.Pool} assembles the parts from
 * {@link org.gridcache.pool.PoolSettings} and {@link org.gridcache.pool.http.PoolSecurity}, and registers the pool in
 * ZooKeeper.
 *
 * <p>The parts, one package each: {@code serve} (the Netty pipeline and its handlers), {@code mover} (client
 * transfers), {@code store} (disk layout, index, eviction), {@code fetch} (hit or fetch, coalescing, write-behind),
 * {@code origin} (one fetcher per origin protocol), {@code peer} (other pools), {@code access} (permission cache and
 * delegated credentials) and {@code ops} (JMX, metrics, drain).
 */
package org.gridcache.pool;
