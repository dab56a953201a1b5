/**
 * WebDAV locking (RFC 4918 §6–9, DAV class 2) at the door, over the cluster's lock table
 * ({@code org.gridcache.zk.lock.LockTable}): a LOCK body read without DTDs ({@link LockRequests}), the {@code Timeout}
 * ({@link LockTimeouts}) and {@code If} ({@link IfHeader}) headers, and the {@code lockdiscovery} XML
 * ({@link LockDiscovery}). Milton CE has no LOCK/UNLOCK handler; the handler that uses these is wired with the
 * door's write path.
 */
package org.gridcache.door.lock;
