/**
 * WebDAV locking (RFC 4918 §6–9, DAV class 2) at the door, over the cluster's lock table
 * ({@code org.gridcache.zk.lock.LockTable}), since Milton CE has no LOCK/UNLOCK handler: {@link DoorLocks} answers
 * LOCK and UNLOCK, {@link LockChecks} is what every write (and PROPPATCH) must pass; a LOCK body read without DTDs
 * ({@link LockRequests}), the {@code Timeout} ({@link LockTimeouts}) and {@code If} ({@link IfHeader}) headers, and
 * the {@code lockdiscovery} XML ({@link LockDiscovery}).
 * <p>Layer (DoorShapeTest): Above {@code auth} and {@code namespace}; below the writes and PROPPATCH that must pass its checks.
 */
package org.gridcache.door.lock;
