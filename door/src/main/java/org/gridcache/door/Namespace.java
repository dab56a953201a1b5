package org.gridcache.door;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import org.gridcache.common.GridPath;
import org.gridcache.common.OriginEntry;
import org.gridcache.zk.MountTable;

/**
 * The door's view of the namespace: the mount table says which origin serves a path, the origin says what is there.
 * Entries and listings are cached briefly (the cluster's {@code door.listing-cache-ttl}); failures are not cached.
 * Mount points show as collections in their parent's listing; a directory that no origin serves but that leads to
 * mount points is a virtual collection.
 */
public final class Namespace {
    private static final int MAX_CACHED = 50_000;
    private final MountTable mounts;
    private final OriginLister local;
    private final OriginLister webdav;
    private final Cache<String, NamespaceEntry> entries;
    private final Cache<String, List<NamespaceEntry>> listings;

    public Namespace(MountTable mounts, OriginLister local, OriginLister webdav, Duration ttl) {
        this.mounts = mounts;
        this.local = local;
        this.webdav = webdav;
        this.entries = Caffeine.newBuilder().maximumSize(MAX_CACHED).expireAfterWrite(ttl).build();
        this.listings = Caffeine.newBuilder().maximumSize(MAX_CACHED / 10).expireAfterWrite(ttl).build();
    }

    /** Applies a new cache lifetime (the cluster setting changed). */
    public void setTtl(Duration ttl) {
        entries.policy().expireAfterWrite().ifPresent(p -> p.setExpiresAfter(ttl));
        listings.policy().expireAfterWrite().ifPresent(p -> p.setExpiresAfter(ttl));
    }

    /** The origin serving {@code path}, if any. */
    public Optional<OriginEntry> originOf(String path) {
        return mounts.resolve(path);
    }

    /** What is at {@code path}; throws {@link DoorException} 404 when nothing is, or the origin's failure. */
    public NamespaceEntry stat(String path) {
        Optional<OriginEntry> origin = mounts.resolve(path);
        if (origin.isEmpty()) {
            return virtual(path).orElseThrow(() -> DoorException.notFound(path));
        }
        try {
            return entries.get(path, p -> lookup(origin.get(), p));
        } catch (DoorException e) {
            if (e.status() == 404) {
                return virtual(path).orElseThrow(() -> e);
            }
            throw e;
        }
    }

    /** The children of the collection {@code dir}, sorted by name, mount points included. */
    public List<NamespaceEntry> list(String dir) {
        Optional<OriginEntry> origin = mounts.resolve(dir);
        Map<String, NamespaceEntry> byName = new TreeMap<>();
        if (origin.isPresent()) {
            try {
                listings.get(dir, d -> lister(origin.get()).list(origin.get(), d)).forEach(e -> byName.put(e.name(), e));
            } catch (DoorException e) {
                if (e.status() != 404 || virtual(dir).isEmpty()) {
                    throw e;
                }
            }
        } else if (virtual(dir).isEmpty()) {
            throw DoorException.notFound(dir);
        }
        for (String name : mounts.mountPointsBelow(dir)) {
            String child = GridPath.child(dir, name);
            byName.put(name, NamespaceEntry.virtualCollection(child, name)); // a mount point hides what it covers
        }
        List<NamespaceEntry> out = new ArrayList<>(byName.values());
        out.sort(Comparator.comparing(NamespaceEntry::name));
        return out;
    }

    private Optional<NamespaceEntry> virtual(String path) {
        return mounts.isVirtualCollection(path)
                ? Optional.of(NamespaceEntry.virtualCollection(path, GridPath.name(path)))
                : Optional.empty();
    }

    /** One entry: from the parent's cached listing when there is one (no extra origin round trip), else asked. */
    private NamespaceEntry lookup(OriginEntry origin, String path) {
        String parent = GridPath.parent(path);
        if (!path.equals("/") && GridPath.isUnder(parent, origin.prefix())) {
            List<NamespaceEntry> siblings = listings.getIfPresent(parent);
            if (siblings != null) {
                String name = GridPath.name(path);
                return siblings.stream().filter(e -> e.name().equals(name)).findFirst()
                        .orElseThrow(() -> DoorException.notFound(path));
            }
        }
        return lister(origin).stat(origin, path);
    }

    private OriginLister lister(OriginEntry origin) {
        return "file".equals(origin.protocol()) ? local : webdav;
    }
}
