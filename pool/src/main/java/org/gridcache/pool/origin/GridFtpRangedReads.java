package org.gridcache.pool.origin;

import io.netty.buffer.Unpooled;
import io.netty.handler.codec.http.HttpResponseStatus;
import java.net.URI;
import java.util.concurrent.RejectedExecutionException;
import org.gridcache.common.Ticket;
import org.gridcache.gridftp.GridFtpConnection;
import org.gridcache.gridftp.GridFtpException;
import org.gridcache.pool.fetch.FetchException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** A partial retrieve (ERET) of a {@code gsiftp://} file for one client, on a connection of its own, not cached. */
final class GridFtpRangedReads implements RangedReads {
    private static final Logger LOG = LoggerFactory.getLogger(GridFtpRangedReads.class);
    private final GridFtpSessions sessions;

    GridFtpRangedReads(GridFtpSessions sessions) {
        this.sessions = sessions;
    }

    @Override
    public AutoCloseable read(URI origin, Ticket ticket, long offset, long length, Receiver receiver) {
        GridFtpSessions.Login login;
        try {
            login = sessions.login(ticket);
        } catch (FetchException e) {
            receiver.done(e);
            return () -> { };
        }
        ReadHandle<GridFtpConnection> holder = new ReadHandle<>(GridFtpConnection::close);
        try {
            sessions.execute(() -> {
                try (GridFtpConnection conn = GridFtpSessions.open(origin, login.credential(), login.options())) {
                    if (!holder.set(conn)) {
                        receiver.done(new FetchException(HttpResponseStatus.SERVICE_UNAVAILABLE, "client went away"));
                        return;
                    }
                    receiver.opened();
                    conn.retrieve(GridFtpSessions.path(origin), offset, length, false,
                            (data, n) -> receiver.receive(Unpooled.wrappedBuffer(data, 0, n)));
                    receiver.done(null);
                } catch (GridFtpException e) {
                    receiver.done(GridFtpSessions.reason(e, origin, ticket));
                } catch (RuntimeException e) {
                    LOG.error("GridFTP partial retrieve of {} failed", ticket.path(), e);
                    receiver.done(FetchException.badGateway("GridFTP client failed: " + e));
                }
            });
        } catch (RejectedExecutionException e) {
            receiver.done(GridFtpSessions.shuttingDown());
        }
        return holder::close;
    }
}
