package org.gridcache.door.namespace;

/** RFC 4331's two numbers for a collection, in bytes: what may still be stored, and what is stored. */
public record Quota(long availableBytes, long usedBytes) {
}
