package org.gridcache.door.namespace;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import org.gridcache.common.CredentialMode;
import org.gridcache.common.GridPath;
import org.gridcache.common.OriginEntry;
import org.gridcache.common.security.GridSubject;
import org.gridcache.door.http.DoorException;
import org.gridcache.zk.MountTable;

/**
 * The door's view of the namespace: the mount table says which origin serves a path, the origin says what is there.
 * Entries and listings are cached briefly (the cluster's {@code door.listing-cache-ttl}); failures are not cached.
 * Mount points show as collections in their parent's listing; a directory that no origin serves but that leads to
 * mount points is a virtual collection. Every lookup names the subject it is made for: origins read with the user's
 * own credential (GridFTP) are asked, and their answers cached, per subject.
 */
public final class Namespace {
    private static final int MAX_CACHED = 50_000;
    private final MountTable mounts;
    private final OriginLister local;
    private final OriginLister webdav;
    private final OriginLister gridftp;
    private final Cache<String, NamespaceEntry> entries;
    private final Cache<String, List<NamespaceEntry>> listings;

    /** {@code gridftp}: the lister of {@code gsiftp://} origins (null: none). */
    public Namespace(MountTable mounts, OriginLister local, OriginLister webdav, OriginLister gridftp, Duration ttl) {
        this.mounts = mounts;
        this.local = local;
        this.webdav = webdav;
        this.gridftp = gridftp;
        this.entries = Caffeine.newBuilder().maximumSize(MAX_CACHED).expireAfterWrite(ttl).build();
        this.listings = Caffeine.newBuilder().maximumSize(MAX_CACHED / 10).expireAfterWrite(ttl).build();
    }

    /** Applies a new cache lifetime (the cluster setting changed). */
    public void setTtl(Duration ttl) {
        entries.policy().expireAfterWrite().ifPresent(p -> p.setExpiresAfter(ttl));
        listings.policy().expireAfterWrite().ifPresent(p -> p.setExpiresAfter(ttl));
    }

    /** The cache key of a path: per subject where the origin answers per subject (listed as the user). */
    private static String key(GridSubject subject, OriginEntry origin, String path) {
        if (!OriginEntry.GSIFTP.equals(origin.protocol()) || origin.credentialMode() != CredentialMode.USER) {
            return path;
        }
        String who = subject.anonymous() ? "" : subject.dn() + "|" + String.join(",", subject.fqans());
        return who + "\n" + path;
    }

    /** The origin serving {@code path}, if any. */
    public Optional<OriginEntry> originOf(String path) {
        return mounts.resolve(path);
    }

    /**
     * What {@code subject} finds at {@code path}; throws {@link DoorException} 404 when nothing is, or the origin's
     * failure.
     */
    public NamespaceEntry stat(GridSubject subject, String path) {
        Optional<OriginEntry> origin = mounts.resolve(path);
        if (origin.isEmpty()) {
            return virtual(path).orElseThrow(() -> DoorException.notFound(path));
        }
        try {
            return entries.get(key(subject, origin.get(), path), k -> lookup(subject, origin.get(), path));
        } catch (DoorException e) {
            if (e.status() == 404) {
                return virtual(path).orElseThrow(() -> e);
            }
            throw e;
        }
    }

    /** The children of the collection {@code dir} as {@code subject} sees them, sorted by name, mount points included. */
    public List<NamespaceEntry> list(GridSubject subject, String dir) {
        Optional<OriginEntry> origin = mounts.resolve(dir);
        Map<String, NamespaceEntry> byName = new TreeMap<>();
        if (origin.isPresent()) {
            try {
                listings.get(key(subject, origin.get(), dir), k -> lister(origin.get()).list(subject, origin.get(), dir)).forEach(e -> byName.put(e.name(), e));
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
    private NamespaceEntry lookup(GridSubject subject, OriginEntry origin, String path) {
        String parent = GridPath.parent(path);
        if (!path.equals("/") && GridPath.isUnder(parent, origin.prefix())) {
            List<NamespaceEntry> siblings = listings.getIfPresent(key(subject, origin, parent));
            if (siblings != null) {
                String name = GridPath.name(path);
                return siblings.stream().filter(e -> e.name().equals(name)).findFirst()
                        .orElseThrow(() -> DoorException.notFound(path));
            }
        }
        return lister(origin).stat(subject, origin, path);
    }

    private OriginLister lister(OriginEntry origin) {
        if (OriginEntry.GSIFTP.equals(origin.protocol())) {
            if (gridftp == null) {
                throw DoorException.badGateway("this door cannot list GridFTP origins");
            }
            return gridftp;
        }
        return "file".equals(origin.protocol()) ? local : webdav;
    }
}
