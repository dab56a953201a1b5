package org.gridcache.pool.http;

import io.netty.handler.codec.http.HttpResponseStatus;

/**
 * Why a miss could not be served: the status to answer waiting clients with (when no byte was sent yet) and a
 * one-line reason that names the origin host, never credentials.
 */
public final class FetchException extends Exception {
    private static final long serialVersionUID = 1L;
    private final transient HttpResponseStatus status;
    private final boolean checksumMismatch;
    private final boolean wholeInstead;

    public FetchException(HttpResponseStatus status, String reason) {
        this(status, reason, false, false);
    }

    private FetchException(HttpResponseStatus status, String reason, boolean checksumMismatch, boolean wholeInstead) {
        super(reason, null, false, false); // a reason, not a bug: no stack trace needed
        this.status = status;
        this.checksumMismatch = checksumMismatch;
        this.wholeInstead = wholeInstead;
    }

    /** The origin answered a Range with the whole file: a block read cannot be served, the whole file can. */
    public static FetchException rangesUnsupported(String reason) {
        return new FetchException(HttpResponseStatus.BAD_GATEWAY, reason, false, true);
    }

    /**
     * The partial file a block read wrote to was dropped meanwhile (a complete copy stored, another version, a write
     * notice): the whole file can be served instead.
     */
    public static FetchException blocksDropped(String reason) {
        return new FetchException(HttpResponseStatus.SERVICE_UNAVAILABLE, reason, false, true);
    }

    /** A block read that cannot be served, where the whole file can: {@link #rangesUnsupported}, {@link #blocksDropped}. */
    public boolean isWholeInstead() {
        return wholeInstead;
    }

    /** What the pool received does not have the checksum the origin gave: 502, the copy discarded, counted. */
    public static FetchException checksumMismatch(String reason) {
        return new FetchException(HttpResponseStatus.BAD_GATEWAY, reason, true, false);
    }

    public boolean isChecksumMismatch() {
        return checksumMismatch;
    }

    public HttpResponseStatus status() {
        return status;
    }

    public static FetchException badGateway(String reason) {
        return new FetchException(HttpResponseStatus.BAD_GATEWAY, reason);
    }

    public static FetchException storeFull(String reason) {
        return new FetchException(HttpResponseStatus.INSUFFICIENT_STORAGE, reason);
    }

    /**
     * A storage-level failure of the store, as clients hear it: no space is 507 with the store's reason; a replica
     * gone meanwhile is 503 (try again).
     */
    public static FetchException fromStore(org.gridcache.pool.store.StoreException e) {
        return switch (e.reason()) {
            case NO_SPACE -> storeFull(e.getMessage());
            case GONE -> new FetchException(HttpResponseStatus.SERVICE_UNAVAILABLE, "pool could not keep the blocks read; try again");
        };
    }

    /**
     * The store's disk refused a write ({@code what}: "write the file"): 507 when the file system is full (ENOSPC,
     * EDQUOT: the store's accounting did not know, e.g. something else filled the disk), else 500.
     */
    public static FetchException storeWrite(String what, java.io.IOException e) {
        return isNoSpace(e) ? storeFull("pool cannot " + what + ": its disk is full")
                : new FetchException(HttpResponseStatus.INTERNAL_SERVER_ERROR, "pool cannot " + what + ": " + e.getMessage());
    }

    /** Whether an I/O error is the file system's "no space" (ENOSPC, EDQUOT). */
    public static boolean isNoSpace(java.io.IOException e) {
        return org.gridcache.pool.store.StoreException.isNoSpace(e);
    }
}
