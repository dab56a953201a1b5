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

    public FetchException(HttpResponseStatus status, String reason) {
        this(status, reason, false);
    }

    private FetchException(HttpResponseStatus status, String reason, boolean checksumMismatch) {
        super(reason, null, false, false); // a reason, not a bug: no stack trace needed
        this.status = status;
        this.checksumMismatch = checksumMismatch;
    }

    /** What the pool received does not have the checksum the origin gave: 502, the copy discarded, counted. */
    public static FetchException checksumMismatch(String reason) {
        return new FetchException(HttpResponseStatus.BAD_GATEWAY, reason, true);
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
