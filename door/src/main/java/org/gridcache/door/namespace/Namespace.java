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
import org.gridcache.common.GridPath;
import org.gridcache.common.origin.OriginEntry;
import org.gridcache.common.security.GridSubject;
import org.gridcache.door.exchange.DoorException;
import org.gridcache.zk.MountTable;

/**
 * The door's view of the namespace: the mount table says which origin serves a path, the origin says what is there.
 * Every lookup names the subject it is made for; the door asks the origin as the identity that subject has there
 * ({@link OriginIdentities}: the user's delegation for origins mounted {@code --credential user}, else the door
 * itself). Entries and listings are cached briefly (the cluster's {@code door.listing-cache-ttl}) per identity, so no
 * one is shown what the origin answered another identity; the cache is bounded in bytes
 * ({@code door.listing-cache-size}, an estimate that counts every entry, so its number is bounded too); failures are
 * not cached. Mount points show as collections in their parent's listing; a directory that no origin serves but that
 * leads to mount points is a virtual collection.
 */
public final class Namespace {
    /** What an entry costs beyond its strings: the record, the list slot, the cache node (an estimate). */
    static final int ENTRY_OVERHEAD = 160;
    /** What a collection's quota adds (a record of two longs). */
    static final int QUOTA_OVERHEAD = 32;
    private final MountTable mounts;
    private final OriginLister local;
    private final OriginLister webdav;
    private final OriginLister gridftp;
    private final OriginIdentities identities;
    private final Cache<String, NamespaceEntry> entries;
    private final Cache<String, List<NamespaceEntry>> listings;

    /**
     * {@code gridftp}: the lister of {@code gsiftp://} origins (null: none); {@code cacheBytes}: what entries and
     * listings may take together (a quarter for single entries, the rest for listings).
     */
    public Namespace(MountTable mounts, OriginLister local, OriginLister webdav, OriginLister gridftp, OriginIdentities identities,
                     Duration ttl, long cacheBytes) {
        this.mounts = mounts;
        this.local = local;
        this.webdav = webdav;
        this.gridftp = gridftp;
        this.identities = identities;
        this.entries = Caffeine.newBuilder().maximumWeight(cacheBytes / 4)
                .weigher((String k, NamespaceEntry e) -> weight(k) + weight(e)).expireAfterWrite(ttl).build();
        this.listings = Caffeine.newBuilder().maximumWeight(cacheBytes - cacheBytes / 4)
                .weigher((String k, List<NamespaceEntry> l) -> weight(k, l)).expireAfterWrite(ttl).build();
    }

    /** Applies a new cache lifetime (the cluster setting changed). */
    public void setTtl(Duration ttl) {
        entries.policy().expireAfterWrite().ifPresent(p -> p.setExpiresAfter(ttl));
        listings.policy().expireAfterWrite().ifPresent(p -> p.setExpiresAfter(ttl));
    }

    /** Applies a new bound of the cache in bytes (the cluster setting changed); shrinking evicts at once. */
    public void setCacheBytes(long bytes) {
        entries.policy().eviction().ifPresent(p -> p.setMaximum(bytes / 4));
        listings.policy().eviction().ifPresent(p -> p.setMaximum(bytes - bytes / 4));
    }

    /** The estimated bytes the cache holds now (entries and listings): for tests and operators. */
    public long cachedBytes() {
        entries.cleanUp();
        listings.cleanUp();
        return entries.policy().eviction().map(p -> p.weightedSize().orElse(0)).orElse(0L)
                + listings.policy().eviction().map(p -> p.weightedSize().orElse(0)).orElse(0L);
    }

    private static String key(OriginIdentity identity, String path) {
        return identity.key() + "\n" + path;
    }

    private static int weight(String s) {
        return s == null ? 0 : 40 + 2 * s.length();
    }

    private static int weight(NamespaceEntry e) {
        return ENTRY_OVERHEAD + weight(e.path()) + weight(e.name()) + weight(e.etag()) + weight(e.contentType())
                + (e.quota() == null ? 0 : QUOTA_OVERHEAD);
    }

    private static int weight(String key, List<NamespaceEntry> listing) {
        long w = weight(key);
        for (NamespaceEntry e : listing) {
            w += weight(e);
        }
        return (int) Math.min(Integer.MAX_VALUE, w);
    }

    /**
     * Forgets what this door cached of {@code path}, everything below it and its parent, for every identity: the
     * path was written through this door. A scan of the keys (writes are rare next to lookups).
     */
    public void invalidate(String path) {
        String parent = GridPath.parent(path);
        java.util.function.Predicate<String> touched = key -> {
            String p = key.substring(key.indexOf('\n') + 1);
            return p.equals(parent) || GridPath.isUnder(p, path);
        };
        entries.asMap().keySet().removeIf(touched);
        listings.asMap().keySet().removeIf(touched);
    }

    /** Forgets everything cached: another door wrote more than its notices tell path by path. */
    public void invalidateAll() {
        entries.invalidateAll();
        listings.invalidateAll();
    }

    /** The origin serving {@code path}, if any. */
    public Optional<OriginEntry> originOf(String path) {
        return mounts.resolve(path);
    }

    /** The origin mounted exactly at {@code path} (a mount point), with its mount date; empty elsewhere. */
    public Optional<MountPoint> mountPointAt(String path) {
        return mounts.resolve(path).filter(o -> o.prefix().equals(path)).map(o -> new MountPoint(o, mounts.mountedMillis(o)));
    }

    /**
     * What {@code subject} finds at {@code path}; throws {@link DoorException} 404 when nothing is, 401 when the origin
     * is read as the user and the subject has no delegation for this session, or the origin's failure.
     */
    public NamespaceEntry stat(GridSubject subject, String path) {
        Optional<OriginEntry> origin = mounts.resolve(path);
        if (origin.isEmpty()) {
            return virtual(path).orElseThrow(() -> DoorException.notFound(path));
        }
        OriginIdentity as = identities.of(subject, origin.get());
        try {
            return entries.get(key(as, path), k -> lookup(subject, as, origin.get(), path));
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
            OriginIdentity as = identities.of(subject, origin.get());
            try {
                listings.get(key(as, dir), k -> lister(origin.get()).list(subject, as, origin.get(), dir)).forEach(e -> byName.put(e.name(), e));
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

    /** One entry: from the parent's cached listing for the same identity (no extra origin round trip), else asked. */
    private NamespaceEntry lookup(GridSubject subject, OriginIdentity as, OriginEntry origin, String path) {
        String parent = GridPath.parent(path);
        if (!path.equals("/") && GridPath.isUnder(parent, origin.prefix())) {
            List<NamespaceEntry> siblings = listings.getIfPresent(key(as, parent));
            if (siblings != null) {
                String name = GridPath.name(path);
                NamespaceEntry sibling = siblings.stream().filter(e -> e.name().equals(name)).findFirst()
                        .orElseThrow(() -> DoorException.notFound(path));
                if (sibling.collection() || sibling.size() >= 0) {
                    return sibling;
                } // a file whose listing (an HTML index) did not give its size: reads need it, ask the origin

            }
        }
        NamespaceEntry entry = lister(origin).stat(subject, as, origin, path);
        if (path.equals(origin.prefix()) && !entry.collection()) {
            // a mount point is a collection, whatever the origin answers for its URL: a plain HTTP server's 200 there
            // is its HTML index, never a file of that name
            return new NamespaceEntry(path, entry.name(), true, -1, entry.mtimeMillis(), null, null, entry.quota());
        }
        return entry;
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
