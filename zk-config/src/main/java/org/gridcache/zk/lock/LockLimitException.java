package org.gridcache.zk.lock;

/** A lock its subject may not take: it holds as many live locks as one subject may (WebDAV: 507, the reason). */
public final class LockLimitException extends Exception {
    public LockLimitException(String message) {
        super(message);
    }
}
