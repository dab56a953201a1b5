package org.gridcache.common.ticket;

/** A ticket that must be refused; the message is the one-line reason sent to the client (it holds no secret). */
public final class TicketException extends Exception {
    private static final long serialVersionUID = 1L;

    public TicketException(String reason) {
        super(reason);
    }
}
