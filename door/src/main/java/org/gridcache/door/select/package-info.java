/**
 * Choosing the pools of a read (ARCHITECTURE.md, "Choosing a pool"): the policies random, least-loaded and
 * affinity (weighted rendezvous hashing with spill), switched live; public, so the policy simulator replays them.
 */
package org.gridcache.door.select;
