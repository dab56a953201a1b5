/**
 * The door assembled: its settings, its security ({@link org.gridcache.door.DoorGridSecurity}) and {@link
 * org.gridcache.door.Door}, which wires every package below. Layers, bottom to top (DoorShapeTest): {@code exchange} <
 * {@code auth} < {@code auth.token}, {@code auth.macaroon} < {@code delegation} < {@code namespace} < {@code select},
 * {@code liveness} < {@code lock} < {@code props} < {@code webdav} < {@code ops} < {@code read} < {@code write} <
 * {@code tpc} < {@code http} < this package; a package imports only those below it, and none form a cycle.
 */
package org.gridcache.door;
