package org.gridcache.door.write;

import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import org.gridcache.common.origin.OriginEntry;
import org.gridcache.common.security.GridSubject;
import org.gridcache.door.exchange.BodyDeadline;
import org.gridcache.door.exchange.DoorException;
import org.gridcache.door.namespace.GridFtpOriginSessions;
import org.gridcache.door.namespace.OriginIdentity;
import org.gridcache.gridftp.GridFtpConnection;
import org.gridcache.gridftp.GridFtpException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Writes a {@code gsiftp://} origin over one GSI control connection per request, as the identity the user has there
 * (the delegated proxy for {@code credential user}, else the door's host certificate): PUT is STOR streamed from the
 * client's body (one 64 KiB block in memory; a failed or broken-off upload's partial file deleted), MKCOL is MKD,
 * DELETE is DELE or RMD, MOVE is RNFR/RNTO, COPY of a file is a third-party transfer from the server to itself (the
 * only server-side copy GridFTP has; the bytes never pass the door). PUT and COPY write to
 * {@code .gridcache-upload-<uuid>} (or {@code -copy-}) beside the target and rename it over the target when complete:
 * readers never see a part, and a failure (the client broke off, the server refused to read the source) leaves the
 * file that was there as it was; the temporary file is deleted.
 *
 * <p>DELETE of a collection is RMD, not a recursive walk: GridFTP has no recursive delete, and emulating one is a
 * command per member with no way back when one fails halfway (a half-deleted tree). A non-empty collection is
 * refused with the server's own reason (409); clients that delete trees (gfal-rm -r, rclone purge) walk them
 * themselves. COPY of a collection is 502 for the same reason. STOR needs the length beforehand (stream mode ends a
 * file where the data channel closes, so a short body must be told from a complete one): a PUT without a
 * Content-Length is 411.
 */
public final class GridFtpOriginWriter implements OriginWriter {
    private static final Logger LOG = LoggerFactory.getLogger(GridFtpOriginWriter.class);
    private final GridFtpOriginSessions sessions;

    public GridFtpOriginWriter(GridFtpOriginSessions sessions) {
        this.sessions = sessions;
    }

    @Override
    public Written put(GridSubject subject, OriginIdentity as, OriginEntry origin, String path, InputStream body, long length,
                       String contentType) {
        if (length < 0) {
            throw new DoorException(411, "a PUT to GridFTP origin " + origin.name() + " needs a Content-Length");
        }
        ClientBody client = new ClientBody(body);
        String target = remote(origin, path);
        String upload = temporaryBeside(target, "upload");
        try (GridFtpConnection conn = open(as, origin, path)) {
            conn.store(upload, client, length); // a failed store deletes what it wrote
            replace(conn, upload, target);
            return Written.CREATED;
        } catch (GridFtpException e) {
            if (client.failure != null) {
                LOG.debug("PUT {}: the client broke off after {} bytes ({}); the partial file at origin {} is deleted", path,
                        client.read, client.failure.toString(), origin.name());
                throw BodyDeadline.refusal(client.failure, "the client broke off the upload of " + path + " after " + client.read + " bytes");
            }
            if (client.read > length) {
                throw new DoorException(400, "the client sent more than the " + length + " bytes it announced for " + path);
            }
            throw GridFtpOriginSessions.failure(subject, origin, path, e);
        }
    }

    @Override
    public Written mkcol(GridSubject subject, OriginIdentity as, OriginEntry origin, String path) {
        try (GridFtpConnection conn = open(as, origin, path)) {
            conn.mkdir(remote(origin, path));
            return Written.CREATED;
        } catch (GridFtpException e) {
            if (e.kind() == GridFtpException.Kind.EXISTS) {
                throw new DoorException(405, "something exists at " + path + " already (origin " + origin.name() + ")");
            }
            throw GridFtpOriginSessions.failure(subject, origin, path, e);
        }
    }

    @Override
    public Written delete(GridSubject subject, OriginIdentity as, OriginEntry origin, String path, boolean collection) {
        try (GridFtpConnection conn = open(as, origin, path)) {
            if (collection) {
                conn.rmdir(remote(origin, path));
            } else {
                conn.delete(remote(origin, path));
            }
            return Written.NO_CONTENT;
        } catch (GridFtpException e) {
            throw GridFtpOriginSessions.failure(subject, origin, path, e);
        }
    }

    @Override
    public Written move(GridSubject subject, OriginIdentity as, OriginEntry origin, String from, String to, boolean collection,
                        boolean overwrite) {
        try (GridFtpConnection conn = open(as, origin, from)) {
            // rename(2) replaces a file, so Overwrite: F is the door's to keep
            refuseExisting(conn, origin, to, overwrite);
            conn.rename(remote(origin, from), remote(origin, to));
            return Written.CREATED;
        } catch (GridFtpException e) {
            throw GridFtpOriginSessions.failure(subject, origin, from, e);
        }
    }

    @Override
    public Written copy(GridSubject subject, OriginIdentity as, OriginEntry origin, String from, String to, boolean collection,
                        boolean overwrite, boolean deep) {
        if (collection) {
            throw DoorException.badGateway("COPY of the collection " + from + " is not supported by GridFTP origin " + origin.name()
                    + " (GridFTP copies files only, server to server)");
        }
        String target = remote(origin, to);
        String copy = temporaryBeside(target, "copy");
        try (GridFtpConnection source = open(as, origin, from); GridFtpConnection destination = open(as, origin, to)) {
            refuseExisting(destination, origin, to, overwrite);
            source.copyTo(remote(origin, from), destination, copy); // a failed copy deletes what it wrote
            replace(destination, copy, target);
            return Written.CREATED;
        } catch (GridFtpException e) {
            throw GridFtpOriginSessions.failure(subject, origin, from, e);
        }
    }

    /**
     * A name beside {@code target} for the bytes of a STOR or a copy until they are complete: STOR truncates its file
     * first, and a failed transfer's partial file is deleted, so writing to the target itself would lose the file that
     * was there whenever an upload broke off or a copy was refused.
     */
    private static String temporaryBeside(String target, String what) {
        int slash = target.lastIndexOf('/');
        return target.substring(0, slash + 1) + ".gridcache-" + what + "-" + java.util.UUID.randomUUID();
    }

    /** RNFR/RNTO of the complete temporary file over the target (rename(2): atomic); the temporary file deleted if not. */
    private static void replace(GridFtpConnection conn, String temporary, String target) throws GridFtpException {
        try {
            conn.rename(temporary, target);
        } catch (GridFtpException e) {
            try {
                conn.delete(temporary);
            } catch (GridFtpException again) {
                LOG.warn("cannot delete {} after a failed rename: {}", temporary, again.getMessage());
            }
            throw e;
        }
    }

    /** 412 when something is at {@code to} and the client said {@code Overwrite: F}. */
    private static void refuseExisting(GridFtpConnection conn, OriginEntry origin, String to, boolean overwrite)
            throws GridFtpException {
        if (overwrite) {
            return;
        }
        try {
            conn.stat(remote(origin, to));
        } catch (GridFtpException e) {
            if (e.kind() == GridFtpException.Kind.NOT_FOUND) {
                return;
            }
            throw e;
        }
        throw new DoorException(412, "the destination " + to + " exists and Overwrite is F (origin " + origin.name() + ")");
    }

    private GridFtpConnection open(OriginIdentity as, OriginEntry origin, String path) throws GridFtpException {
        return sessions.open(as, origin, URI.create(origin.urlOf(path)));
    }

    private static String remote(OriginEntry origin, String path) {
        return GridFtpOriginSessions.remotePath(URI.create(origin.urlOf(path)));
    }

    /**
     * The client's body as the store reads it, remembering how much it gave and whether reading it failed: a failed
     * store is then told apart as the client's doing (400) or the origin's.
     */
    private static final class ClientBody extends FilterInputStream {
        private volatile long read;
        private volatile IOException failure;

        ClientBody(InputStream in) {
            super(in);
        }

        @Override
        public int read() throws IOException {
            try {
                int b = super.read();
                if (b >= 0) {
                    read++;
                }
                return b;
            } catch (IOException e) {
                failure = e;
                throw e;
            }
        }

        @Override
        public int read(byte[] b, int off, int len) throws IOException {
            try {
                int n = super.read(b, off, len);
                if (n > 0) {
                    read += n;
                }
                return n;
            } catch (IOException e) {
                failure = e;
                throw e;
            }
        }
    }
}
