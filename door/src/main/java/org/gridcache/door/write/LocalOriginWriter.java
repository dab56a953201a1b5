package org.gridcache.door.write;

import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystemException;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;
import org.gridcache.common.origin.FileOriginRoots;
import org.gridcache.common.origin.LocalOriginRoot;
import org.gridcache.common.origin.LocalOriginWrites;
import org.gridcache.common.origin.OriginEntry;
import org.gridcache.common.security.GridSubject;
import org.gridcache.door.exchange.BodyDeadline;
import org.gridcache.door.exchange.DoorException;
import org.gridcache.door.namespace.LocalOrigins;
import org.gridcache.door.namespace.OriginIdentity;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Writes a {@code file://} origin as the door's own user, inside its root and without following a link
 * ({@link LocalOriginWrites}); an origin outside every {@code --file-origin-root} is refused (403) as for reads. A
 * PUT goes to a temporary file beside its target and is renamed over it only when the whole body arrived: readers
 * never see a part, and a client that breaks off leaves nothing (the temporary file is deleted).
 */
public final class LocalOriginWriter implements OriginWriter {
    private static final Logger LOG = LoggerFactory.getLogger(LocalOriginWriter.class);
    private static final int CHUNK = 64 * 1024;
    private final LocalOrigins origins;

    public LocalOriginWriter(FileOriginRoots roots) {
        this.origins = new LocalOrigins(roots);
    }

    @Override
    public Written put(GridSubject subject, OriginIdentity as, OriginEntry origin, String path, InputStream body, long length,
                       String contentType) {
        LocalOriginWrites writes = writes(origin);
        try (LocalOriginWrites.Upload upload = writes.upload(LocalOrigins.names(origin, path))) {
            long received = copy(body, upload, length, path);
            if (length >= 0 && received != length) {
                throw new DoorException(400, "the client sent " + received + " of " + length + " bytes for " + path);
            }
            return Written.createdOrReplaced(upload.commit());
        } catch (FileAlreadyExistsException e) {
            throw new DoorException(409, "a collection exists at " + path);
        } catch (IOException e) {
            throw refusal(origin, path, e);
        }
    }

    /** The body into the upload; a read failure is the client's (400), a write failure the origin's. */
    private static long copy(InputStream body, LocalOriginWrites.Upload upload, long length, String path) throws IOException {
        byte[] chunk = new byte[CHUNK];
        long total = 0;
        while (true) {
            int n;
            try {
                n = body.read(chunk);
            } catch (IOException e) {
                throw BodyDeadline.refusal(e, "the client broke off the upload of " + path + " after " + total + " bytes");
            }
            if (n < 0) {
                return total;
            }
            total += n;
            if (length >= 0 && total > length) {
                throw new DoorException(400, "the client sent more than the " + length + " bytes it announced for " + path);
            }
            LocalOriginWrites.writeFully(upload.channel(), ByteBuffer.wrap(chunk, 0, n));
        }
    }

    @Override
    public Written mkcol(GridSubject subject, OriginIdentity as, OriginEntry origin, String path) {
        try {
            writes(origin).mkcol(LocalOrigins.names(origin, path));
            return Written.CREATED;
        } catch (FileAlreadyExistsException e) {
            throw new DoorException(405, "something exists at " + path + " already");
        } catch (IOException e) {
            throw refusal(origin, path, e);
        }
    }

    @Override
    public Written delete(GridSubject subject, OriginIdentity as, OriginEntry origin, String path, boolean collection) {
        try {
            writes(origin).delete(LocalOrigins.names(origin, path));
            return Written.NO_CONTENT;
        } catch (IOException e) {
            throw refusal(origin, path, e);
        }
    }

    @Override
    public Written move(GridSubject subject, OriginIdentity as, OriginEntry origin, String from, String to, boolean collection,
                        boolean overwrite) {
        try {
            return Written.createdOrReplaced(writes(origin).move(LocalOrigins.names(origin, from), LocalOrigins.names(origin, to), overwrite));
        } catch (IOException e) {
            throw refusal(origin, from, e);
        }
    }

    @Override
    public Written copy(GridSubject subject, OriginIdentity as, OriginEntry origin, String from, String to, boolean collection,
                        boolean overwrite, boolean deep) {
        try {
            return Written.createdOrReplaced(writes(origin).copy(LocalOrigins.names(origin, from), LocalOrigins.names(origin, to), overwrite, deep));
        } catch (IOException e) {
            throw refusal(origin, from, e);
        }
    }

    private LocalOriginWrites writes(OriginEntry origin) {
        return new LocalOriginWrites(origins.root(origin));
    }

    private static DoorException refusal(OriginEntry origin, String path, IOException e) {
        if (e instanceof LocalOriginWrites.MissingParent) {
            return new DoorException(409, "conflict: " + e.getMessage() + " (" + path + ")");
        }
        if (e instanceof LocalOriginWrites.DestinationExists) {
            return new DoorException(412, e.getMessage());
        }
        if (e instanceof LocalOriginRoot.NotServed) {
            return new DoorException(403, "refused for " + path + ": " + e.getMessage());
        }
        if (e instanceof NoSuchFileException || e instanceof NotDirectoryException) {
            return DoorException.notFound(path);
        }
        if (e instanceof AccessDeniedException) {
            return new DoorException(403, "origin refuses writing " + path);
        }
        if (e instanceof FileSystemException f && f.getReason() != null && f.getReason().contains("No space left")) {
            return new DoorException(507, "origin " + origin.name() + " is full");
        }
        if (e instanceof FileSystemException f && f.getReason() != null && f.getReason().contains("Invalid argument")) {
            return new DoorException(409, "conflict: cannot move a collection into itself (" + path + ")");
        }
        LOG.warn("cannot write {} in origin {}: {}", path, origin.name(), e.toString());
        return DoorException.badGateway("origin " + origin.name() + " cannot write " + path);
    }
}
