package org.gridcache.door.namespace;

import java.io.IOException;
import java.net.URI;
import java.net.URLConnection;
import java.nio.file.AccessDeniedException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.List;
import org.gridcache.common.GridPath;
import org.gridcache.common.OriginEntry;
import org.gridcache.common.security.GridSubject;
import org.gridcache.door.http.DoorException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Lists a {@code file://} origin from the local file system. Nothing outside the origin root is ever reported: a
 * path is resolved, then its real path (symlinks followed) must still lie under the root's real path; a symlink that
 * points out of the root looks like an absent file. The door reads the files itself: every subject sees the same.
 */
public final class LocalOriginLister implements OriginLister {
    private static final Logger LOG = LoggerFactory.getLogger(LocalOriginLister.class);

    @Override
    public NamespaceEntry stat(GridSubject subject, OriginEntry origin, String path) {
        Path root = root(origin);
        Path file = inside(root, origin, path);
        return describe(root, file, path, GridPath.name(path));
    }

    @Override
    public List<NamespaceEntry> list(GridSubject subject, OriginEntry origin, String dir) {
        Path root = root(origin);
        Path directory = inside(root, origin, dir);
        List<NamespaceEntry> out = new ArrayList<>();
        try (DirectoryStream<Path> children = Files.newDirectoryStream(staysInside(root, directory, dir))) {
            for (Path child : children) {
                String name = child.getFileName().toString();
                try {
                    out.add(describe(root, child, GridPath.child(dir, name), name));
                } catch (DoorException e) {
                    // vanished meanwhile, unreadable, or a link leaving the root: not part of the listing
                }
            }
        } catch (NotDirectoryException e) {
            throw new DoorException(409, "not a collection: " + dir);
        } catch (NoSuchFileException e) {
            throw DoorException.notFound(dir);
        } catch (AccessDeniedException e) {
            throw new DoorException(403, "origin refuses to list " + dir);
        } catch (IOException e) {
            LOG.warn("cannot list {} in origin {}: {}", dir, origin.name(), e.toString());
            throw DoorException.badGateway("origin " + origin.name() + " cannot list " + dir);
        }
        return out;
    }

    private static Path root(OriginEntry origin) {
        try {
            return Path.of(URI.create(origin.url())).toRealPath();
        } catch (IOException | IllegalArgumentException e) {
            throw DoorException.badGateway("origin " + origin.name() + " is unavailable (its root directory is missing)");
        }
    }

    /** The file of {@code path} below the root; refuses anything that would land outside it. */
    private static Path inside(Path root, OriginEntry origin, String path) {
        String rest = GridPath.relativize(path, origin.prefix());
        Path resolved;
        try {
            resolved = rest.equals("/") ? root : root.resolve(rest.substring(1)).normalize();
        } catch (InvalidPathException e) {
            throw DoorException.notFound(path);
        }
        if (!resolved.startsWith(root)) {
            throw DoorException.notFound(path);
        }
        return resolved;
    }

    /** The real path of {@code file} (symlinks followed) if it is still below the root; else "not found". */
    private static Path staysInside(Path root, Path file, String path) throws IOException {
        Path real = file.toRealPath();
        if (!real.startsWith(root)) {
            throw DoorException.notFound(path); // a symlink that leaves the origin
        }
        return real;
    }

    private static NamespaceEntry describe(Path root, Path file, String path, String name) {
        try {
            BasicFileAttributes attrs = Files.readAttributes(staysInside(root, file, path), BasicFileAttributes.class);
            long mtime = attrs.lastModifiedTime().toMillis();
            if (attrs.isDirectory()) {
                return new NamespaceEntry(path, name, true, -1, mtime, null, null);
            }
            String etag = "\"" + Long.toHexString(attrs.size()) + "-" + Long.toHexString(mtime) + "\"";
            return new NamespaceEntry(path, name, false, attrs.size(), mtime, etag, contentType(name));
        } catch (NoSuchFileException e) {
            throw DoorException.notFound(path);
        } catch (AccessDeniedException e) {
            throw new DoorException(403, "origin refuses access to " + path);
        } catch (IOException e) {
            throw DoorException.badGateway("origin cannot read " + path);
        }
    }

    private static String contentType(String name) {
        String guessed = URLConnection.guessContentTypeFromName(name);
        return guessed != null ? guessed : "application/octet-stream";
    }
}
