package org.gridcache.pool.origin.gridftp;

import eu.emi.security.authn.x509.X509Credential;
import io.netty.handler.codec.http.HttpResponseStatus;
import java.net.URI;
import java.nio.file.Path;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;
import org.gridcache.common.origin.CredentialMode;
import org.gridcache.common.origin.OriginEntry;
import org.gridcache.common.settings.ClusterSettings.Keys;
import org.gridcache.common.settings.ClusterSettings;
import org.gridcache.common.ticket.Ticket;
import org.gridcache.gridftp.GridFtp;
import org.gridcache.gridftp.GridFtpConnection;
import org.gridcache.gridftp.GridFtpException;
import org.gridcache.gridftp.GridFtpOptions;
import org.gridcache.pool.access.DelegatedCredentials;
import org.gridcache.pool.http.FetchException;
import org.gridcache.pool.origin.OriginFetcher;

/**
 * What every GridFTP conversation of the pool shares — the fetch, the ranged read and the permission check: the
 * threads (jGlobus blocks), the credential to present, the transfer options from the cluster settings, opening a
 * connection, and the GridFTP failure as the pool answers it.
 */
final class GridFtpSessions implements AutoCloseable {
    private final DelegatedCredentials credentials;
    private final X509Credential host;
    private final Supplier<ClusterSettings> settings;
    private final AtomicInteger threads = new AtomicInteger();
    private final ExecutorService executor = Executors.newCachedThreadPool(r -> {
        Thread t = new Thread(r, "gridftp-fetcher-" + threads.incrementAndGet());
        t.setDaemon(true);
        return t;
    });

    /** {@code credentials} and {@code host} null: a pool without TLS, which cannot read GridFTP origins. */
    GridFtpSessions(DelegatedCredentials credentials, X509Credential host, Path caDir, Supplier<ClusterSettings> settings) {
        this.credentials = credentials;
        this.host = host;
        this.settings = settings;
        if (caDir != null) {
            GridFtp.configure(caDir);
        }
    }

    static FetchException shuttingDown() {
        return new FetchException(HttpResponseStatus.SERVICE_UNAVAILABLE, "pool is shutting down");
    }

    ClusterSettings settings() {
        return settings.get();
    }

    /** Runs blocking GridFTP work on the pool's GridFTP threads. */
    void execute(Runnable work) throws RejectedExecutionException {
        executor.execute(work);
    }

    /** What one conversation for {@code ticket} presents and uses. */
    record Login(X509Credential credential, GridFtpOptions options) {
    }

    Login login(Ticket ticket) throws FetchException {
        return new Login(credentialFor(ticket), options());
    }

    private X509Credential credentialFor(Ticket ticket) throws FetchException {
        if (credentials == null && ticket.credential() == CredentialMode.USER) {
            throw FetchException.badGateway("this pool has no TLS credentials: it cannot read GridFTP origins");
        }
        return DelegatedCredentials.choose(ticket, credentials, null, host, DelegatedCredentials.OriginCredential::credential);
    }

    GridFtpOptions options() throws FetchException {
        ClusterSettings s = settings.get();
        try {
            return new GridFtpOptions(s.get(Keys.GRIDFTP_STREAMS), s.get(Keys.GRIDFTP_DCAU), GridFtpOptions.Protection.parse(s.get(Keys.GRIDFTP_PROTECTION).label()),
                    s.get(Keys.GRIDFTP_TIMEOUT));
        } catch (IllegalArgumentException e) {
            throw FetchException.badGateway("unusable GridFTP settings: " + e.getMessage());
        }
    }

    static GridFtpConnection open(URI origin, X509Credential credential, GridFtpOptions options) throws GridFtpException {
        int port = origin.getPort() > 0 ? origin.getPort() : OriginEntry.GSIFTP_DEFAULT_PORT;
        return GridFtpConnection.open(origin.getHost(), port, credential.getKey(), credential.getCertificateChain(), options);
    }

    static String path(URI origin) {
        String p = origin.getPath();
        return p == null || p.isEmpty() ? "/" : p;
    }

    /** The GridFTP failure as the pool answers it: like an HTTP origin's. */
    static FetchException reason(GridFtpException e, URI origin, Ticket ticket) {
        return new FetchException(HttpResponseStatus.valueOf(e.httpStatus()),
                e.reason(OriginFetcher.describe(origin), ticket.subject(), ticket.path()));
    }

    @Override
    public void close() {
        executor.shutdownNow();
    }
}
