/**
 * Whether this door can reach each pool, learnt in well under ZooKeeper's session timeout (ARCHITECTURE.md, "A pool
 * dies"): pings over one kept connection per pool, a closed connection or a failed proxied read asked about at once,
 * and the selectable pools less the suspect ones.
 * <p>Layer (DoorShapeTest): Imports no other package of the door; beside {@code select}.
 */
package org.gridcache.door.liveness;
