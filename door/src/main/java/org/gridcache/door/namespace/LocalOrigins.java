package org.gridcache.door.namespace;

import java.io.IOException;
import java.util.Arrays;
import java.util.List;
import org.gridcache.common.origin.FileOriginRoots;
import org.gridcache.common.GridPath;
import org.gridcache.common.origin.LocalOriginRoot;
import org.gridcache.common.origin.OriginEntry;
import org.gridcache.door.exchange.DoorException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A {@code file://} origin as the door reads and writes it: its root, only within this door's
 * {@code --file-origin-root} directories (else 403 with the reason), and a namespace path as the components below it.
 */
public final class LocalOrigins {
    private static final Logger LOG = LoggerFactory.getLogger(LocalOrigins.class);
    private final FileOriginRoots roots;

    public LocalOrigins(FileOriginRoots roots) {
        this.roots = roots;
    }

    public LocalOriginRoot root(OriginEntry origin) {
        try {
            return roots.root(origin.url());
        } catch (FileOriginRoots.NotAllowed e) {
            LOG.warn("origin {} ({}) is not served: {} (allowed: {})", origin.name(), origin.url(), e.getMessage(), roots);
            throw new DoorException(403, "origin " + origin.name() + " is not served: " + e.getMessage());
        } catch (IllegalArgumentException e) {
            throw DoorException.badGateway("origin " + origin.name() + " is unavailable (its URL names no local directory)");
        } catch (IOException e) {
            throw DoorException.badGateway("origin " + origin.name() + " is unavailable (its root directory is missing)");
        }
    }

    /**
     * The quota of a {@code file://} origin's collections: its root's file system (RFC 4331 leaves "used" to the
     * server; as Apache's mod_dav_fs, the file system's used space). Links are not followed, so a file system mounted
     * below the root is not told apart: every collection shows the root's. Empty when the file system cannot say.
     */
    public java.util.Optional<Quota> quota(OriginEntry origin) {
        try {
            java.nio.file.FileStore store = java.nio.file.Files.getFileStore(root(origin).path());
            return java.util.Optional.of(new Quota(store.getUsableSpace(), store.getTotalSpace() - store.getUnallocatedSpace()));
        } catch (IOException e) {
            LOG.info("origin {}: no quota ({})", origin.name(), e.toString());
            return java.util.Optional.empty();
        }
    }

    /** The components of {@code path} below the origin root (already normalised: no "." or ".."). */
    public static List<String> names(OriginEntry origin, String path) {
        String rest = GridPath.relativize(path, origin.prefix());
        return rest.equals("/") ? List.of() : Arrays.asList(rest.substring(1).split("/"));
    }
}
