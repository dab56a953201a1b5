package org.gridcache.pool.origin.gridftp;

import io.netty.buffer.Unpooled;
import io.netty.handler.codec.http.HttpResponseStatus;
import java.io.IOException;
import java.net.URI;
import java.util.concurrent.RejectedExecutionException;
import org.gridcache.common.ticket.Ticket;
import org.gridcache.gridftp.GridFtpConnection;
import org.gridcache.gridftp.GridFtpException;
import org.gridcache.pool.http.FetchException;
import org.gridcache.pool.origin.RangedReads;
import org.gridcache.pool.origin.ReadHandle;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A partial retrieve (ERET) of blocks of a {@code gsiftp://} file, on an idle connection of the user's from the
 * {@link GsiConnectionPool} or a new one, given back after a retrieve without error.
 */
final class GridFtpRangedReads implements RangedReads {
    private static final Logger LOG = LoggerFactory.getLogger(GridFtpRangedReads.class);
    private final GridFtpSessions sessions;
    private final GsiConnectionPool connections;

    GridFtpRangedReads(GridFtpSessions sessions, GsiConnectionPool connections) {
        this.sessions = sessions;
        this.connections = connections;
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
                GsiConnectionPool.Lease lease = null;
                boolean reusable = false;
                try {
                    lease = connections.takeOrOpen(origin, login.credential(), login.options());
                    GridFtpConnection conn = lease.connection();
                    if (!holder.set(conn)) {
                        receiver.done(new FetchException(HttpResponseStatus.SERVICE_UNAVAILABLE, "client went away"));
                        return;
                    }
                    conn.retrieve(GridFtpSessions.path(origin), offset, length, false, new GridFtpConnection.Receiver() {
                        @Override
                        public void started() {
                            receiver.opened(); // with the first byte: until then a refused ERET is the client's status
                        }

                        @Override
                        public void receive(byte[] data, int n) throws IOException {
                            receiver.receive(Unpooled.copiedBuffer(data, 0, n)); // data: jGlobus' to reuse
                        }
                    });
                    // a client gone meanwhile closed the connection (the retrieve failed, or had just ended)
                    reusable = holder.release();
                    receiver.done(null);
                } catch (GridFtpException e) {
                    receiver.done(GridFtpSessions.reason(e, origin, ticket));
                } catch (RuntimeException e) {
                    LOG.error("GridFTP partial retrieve of {} failed", ticket.path(), e);
                    receiver.done(FetchException.badGateway("GridFTP client failed: " + e));
                } finally {
                    if (lease != null && reusable) {
                        connections.giveBack(lease);
                    } else if (lease != null) {
                        lease.connection().close(); // after any error, or cut by the client
                    }
                }
            });
        } catch (RejectedExecutionException e) {
            receiver.done(GridFtpSessions.shuttingDown());
        }
        return holder::close;
    }
}
