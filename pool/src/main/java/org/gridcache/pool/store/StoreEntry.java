package org.gridcache.pool.store;

import java.nio.charset.StandardCharsets;

/**
 * The in-memory metadata of one complete stored file. Kept tiny (the ETag as ASCII bytes, no URL, no path) since
 * the index holds one per file; the last access time lives in the Caffeine node.
 */
public final class StoreEntry {
    public final long size;
    /** Origin modification time, epoch seconds; -1 when unknown. */
    public final long mtime;
    private final byte[] etag;

    public StoreEntry(long size, long mtime, String etag) {
        this.size = size;
        this.mtime = mtime;
        this.etag = etag == null ? null : etag.getBytes(StandardCharsets.US_ASCII);
    }

    public String etag() {
        return etag == null ? null : new String(etag, StandardCharsets.US_ASCII);
    }

    /** True when the ticket's known size or mtime says the origin holds another version than this copy. */
    public boolean isStaleFor(long ticketSize, long ticketMtime) {
        return (ticketSize >= 0 && ticketSize != size) || (ticketMtime >= 0 && mtime >= 0 && ticketMtime != mtime);
    }
}
