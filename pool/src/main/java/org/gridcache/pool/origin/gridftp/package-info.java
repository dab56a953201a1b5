/**
 * The GridFTP origins ({@code gsiftp://}): fetches, uploads, ranged reads and permission checks as the user over GSI,
 * on connections kept per identity ({@link org.gridcache.pool.origin.gridftp.GsiConnectionPool}). Above
 * {@code origin}, whose interfaces it implements; the pool wires it in, nothing else names it.
 */
package org.gridcache.pool.origin.gridftp;
