/**
 * GridSite delegation (ARCHITECTURE.md, "Flows": a delegation): certificate requests, the check of the returned
 * chain, the registry of delegated credentials and their files, and the hand-off of a credential to a pool.
 * <p>Layer (DoorShapeTest): Above {@code auth} (a delegated credential belongs to a subject), below everything that acts as the user.
 */
package org.gridcache.door.delegation;
