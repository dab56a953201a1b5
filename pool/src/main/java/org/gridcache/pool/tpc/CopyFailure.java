package org.gridcache.pool.tpc;

/** Why a third-party copy failed, in one line fit for the client's {@code failure:} line (never a URL's secrets). */
final class CopyFailure extends Exception {
    private static final long serialVersionUID = 1L;

    CopyFailure(String reason) {
        super(reason, null, false, false);
    }
}
