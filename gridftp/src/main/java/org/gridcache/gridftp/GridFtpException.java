package org.gridcache.gridftp;

import java.io.IOException;

/**
 * A GridFTP operation that failed, sorted by what the caller answers its own client: the server's one-line reason
 * (never a credential) and a {@link Kind}.
 */
public final class GridFtpException extends IOException {
    private static final long serialVersionUID = 1L;

    /** What went wrong, as an HTTP front end would map it. */
    public enum Kind {
        /** No such file or directory at the server (404). */
        NOT_FOUND,
        /** The server refused the credential (expired, revoked, unknown) or the access (403). */
        DENIED,
        /** What a write would create exists already (412: the precondition that it does not failed). */
        EXISTS,
        /** The write conflicts with what is there: a directory not empty, a path through a file (409). */
        CONFLICT,
        /** The server is out of space or over quota (507). */
        NO_SPACE,
        /** The server could not be reached, or the connection broke (502). */
        UNREACHABLE,
        /** The server answered with another failure, or sent something unusable (502). */
        FAILED
    }

    private final Kind kind;

    public GridFtpException(Kind kind, String reason) {
        super(reason, null);
        this.kind = kind;
    }

    public GridFtpException(Kind kind, String reason, Throwable cause) {
        super(reason, cause);
        this.kind = kind;
    }

    public Kind kind() {
        return kind;
    }

    /** The HTTP status a front end answers for this failure: 404, 403, 412, 409, 507, or 502 for the rest. */
    public int httpStatus() {
        return switch (kind) {
            case NOT_FOUND -> 404;
            case DENIED -> 403;
            case EXISTS -> 412;
            case CONFLICT -> 409;
            case NO_SPACE -> 507;
            case UNREACHABLE, FAILED -> 502;
        };
    }

    /**
     * The one-line reason a front end gives its client: {@code origin} names the server (or mount), {@code subject}
     * who was refused, {@code path} what was asked for.
     */
    public String reason(String origin, String subject, String path) {
        return switch (kind) {
            case NOT_FOUND -> "not found at origin " + origin + ": " + getMessage();
            case DENIED -> "the origin refuses " + subject + " access to " + path + " (" + origin + "): " + getMessage();
            case EXISTS -> "exists already at origin " + origin + ": " + getMessage();
            case CONFLICT -> "conflict at origin " + origin + ": " + getMessage();
            case NO_SPACE -> "origin " + origin + " is out of space: " + getMessage();
            case UNREACHABLE, FAILED -> "origin " + origin + ": " + getMessage();
        };
    }
}
