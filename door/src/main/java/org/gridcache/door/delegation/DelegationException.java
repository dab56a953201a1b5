package org.gridcache.door.delegation;

/** A delegation call the client may not make, with the one-line reason (maps to a SOAP fault or a 4xx). */
final class DelegationException extends Exception {
    private static final long serialVersionUID = 1L;
    private final int status;
    private final long retryAfterSeconds;

    DelegationException(int status, String reason) {
        this(status, reason, 0);
    }

    /** {@code retryAfterSeconds}: when the client may ask again (0: not said). */
    DelegationException(int status, String reason, long retryAfterSeconds) {
        super(reason, null, false, false);
        this.status = status;
        this.retryAfterSeconds = retryAfterSeconds;
    }

    int status() {
        return status;
    }

    long retryAfterSeconds() {
        return retryAfterSeconds;
    }
}
