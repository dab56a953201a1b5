/**
 * Other pools (ARCHITECTURE.md, "Choosing a pool"): asking peers whether they hold a file, and pulling it from the
 * holder instead of the origin.
 */
package org.gridcache.pool.peer;
