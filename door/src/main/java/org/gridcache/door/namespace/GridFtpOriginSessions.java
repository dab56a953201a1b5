package org.gridcache.door.namespace;

import eu.emi.security.authn.x509.X509Credential;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import org.gridcache.common.OriginEntry;
import org.gridcache.common.security.GridSubject;
import org.gridcache.door.http.DoorException;
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
 */
public final class GridFtpOriginSessions {
    private static final Logger LOG = LoggerFactory.getLogger(GridFtpOriginSessions.class);
    private static final Duration REPLY_TIMEOUT = Duration.ofSeconds(30);
    /** One stream, DCAU, clear data channels: the options both connections of a third-party copy must share. */
    private static final GridFtpOptions OPTIONS = new GridFtpOptions(1, true, GridFtpOptions.Protection.CLEAR, REPLY_TIMEOUT);
    private final X509Credential host;

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
}
