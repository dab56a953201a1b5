package org.gridcache.zk.lock;

/** A lock or a write refused because another lock holds the path (WebDAV's 423 Locked); names that lock's path. */
public final class LockConflictException extends Exception {
    private final String lockedPath;

    public LockConflictException(String lockedPath, String message) {
        super(message);
        this.lockedPath = lockedPath;
    }

    public String lockedPath() {
        return lockedPath;
    }
}
