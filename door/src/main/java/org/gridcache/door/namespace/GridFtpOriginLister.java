package org.gridcache.door.namespace;

import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import org.gridcache.common.GridPath;
import org.gridcache.common.OriginEntry;
import org.gridcache.common.security.GridSubject;
import org.gridcache.gridftp.GridFtpConnection;
import org.gridcache.gridftp.GridFtpException;
import org.gridcache.gridftp.RemoteEntry;

/**
 * Lists {@code gsiftp://} origins with MLST (one entry) and MLSD (a directory) as the identity the requesting user has
 * there ({@link OriginIdentities}): the proxy that user delegated to this door for the session's VOMS attributes, or,
 * for service origins, the door's host certificate. Failures: no such path → 404, the server refuses the credential or
 * the access → 403 with its reason, server down or failing → 502.
 */
public final class GridFtpOriginLister implements OriginLister {
    private final GridFtpOriginSessions sessions;

    public GridFtpOriginLister(GridFtpOriginSessions sessions) {
        this.sessions = sessions;
    }

    @Override
    public NamespaceEntry stat(GridSubject subject, OriginIdentity as, OriginEntry origin, String path) {
        URI url = URI.create(origin.urlOf(path));
        try (GridFtpConnection conn = sessions.open(as, origin, url)) {
            RemoteEntry e = conn.stat(GridFtpOriginSessions.remotePath(url));
            return entry(e, path, GridPath.name(path));
        } catch (GridFtpException e) {
            throw GridFtpOriginSessions.failure(subject, origin, path, e);
        }
    }

    @Override
    public List<NamespaceEntry> list(GridSubject subject, OriginIdentity as, OriginEntry origin, String dir) {
        URI url = URI.create(origin.urlOf(dir));
        try (GridFtpConnection conn = sessions.open(as, origin, url)) {
            List<NamespaceEntry> out = new ArrayList<>();
            for (RemoteEntry e : conn.list(GridFtpOriginSessions.remotePath(url))) {
                out.add(entry(e, GridPath.child(dir, e.name()), e.name()));
            }
            return out;
        } catch (GridFtpException e) {
            throw GridFtpOriginSessions.failure(subject, origin, dir, e);
        }
    }

    private static NamespaceEntry entry(RemoteEntry e, String path, String name) {
        return new NamespaceEntry(path, name, e.directory(), e.directory() ? -1 : e.size(), e.mtimeMillis(), null, null);
    }
}
