/**
 * Choosing the pools of a read (ARCHITECTURE.md, "Choosing a pool"): the policies random, least-loaded and
 * affinity (weighted rendezvous hashing with spill), switched live; public, so the policy simulator replays them.
 * <p>Layer (DoorShapeTest): Imports no other package of the door; beside {@code liveness}.
 */
package org.gridcache.door.select;
