package org.gridcache.door.namespace;

import eu.emi.security.authn.x509.X509Credential;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.gridcache.common.GridPath;
import org.gridcache.common.OriginEntry;
import org.gridcache.common.security.GridSubject;
import org.gridcache.door.http.DoorException;
import org.gridcache.gridftp.GridFtp;
import org.gridcache.gridftp.GridFtpConnection;
import org.gridcache.gridftp.GridFtpException;
import org.gridcache.gridftp.GridFtpOptions;
import org.gridcache.gridftp.RemoteEntry;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Lists {@code gsiftp://} origins with MLST (one entry) and MLSD (a directory) as the identity the requesting user has
 * there ({@link OriginIdentities}): the proxy that user delegated to this door for the session's VOMS attributes, or,
 * for service origins, the door's host certificate. Failures: no such path → 404, the server refuses the credential or
 * the access → 403 with its reason, server down or failing → 502.
 */
public final class GridFtpOriginLister implements OriginLister {
    private static final Logger LOG = LoggerFactory.getLogger(GridFtpOriginLister.class);
    private static final Duration REPLY_TIMEOUT = Duration.ofSeconds(30);
    private final X509Credential host;

    /**
     * {@code host}: the door's host credential (null without TLS); {@code caDir}: the CA directory jGlobus trusts
     * (null: none configured).
     */
    public GridFtpOriginLister(X509Credential host, Path caDir) {
        this.host = host;
        if (caDir != null) {
            GridFtp.configure(caDir);
        }
    }

    @Override
    public NamespaceEntry stat(GridSubject subject, OriginIdentity as, OriginEntry origin, String path) {
        URI url = URI.create(origin.urlOf(path));
        try (GridFtpConnection conn = open(as, origin, url)) {
            RemoteEntry e = conn.stat(remotePath(url));
            return entry(e, path, GridPath.name(path));
        } catch (GridFtpException e) {
            throw failure(subject, origin, path, e);
        }
    }

    @Override
    public List<NamespaceEntry> list(GridSubject subject, OriginIdentity as, OriginEntry origin, String dir) {
        URI url = URI.create(origin.urlOf(dir));
        try (GridFtpConnection conn = open(as, origin, url)) {
            List<NamespaceEntry> out = new ArrayList<>();
            for (RemoteEntry e : conn.list(remotePath(url))) {
                out.add(entry(e, GridPath.child(dir, e.name()), e.name()));
            }
            return out;
        } catch (GridFtpException e) {
            throw failure(subject, origin, dir, e);
        }
    }

    private static NamespaceEntry entry(RemoteEntry e, String path, String name) {
        return new NamespaceEntry(path, name, e.directory(), e.directory() ? -1 : e.size(), e.mtimeMillis(), null, null);
    }

    private GridFtpConnection open(OriginIdentity as, OriginEntry origin, URI url) throws GridFtpException {
        X509Credential credential = as.delegated() ? as.credential() : credentialOfDoor(origin);
        int port = url.getPort() > 0 ? url.getPort() : OriginEntry.GSIFTP_DEFAULT_PORT;
        GridFtpOptions options = new GridFtpOptions(1, true, GridFtpOptions.Protection.CLEAR, REPLY_TIMEOUT);
        return GridFtpConnection.open(url.getHost(), port, credential.getKey(), credential.getCertificateChain(), options);
    }

    /** What the door presents as itself: its host certificate (none and service mounts alike: GSI needs one). */
    private X509Credential credentialOfDoor(OriginEntry origin) {
        if (host == null) {
            throw DoorException.badGateway("origin " + origin.name() + ": this door has no host credential, which GridFTP needs");
        }
        return host;
    }

    private static String remotePath(URI url) {
        String p = url.getPath();
        return p == null || p.isEmpty() ? "/" : p;
    }

    private DoorException failure(GridSubject subject, OriginEntry origin, String path, GridFtpException e) {
        if (e.kind() == GridFtpException.Kind.NOT_FOUND) {
            return DoorException.notFound(path);
        }
        if (e.httpStatus() >= 500) {
            LOG.warn("origin {}: {}", origin.name(), e.getMessage());
        }
        return new DoorException(e.httpStatus(), e.reason(origin.name(), subject.name(), path));
    }
}
