package org.gridcache.door.namespace;

import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import org.gridcache.common.GridPath;
import org.gridcache.common.origin.OriginEntry;
import org.gridcache.common.security.GridSubject;
import org.gridcache.gridftp.GridFtpConnection;
import org.gridcache.gridftp.GridFtpException;
import org.gridcache.gridftp.RemoteEntry;

/**
 * Lists {@code gsiftp://} origins with MLST (one entry) and MLSD (a directory) as the identity the requesting user has
 * there ({@link OriginIdentities}): the proxy that user delegated to this door for the session's VOMS attributes, or,
 * for service origins, the door's host certificate, on a control connection kept from the last lookup of that server as
 * that identity when there is one ({@link GridFtpOriginSessions#take}). Failures: no such path → 404, the server refuses the credential or
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
        RemoteEntry e = converse(subject, as, origin, path, url, conn -> conn.stat(GridFtpOriginSessions.remotePath(url)));
        return entry(e, path, GridPath.name(path));
    }

    @Override
    public List<NamespaceEntry> list(GridSubject subject, OriginIdentity as, OriginEntry origin, String dir) {
        URI url = URI.create(origin.urlOf(dir));
        List<NamespaceEntry> out = new ArrayList<>();
        for (RemoteEntry e : converse(subject, as, origin, dir, url, conn -> conn.list(GridFtpOriginSessions.remotePath(url)))) {
            out.add(entry(e, GridPath.child(dir, e.name()), e.name()));
        }
        return out;
    }

    private interface Conversation<T> {
        T with(GridFtpConnection conn) throws GridFtpException;
    }

    /**
     * {@code conversation} on a kept or new connection, kept again when the server answered it, a "no such file" or
     * a refusal included (the control channel is fine); closed after a broken connection or a timeout.
     */
    private <T> T converse(GridSubject subject, OriginIdentity as, OriginEntry origin, String path, URI url, Conversation<T> conversation) {
        GridFtpConnection conn = null;
        try {
            conn = sessions.take(as, origin, url);
            T answer = conversation.with(conn);
            sessions.giveBack(as, url, conn);
            return answer;
        } catch (GridFtpException e) {
            if (conn != null) {
                if (e.kind() == GridFtpException.Kind.NOT_FOUND || e.kind() == GridFtpException.Kind.DENIED) {
                    sessions.giveBack(as, url, conn);
                } else {
                    conn.close();
                }
            }
            throw GridFtpOriginSessions.failure(subject, origin, path, e);
        } catch (RuntimeException e) {
            if (conn != null) {
                conn.close();
            }
            throw e;
        }
    }

    private static NamespaceEntry entry(RemoteEntry e, String path, String name) {
        return new NamespaceEntry(path, name, e.directory(), e.directory() ? -1 : e.size(), e.mtimeMillis(), null, null);
    }
}
