/**
 * The gridcache pool: a Netty HTTP data server in front of the grid's origins (DESIGN.md §3, §6).
 *
 * <p>A request flows {@link org.gridcache.pool.PoolChannelInitializer} → {@link org.gridcache.pool.PoolRequestHandler}
 * (method, path, ticket) → {@link org.gridcache.pool.Downloads#open} (hit, or join/start the one fetch of that file)
 * → a {@link org.gridcache.pool.Mover}: {@link org.gridcache.pool.HitMover} sends a stored file zero-copy,
 * {@link org.gridcache.pool.CutThroughMover} sends a {@link org.gridcache.pool.Download} while it fills. Fetchers
 * ({@link org.gridcache.pool.HttpOriginFetcher}, {@link org.gridcache.pool.FileOriginFetcher}) sit behind
 * {@link org.gridcache.pool.OriginFetcher}. The {@link org.gridcache.pool.Store} owns disk, index, pins and space;
 * {@link org.gridcache.pool.Eviction} decides what goes. {@link org.gridcache.pool.Pool} wires it all and registers
 * in ZooKeeper.
 */
package org.gridcache.pool;
