package org.gridcache.door.namespace;

/**
 * One file or collection of the namespace as the origin describes it. {@code size} and {@code mtimeMillis} are -1
 * when the origin does not say; {@code etag} and {@code contentType} may be null; {@code quota} is a collection's
 * RFC 4331 quota as a WebDAV origin reported it in its listing, null when it did not.
 */
public record NamespaceEntry(String path, String name, boolean collection, long size, long mtimeMillis, String etag,
                             String contentType, Quota quota) {

    /** An entry without quota (files, and collections of origins that report none). */
    public NamespaceEntry(String path, String name, boolean collection, long size, long mtimeMillis, String etag,
                          String contentType) {
        this(path, name, collection, size, mtimeMillis, etag, contentType, null);
    }

    /** A collection that exists only because mount points lie below it (or a mount point itself). */
    public static NamespaceEntry virtualCollection(String path, String name) {
        return new NamespaceEntry(path, name, true, -1, -1, null, null);
    }

    /**
     * A strong entity tag made of a file's size and modification time, for origins that give none (a file system,
     * nginx's PROPFIND): conditional requests (If-Match, WebDAV's {@code If}) then have a tag to compare; null when
     * the origin says neither.
     */
    static String tagOf(long size, long mtimeMillis) {
        return size < 0 || mtimeMillis < 0 ? null : "\"" + Long.toHexString(size) + "-" + Long.toHexString(mtimeMillis) + "\"";
    }

    public NamespaceEntry at(String newPath, String newName) {
        return new NamespaceEntry(newPath, newName, collection, size, mtimeMillis, etag, contentType, quota);
    }

    /** Epoch seconds for tickets, -1 when unknown. */
    public long mtimeSeconds() {
        return mtimeMillis < 0 ? -1 : mtimeMillis / 1000;
    }
}
