package org.gridcache.door.delegation;

/** A delegation call the client may not make, with the one-line reason (maps to a SOAP fault or a 4xx). */
final class DelegationException extends Exception {
    private static final long serialVersionUID = 1L;
    private final int status;

    DelegationException(int status, String reason) {
        super(reason, null, false, false);
        this.status = status;
    }

    int status() {
        return status;
    }
}
