/**
 * The request path: the Netty pipeline, assembled in {@link org.gridcache.pool.serve.PoolChannelInitializer} where the
 * order of concerns reads top to bottom, and its one-concern handlers (ARCHITECTURE.md, "Flows").
 */
package org.gridcache.pool.serve;
