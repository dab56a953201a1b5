package org.gridcache.pool.fetch;

import io.netty.handler.codec.http.HttpResponseStatus;

/**
 * Why a miss could not be served: the status to answer waiting clients with (when no byte was sent yet) and a
 * one-line reason that names the origin host, never credentials.
 */
public final class FetchException extends Exception {
    private static final long serialVersionUID = 1L;
    private final transient HttpResponseStatus status;
    private final boolean checksumMismatch;
    private final boolean rangesUnsupported;

    public FetchException(HttpResponseStatus status, String reason) {
        this(status, reason, false, false);
    }

    private FetchException(HttpResponseStatus status, String reason, boolean checksumMismatch, boolean rangesUnsupported) {
        super(reason, null, false, false); // a reason, not a bug: no stack trace needed
        this.status = status;
        this.checksumMismatch = checksumMismatch;
        this.rangesUnsupported = rangesUnsupported;
    }

    /** The origin answered a Range with the whole file: a block read cannot be served, the whole file can. */
    public static FetchException rangesUnsupported(String reason) {
        return new FetchException(HttpResponseStatus.BAD_GATEWAY, reason, false, true);
    }

    public boolean isRangesUnsupported() {
        return rangesUnsupported;
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
}
