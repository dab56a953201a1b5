package org.gridcache.pool.store;

import java.nio.charset.StandardCharsets;

/**
 * The in-memory metadata of one complete stored file. Kept tiny (the ETag as ASCII bytes, no URL, no path) since
 * the index holds one per file; the last access time lives in the Caffeine node. Its size shares a word with its
 * state ({@link Replica}) and its mtime is 32 bits, unsigned seconds (to 2106): with the ETag and the origin that
 * is 32 bytes an entry.
 *
 * <p>After a restart a file enters the index {@link #unverified}: its size from the file system, its sidecar not yet
 * read. The store proves it (sidecar read, URL and size checked) before anyone sees it ({@link Store#lookup}); the
 * state costs no field: an unverified entry's ETag is one shared marker array.
 *
 * <p>A new entry is {@link ReplicaState#FILLING}: its bytes are written, and the store's commit makes it
 * {@link ReplicaState#COMPLETE} as it enters the index; eviction, a drop or a newer copy make it
 * {@link ReplicaState#REMOVED}.
 */
public final class StoreEntry extends Replica {
    private static final byte[] UNVERIFIED = new byte[0];
    private static final int UNKNOWN_MTIME = -1;
    /** Origin modification time, epoch seconds as an unsigned int; {@link #UNKNOWN_MTIME} when unknown. */
    private final int mtime;
    private final byte[] etag;
    /** Whose bytes these are ({@link OriginUsage}); null: counted under no origin. */
    final OriginUsage.Account origin;

    /** An entry counted under no origin ({@link OriginUsage#entryOf} makes one that is). */
    public StoreEntry(long size, long mtime, String etag) {
        this(size, mtime, etag, null);
    }

    StoreEntry(long size, long mtime, String etag, OriginUsage.Account origin) {
        super(ReplicaState.FILLING, size);
        this.mtime = mtime >= 0 && mtime < 0xFFFF_FFFFL ? (int) mtime : UNKNOWN_MTIME; // none before 1970 nor after 2106
        this.etag = etag == null ? null : etag.getBytes(StandardCharsets.US_ASCII);
        this.origin = origin;
    }

    private StoreEntry(long size) {
        super(ReplicaState.COMPLETE, size); // complete on disk: proven before it is served
        this.mtime = UNKNOWN_MTIME;
        this.etag = UNVERIFIED;
        this.origin = null; // its sidecar, read when it is proven, names the origin
    }

    /** A data file found at start-up, {@code size} bytes long, whose sidecar is still to be read. */
    static StoreEntry unverified(long size) {
        return new StoreEntry(size);
    }

    /** Bytes of the file. */
    public long size() {
        return value();
    }

    /** Origin modification time, epoch seconds; -1 when unknown. */
    public long mtime() {
        return mtime == UNKNOWN_MTIME ? -1 : Integer.toUnsignedLong(mtime);
    }

    /** False for a file found at start-up until its sidecar has been read and agrees with it. */
    boolean isVerified() {
        return etag != UNVERIFIED;
    }

    public String etag() {
        return etag == null || etag == UNVERIFIED ? null : new String(etag, StandardCharsets.US_ASCII);
    }

    /** True when the ticket's known size or mtime says the origin holds another version than this copy. */
    public boolean isStaleFor(long ticketSize, long ticketMtime) {
        return (ticketSize >= 0 && ticketSize != size()) || (ticketMtime >= 0 && mtime() >= 0 && ticketMtime != mtime());
    }
}
