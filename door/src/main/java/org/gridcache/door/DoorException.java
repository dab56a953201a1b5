package org.gridcache.door;

/**
 * A request that ends in a clear HTTP status with a one-line reason for the client (never a secret, never a stack
 * trace). Unchecked so that it passes through Caffeine loaders and Milton callbacks unchanged.
 */
public final class DoorException extends RuntimeException {
    private static final long serialVersionUID = 1L;
    private final int status;

    public DoorException(int status, String reason) {
        super(reason, null, false, false); // expected outcomes: no stack trace to fill
        this.status = status;
    }

    public int status() {
        return status;
    }

    public String reason() {
        return getMessage();
    }

    public static DoorException notFound(String path) {
        return new DoorException(404, "not found: " + path);
    }

    public static DoorException badGateway(String reason) {
        return new DoorException(502, reason);
    }
}
