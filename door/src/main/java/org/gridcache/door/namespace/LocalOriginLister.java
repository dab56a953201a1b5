package org.gridcache.door.namespace;

import java.io.IOException;
import java.net.URLConnection;
import java.nio.file.AccessDeniedException;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.List;
import org.gridcache.common.origin.FileOriginRoots;
import org.gridcache.common.GridPath;
import org.gridcache.common.origin.LocalOriginRoot;
import org.gridcache.common.origin.OriginEntry;
import org.gridcache.common.security.GridSubject;
import org.gridcache.door.exchange.DoorException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Lists a {@code file://} origin from the local file system, walking from the origin root without following any
 * symbolic link ({@link LocalOriginRoot}, the walk pools read with): the namespace holds the root's directories and
 * regular files only. A symbolic link below the root, wherever it points, and a FIFO, socket or device are not part
 * of it: left out of listings, and "not found" (with the reason) when asked for by name, since no pool would serve
 * them. The door reads the files itself: every subject sees the same. An origin whose root lies in no directory the
 * door's administrator allows ({@link FileOriginRoots}, {@code --file-origin-root}) is refused with 403, whoever
 * wrote the mount table.
 */
public final class LocalOriginLister implements OriginLister {
    private static final Logger LOG = LoggerFactory.getLogger(LocalOriginLister.class);
    private final LocalOrigins origins;

    /** {@code roots}: the directories this door lets {@code file://} origins lie in ({@code --file-origin-root}). */
    public LocalOriginLister(FileOriginRoots roots) {
        this.origins = new LocalOrigins(roots);
    }

    @Override
    public NamespaceEntry stat(GridSubject subject, OriginIdentity as, OriginEntry origin, String path) {
        LocalOriginRoot root = origins.root(origin);
        try {
            return describe(path, GridPath.name(path), root.stat(LocalOrigins.names(origin, path)));
        } catch (IOException e) {
            throw refusal(origin, path, e);
        }
    }

    @Override
    public List<NamespaceEntry> list(GridSubject subject, OriginIdentity as, OriginEntry origin, String dir) {
        LocalOriginRoot root = origins.root(origin);
        List<NamespaceEntry> out = new ArrayList<>();
        try {
            for (LocalOriginRoot.Entry child : root.list(LocalOrigins.names(origin, dir))) {
                out.add(describe(GridPath.child(dir, child.name()), child.name(), child.attributes()));
            }
        } catch (NotDirectoryException e) {
            throw new DoorException(409, "not a collection: " + dir);
        } catch (IOException e) {
            throw refusal(origin, dir, e);
        }
        return out;
    }

    private static DoorException refusal(OriginEntry origin, String path, IOException e) {
        if (e instanceof LocalOriginRoot.NotServed) {
            return new DoorException(404, "not found: " + path + " (" + e.getMessage() + ")");
        }
        if (e instanceof NoSuchFileException || e instanceof NotDirectoryException) {
            return DoorException.notFound(path);
        }
        if (e instanceof AccessDeniedException) {
            return new DoorException(403, "origin refuses access to " + path);
        }
        LOG.warn("cannot read {} in origin {}: {}", path, origin.name(), e.toString());
        return DoorException.badGateway("origin " + origin.name() + " cannot read " + path);
    }

    private static NamespaceEntry describe(String path, String name, BasicFileAttributes attrs) {
        long mtime = attrs.lastModifiedTime().toMillis();
        if (attrs.isDirectory()) {
            return new NamespaceEntry(path, name, true, -1, mtime, null, null);
        }
        return new NamespaceEntry(path, name, false, attrs.size(), mtime, NamespaceEntry.tagOf(attrs.size(), mtime), contentType(name));
    }

    private static String contentType(String name) {
        String guessed = URLConnection.guessContentTypeFromName(name);
        return guessed != null ? guessed : "application/octet-stream";
    }
}
