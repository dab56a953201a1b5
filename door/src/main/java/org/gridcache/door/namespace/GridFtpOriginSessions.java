package org.gridcache.door.namespace;

import eu.emi.security.authn.x509.X509Credential;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.atomic.LongAdder;
import org.gridcache.common.IdleConnectionPool;
import org.gridcache.common.origin.OriginEntry;
import org.gridcache.common.security.GridSubject;
import org.gridcache.door.exchange.DoorException;
import org.gridcache.gridftp.GridFtp;
import org.gridcache.gridftp.GridFtpConnection;
import org.gridcache.gridftp.GridFtpException;
import org.gridcache.gridftp.GridFtpOptions;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What the door's GridFTP lister and writer share: a control connection to a {@code gsiftp://} origin as the identity
 * the user has there (the delegated proxy, or the door's host certificate for service mounts: GSI needs a credential
 * either way), the remote path of a URL, and a {@link GridFtpException} turned into the client's status and one line.
 *
 * <p>The lister's connections are kept idle for the next lookup of the same server as the same {@link OriginIdentity}
 * ({@link #take}, {@link #giveBack}): a redirect to a file not yet listed then costs one MLST round trip, not a GSI
 * handshake (issue 14 P10). They are NOOP-checked before reuse, closed after {@link #IDLE} unused, at most
 * {@link #PER_KEY} per identity and server and {@link #TOTAL} in all; the writer opens its own for each operation.
 */
public final class GridFtpOriginSessions implements AutoCloseable {
    static final Duration IDLE = Duration.ofSeconds(60);
    static final int PER_KEY = 4;
    static final int TOTAL = 64;
    private static final Logger LOG = LoggerFactory.getLogger(GridFtpOriginSessions.class);
    private static final Duration REPLY_TIMEOUT = Duration.ofSeconds(30);
    /** One stream, DCAU, clear data channels: the options both connections of a third-party copy must share. */
    private static final GridFtpOptions OPTIONS = new GridFtpOptions(1, true, GridFtpOptions.Protection.CLEAR, REPLY_TIMEOUT);
    private final X509Credential host;
    private final IdleConnectionPool<Key, GridFtpConnection> idle = new IdleConnectionPool<Key, GridFtpConnection>(IDLE, PER_KEY, TOTAL,
            GridFtpConnection::alive, GridFtpConnection::close, System::nanoTime).sweptBy("door-gridftp-idle-connections");
    private final LongAdder opened = new LongAdder();
    private final LongAdder reused = new LongAdder();

    /** Whom a connection was authenticated as, and where to: an identity is equal by its key (renewals differ). */
    private record Key(OriginIdentity as, String host, int port) {
    }

    /**
     * {@code host}: the door's host credential (null without TLS); {@code caDir}: the CA directory jGlobus trusts
     * (null: none configured).
     */
    public GridFtpOriginSessions(X509Credential host, Path caDir) {
        this.host = host;
        if (caDir != null) {
            GridFtp.configure(caDir);
        }
    }

    /**
     * An idle connection to the server of {@code url} as {@code as}, else a new one; give it back with {@link
     * #giveBack} after a conversation the server answered (a 550 included), close it after any other failure.
     */
    public GridFtpConnection take(OriginIdentity as, OriginEntry origin, URI url) throws GridFtpException {
        GridFtpConnection kept = idle.take(key(as, url));
        if (kept != null) {
            reused.increment();
            return kept;
        }
        GridFtpConnection opened = open(as, origin, url);
        this.opened.increment();
        return opened;
    }

    /** Keeps {@code conn}, taken for {@code as} and {@code url}, for the next lookup. */
    public void giveBack(OriginIdentity as, URI url, GridFtpConnection conn) {
        idle.give(key(as, url), conn);
    }

    /** Connections kept idle now. */
    public long idle() {
        return idle.idle();
    }

    /** Connections the lister opened (each a GSI handshake) since the door started. */
    public long opened() {
        return opened.sum();
    }

    /** Lookups that took an idle connection instead. */
    public long reused() {
        return reused.sum();
    }

    private static Key key(OriginIdentity as, URI url) {
        return new Key(as, url.getHost().toLowerCase(java.util.Locale.ROOT), url.getPort() > 0 ? url.getPort() : OriginEntry.GSIFTP_DEFAULT_PORT);
    }

    /** A control connection to the server of {@code url} as {@code as}; the caller closes it. */
    public GridFtpConnection open(OriginIdentity as, OriginEntry origin, URI url) throws GridFtpException {
        X509Credential credential = as.delegated() ? as.credential() : credentialOfDoor(origin);
        int port = url.getPort() > 0 ? url.getPort() : OriginEntry.GSIFTP_DEFAULT_PORT;
        return GridFtpConnection.open(url.getHost(), port, credential.getKey(), credential.getCertificateChain(), OPTIONS);
    }

    /** What the door presents as itself: its host certificate (none and service mounts alike: GSI needs one). */
    private X509Credential credentialOfDoor(OriginEntry origin) {
        if (host == null) {
            throw DoorException.badGateway("origin " + origin.name() + ": this door has no host credential, which GridFTP needs");
        }
        return host;
    }

    /** The path the GridFTP server knows {@code url} by ("/" for none). */
    public static String remotePath(URI url) {
        String p = url.getPath();
        return p == null || p.isEmpty() ? "/" : p;
    }

    /** The client's answer to {@code e}, met doing something to {@code path} for {@code subject}: its status, one line. */
    public static DoorException failure(GridSubject subject, OriginEntry origin, String path, GridFtpException e) {
        if (e.kind() == GridFtpException.Kind.NOT_FOUND) {
            return DoorException.notFound(path);
        }
        if (e.httpStatus() >= 500) {
            LOG.warn("origin {}: {}", origin.name(), e.getMessage());
        }
        return new DoorException(e.httpStatus(), e.reason(origin.name(), subject.name(), path));
    }

    @Override
    public void close() {
        idle.close();
    }
}
