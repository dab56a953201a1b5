package org.gridcache.pool.origin;

import java.net.URI;
import java.util.Collection;
import java.util.List;
import org.gridcache.common.origin.LocalOriginRoot;
import org.gridcache.common.origin.OriginEntry;

/** Which {@code file://} mount of the mount table holds a file URL: the deepest, as the door resolves paths. */
final class FileMounts {
    /** The mount and the names of the file below its root (empty: the root itself). */
    record Located(OriginEntry mount, List<String> names) {
    }

    private FileMounts() {
    }

    static Located locate(Collection<OriginEntry> mounts, URI file) throws LocalOriginRoot.NotServed {
        OriginEntry best = null;
        List<String> names = null;
        for (OriginEntry entry : mounts) {
            if (!"file".equals(entry.protocol())) {
                continue;
            }
            List<String> below;
            try {
                below = LocalOriginRoot.below(URI.create(entry.url()), file);
            } catch (IllegalArgumentException e) {
                continue;
            }
            if (below != null && (names == null || below.size() < names.size())) {
                best = entry;
                names = below;
            }
        }
        if (best == null) {
            throw new LocalOriginRoot.NotServed("not below the root of any file:// origin of the mount table");
        }
        return new Located(best, names);
    }
}
