package org.gridcache.door.lock;

/** What a LOCK body asks for: an exclusive or a shared write lock, and the client's {@code owner} XML, kept as sent. */
public record LockRequest(boolean exclusive, String ownerXml) {
}
