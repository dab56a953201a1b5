package org.gridcache.zk;

import org.gridcache.zk.layout.ZkLayout;
import java.io.Closeable;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeSet;
import org.apache.curator.framework.CuratorFramework;
import org.apache.zookeeper.KeeperException;
import org.gridcache.common.GridPath;
import org.gridcache.common.Json;
import org.gridcache.common.origin.OriginEntry;

/**
 * The namespace's mount table ({@code /origins}): which origin serves which path prefix. Watched live; a path
 * resolves to the entry with the longest matching prefix. The static methods are the admin operations behind
 * {@code gridcache origins …}.
 */
public final class MountTable implements Closeable {
    private final WatchedJsonTree<OriginEntry> tree;
    /** Sorted by descending prefix length, so the first match is the longest. */
    private volatile List<OriginEntry> entries = List.of();

    public MountTable(CuratorFramework client) {
        this.tree = new WatchedJsonTree<>(client, ZkLayout.ORIGINS, WatchedJsonTree.Scope.CHILDREN, "origin",
                RecordChecks::origin, this::rebuild);
    }

    /** Waits for the first reading of {@code /origins}; throws {@link IllegalStateException} when it takes longer. */
    public MountTable start(Duration initialWait) throws InterruptedException {
        tree.start(initialWait);
        return this;
    }

    private void rebuild(Map<String, OriginEntry> nodes) {
        List<OriginEntry> next = new ArrayList<>(nodes.values());
        next.sort(Comparator.comparingInt((OriginEntry e) -> e.prefix().length()).reversed());
        entries = List.copyOf(next);
    }

    /** The origin serving {@code path} (normalised), if any. */
    public Optional<OriginEntry> resolve(String path) {
        for (OriginEntry e : entries) {
            if (GridPath.isUnder(path, e.prefix())) {
                return Optional.of(e);
            }
        }
        return Optional.empty();
    }

    /**
     * The origin (an entry's URL) that {@code originUrl}, a file's, lies under, the longest if several do; null when
     * no origin mounted now holds it. A pool's store accounts its replicas' bytes by it.
     */
    public String originOf(String originUrl) {
        String best = null;
        for (OriginEntry e : entries) {
            if (e.holds(originUrl) && (best == null || e.url().length() > best.length())) {
                best = e.url();
            }
        }
        return best;
    }

    /**
     * Names of the segments directly below {@code dir} that lead to a mount point deeper than {@code dir}: they
     * show as collections in {@code dir}'s listing even where no origin serves {@code dir} itself.
     */
    public List<String> mountPointsBelow(String dir) {
        TreeSet<String> names = new TreeSet<>();
        for (OriginEntry e : entries) {
            if (!e.prefix().equals(dir) && GridPath.isUnder(e.prefix(), dir)) {
                String rest = GridPath.relativize(e.prefix(), dir).substring(1);
                names.add(rest.contains("/") ? rest.substring(0, rest.indexOf('/')) : rest);
            }
        }
        return List.copyOf(names);
    }

    /** True when {@code dir} is a mount point or lies on the way to one (a virtual collection). */
    public boolean isVirtualCollection(String dir) {
        return !mountPointsBelow(dir).isEmpty() || entries.stream().anyMatch(e -> e.prefix().equals(dir));
    }

    /** When {@code entry} was last written to the mount table (added or changed; epoch milliseconds), -1 unknown. */
    public long mountedMillis(OriginEntry entry) {
        return tree.modifiedMillis(ZkLayout.origin(entry.name()));
    }

    public List<OriginEntry> entries() {
        return entries;
    }

    @Override
    public void close() {
        tree.close();
    }

    // --- admin operations (gridcache origins …) ---

    public static void put(CuratorFramework client, OriginEntry entry) throws Exception {
        byte[] data = Json.bytes(entry);
        String path = ZkLayout.origin(entry.name());
        try {
            client.create().creatingParentsIfNeeded().forPath(path, data);
        } catch (KeeperException.NodeExistsException e) {
            client.setData().forPath(path, data);
        }
    }

    public static List<OriginEntry> list(CuratorFramework client) throws Exception {
        if (client.checkExists().forPath(ZkLayout.ORIGINS) == null) {
            return List.of();
        }
        List<OriginEntry> out = new ArrayList<>();
        for (String child : client.getChildren().forPath(ZkLayout.ORIGINS)) {
            out.add(Json.read(client.getData().forPath(ZkLayout.origin(child)), OriginEntry.class));
        }
        out.sort(Comparator.comparing(OriginEntry::prefix));
        return out;
    }

    /** Removes an entry; false when there was none of that name. */
    public static boolean remove(CuratorFramework client, String name) throws Exception {
        try {
            client.delete().forPath(ZkLayout.origin(name));
            return true;
        } catch (KeeperException.NoNodeException e) {
            return false;
        }
    }
}
