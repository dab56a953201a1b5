/**
 * Writes (ARCHITECTURE.md, "A write"): PUT, MKCOL, DELETE, MOVE and COPY proxied by the door to the origin that
 * serves the path, through one {@link org.gridcache.door.write.OriginWriter} per origin kind, as the identity the
 * subject has there; the door's cached view of what was written is dropped, and the other doors are told.
 * <p>Layer (DoorShapeTest): Above {@code read}, {@code lock} and {@code auth}; below {@code tpc}, whose pulls are writes.
 */
package org.gridcache.door.write;
