/**
 * GridSite delegation (ARCHITECTURE.md, "Flows": a delegation): certificate requests, the check of the returned
 * chain, the registry of delegated credentials and their files, and the hand-off of a credential to a pool.
 */
package org.gridcache.door.delegation;
