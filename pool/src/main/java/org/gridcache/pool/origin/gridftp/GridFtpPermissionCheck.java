package org.gridcache.pool.origin.gridftp;

import eu.emi.security.authn.x509.X509Credential;
import io.netty.handler.codec.http.HttpResponseStatus;
import java.net.URI;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.RejectedExecutionException;
import org.gridcache.common.ticket.Ticket;
import org.gridcache.gridftp.GridFtpException;
import org.gridcache.gridftp.GridFtpOptions;
import org.gridcache.gridftp.RemoteEntry;
import org.gridcache.pool.access.DelegatedCredentials;
import org.gridcache.pool.http.FetchException;
import org.gridcache.pool.origin.PermissionCheck;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Whether the ticket's subject may read a {@code gsiftp://} file: an MLST as that subject, on an idle connection of
 * that credential when there is one; the connection goes back to the {@link GsiConnectionPool} for the fetch that
 * usually follows.
 */
final class GridFtpPermissionCheck implements PermissionCheck {
    private static final Logger LOG = LoggerFactory.getLogger(GridFtpPermissionCheck.class);
    private final GridFtpSessions sessions;
    private final GsiConnectionPool connections;

    GridFtpPermissionCheck(GridFtpSessions sessions, GsiConnectionPool connections) {
        this.sessions = sessions;
        this.connections = connections;
    }

    @Override
    public CompletableFuture<Void> check(URI origin, Ticket ticket, DelegatedCredentials.OriginCredential user) {
        X509Credential credential = user.credential();
        CompletableFuture<Void> result = new CompletableFuture<>();
        GridFtpOptions options;
        try {
            options = sessions.options();
        } catch (FetchException e) {
            return CompletableFuture.failedFuture(new DelegatedCredentials.CompletionFailure(e));
        }
        try {
            sessions.execute(() -> {
                GsiConnectionPool.Lease lease = null;
                try {
                    lease = connections.takeOrOpen(origin, credential, options);
                    RemoteEntry entry = lease.connection().stat(GridFtpSessions.path(origin));
                    if (entry.directory()) {
                        throw new FetchException(HttpResponseStatus.NOT_FOUND, "a directory at the origin, not a file");
                    }
                    connections.giveBack(lease);
                    lease = null;
                    result.complete(null);
                } catch (GridFtpException e) {
                    result.completeExceptionally(new DelegatedCredentials.CompletionFailure(GridFtpSessions.reason(e, origin, ticket)));
                } catch (FetchException e) {
                    result.completeExceptionally(new DelegatedCredentials.CompletionFailure(e));
                } catch (RuntimeException e) {
                    LOG.error("GridFTP permission check of {} failed", ticket.path(), e);
                    result.completeExceptionally(new DelegatedCredentials.CompletionFailure(
                            FetchException.badGateway("GridFTP client failed: " + e)));
                } finally {
                    if (lease != null) {
                        lease.connection().close(); // after any error
                    }
                }
            });
        } catch (RejectedExecutionException e) {
            result.completeExceptionally(new DelegatedCredentials.CompletionFailure(GridFtpSessions.shuttingDown()));
        }
        return result;
    }
}
