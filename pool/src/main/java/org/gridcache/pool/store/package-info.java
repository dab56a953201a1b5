/**
 * The pool's disk (ARCHITECTURE.md, "Disk layout"): data files and sidecars, the in-memory index, pins, space
 * accounting and eviction between watermarks.
 */
package org.gridcache.pool.store;
