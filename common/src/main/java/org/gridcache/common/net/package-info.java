/**
 * Which network addresses a node may be made to connect to on a user's behalf (a third-party copy's remote): the
 * ranges that reach the site's own inside ({@link InternalRanges}) and the site's exceptions ({@link AllowedHosts},
 * the {@code tpc.allowed-hosts} setting).
 */
package org.gridcache.common.net;
