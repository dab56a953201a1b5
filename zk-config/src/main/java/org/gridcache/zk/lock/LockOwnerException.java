package org.gridcache.zk.lock;

/** A refresh or unlock of a lock by a subject other than the one that took it (WebDAV: 403). */
public final class LockOwnerException extends Exception {
    public LockOwnerException(String message) {
        super(message);
    }
}
