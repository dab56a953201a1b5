/**
 * Movers (dCache's word): one client transfer each, from the store ({@link org.gridcache.pool.mover.HitMover}), while
 * a fetch fills the file ({@link org.gridcache.pool.mover.CutThroughMover}), or ranges from the blocks of a partial
 * file ({@link org.gridcache.pool.mover.SparseTransfer}); byte ranges and multipart bodies; the pool's transfer
 * counters.
 */
package org.gridcache.pool.mover;
