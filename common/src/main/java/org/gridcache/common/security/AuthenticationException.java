package org.gridcache.common.security;

/** A credential that must be refused; the message is a one-line reason fit for the client (it holds no secret). */
public final class AuthenticationException extends Exception {
    private static final long serialVersionUID = 1L;

    public AuthenticationException(String reason) {
        super(reason, null, false, false);
    }
}
