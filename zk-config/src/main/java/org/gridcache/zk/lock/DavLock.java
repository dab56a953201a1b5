package org.gridcache.zk.lock;

import java.time.Instant;

/**
 * One WebDAV lock (RFC 4918 §6) as every door sees it: the namespace path it covers, its token, whether it is
 * exclusive, whether it covers the path's descendants ({@code infinite}), the client's {@code owner} XML text as sent,
 * the subject (DN) that took it, and when it lapses unless refreshed.
 */
public record DavLock(String token, String path, boolean exclusive, boolean infinite, String owner, String principal,
                      long timeoutSeconds, long expiresAtMillis) {

    public boolean expiredAt(Instant now) {
        return now.toEpochMilli() >= expiresAtMillis;
    }

    /** Whether this lock applies to a request on {@code target}: the same path, or a descendant of an infinite lock. */
    public boolean covers(String target) {
        return path.equals(target) || infinite && isBelow(target, path);
    }

    /** Whether two locks may not be held at once: they overlap and one of them is exclusive. */
    public boolean conflictsWith(String otherPath, boolean otherExclusive, boolean otherInfinite) {
        boolean overlap = path.equals(otherPath) || infinite && isBelow(otherPath, path) || otherInfinite && isBelow(path, otherPath);
        return overlap && (exclusive || otherExclusive);
    }

    /** {@code child} strictly below {@code parent}, by whole path components. */
    static boolean isBelow(String child, String parent) {
        String prefix = parent.endsWith("/") ? parent : parent + "/";
        return child.startsWith(prefix) && child.length() > prefix.length();
    }
}
