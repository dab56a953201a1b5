/**
 * Movers (dCache's word): one client transfer each, from the store ({@link org.gridcache.pool.mover.HitMover}), while
 * a fetch fills the file ({@link org.gridcache.pool.mover.CutThroughMover}), or a cold GridFTP range
 * ({@link org.gridcache.pool.mover.PartialTransfer}); byte ranges and multipart bodies; the pool's transfer counters.
 */
package org.gridcache.pool.mover;
