package org.gridcache.zk;

import org.gridcache.zk.layout.ZkLayout;
import java.io.Closeable;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Consumer;
import org.apache.curator.framework.CuratorFramework;
import org.gridcache.common.GridPath;
import org.gridcache.common.Json;

/**
 * Tells the other doors which paths a door wrote, so that they drop their cached listings at once instead of after
 * the listing TTL. Each door keeps one ephemeral znode {@code /writes/<door>} holding its last {@link #KEPT} written
 * paths and the sequence number of the newest; every door watches {@code /writes}. ZooKeeper may fold several quick
 * changes of a znode into one notification, hence the window: a watcher applies every path newer than the last it saw
 * of that door, and when more were written than the window holds (or the door restarted) it drops everything
 * ({@code all}). A door's notices are dropped with its session, which is harmless: they are hints for caches.
 */
public final class WriteNotices implements Closeable {
    /** How many recent paths a door's znode holds. */
    public static final int KEPT = 64;
    private static final Duration REFRESH = Duration.ofSeconds(30);

    /** The znode's content: the newest sequence number and the paths written up to it, oldest first. */
    public record Notice(String door, long last, List<String> paths) {
        public Notice {
            Objects.requireNonNull(door, "door");
            paths = List.copyOf(paths);
        }
    }

    private final String door;
    private final ArrayDeque<String> recent = new ArrayDeque<>();
    private long last;
    private final EphemeralRegistration registration;
    private final WatchedJsonTree<Notice> watch;
    private final Map<String, Long> seen = new HashMap<>();
    private final Consumer<String> invalidate;
    private final Runnable invalidateAll;

    /**
     * {@code invalidate}: drops what this door cached of one path (and below, and its parent); {@code invalidateAll}:
     * drops everything. Both are called on Curator's event thread.
     */
    public WriteNotices(CuratorFramework client, String door, Consumer<String> invalidate, Runnable invalidateAll) {
        this.door = door;
        this.invalidate = invalidate;
        this.invalidateAll = invalidateAll;
        this.registration = door == null ? null : new EphemeralRegistration(client, ZkLayout.writes(door), this::record, REFRESH);
        this.watch = new WatchedJsonTree<>(client, ZkLayout.WRITES, WatchedJsonTree.Scope.CHILDREN, "write notice",
                WriteNotices::decode, this::changed);
    }

    /**
     * Only watches the doors' notices, publishing none: what a pool uses to drop its copies of written files (only
     * doors may create {@code /writes/<door>}).
     */
    public static WriteNotices watch(CuratorFramework client, Consumer<String> invalidate, Runnable invalidateAll) {
        return new WriteNotices(client, null, invalidate, invalidateAll);
    }

    public WriteNotices start(Duration initialWait) throws InterruptedException {
        if (registration != null) {
            registration.awaitCreated(initialWait);
        }
        watch.start(initialWait);
        return this;
    }

    /** Publishes that this door wrote {@code paths} (normalised namespace paths). */
    public void wrote(List<String> paths) {
        if (registration == null) {
            throw new IllegalStateException("a watcher publishes no notices");
        }
        synchronized (this) {
            for (String p : paths) {
                recent.addLast(p);
                last++;
                if (recent.size() > KEPT) {
                    recent.removeFirst();
                }
            }
        }
        registration.publishNow();
    }

    private synchronized byte[] record() {
        return Json.bytes(new Notice(door, last, new ArrayList<>(recent)));
    }

    private static Notice decode(String name, byte[] data) {
        Notice n = Json.read(data, Notice.class);
        if (!name.equals(n.door())) {
            throw new IllegalArgumentException("a notice of door " + n.door() + " under the name " + name);
        }
        if (n.paths().size() > KEPT || n.last() < n.paths().size()) {
            throw new IllegalArgumentException("more paths than sequence numbers, or than " + KEPT);
        }
        for (String p : n.paths()) {
            if (p == null || !p.equals(GridPath.normalize(p))) {
                throw new IllegalArgumentException("not a namespace path");
            }
        }
        return n;
    }

    private synchronized void changed(Map<String, Notice> notices) {
        for (Notice n : notices.values()) {
            if (n.door().equals(door)) {
                continue;
            }
            Long before = seen.put(n.door(), n.last());
            if (before == null || n.last() == before) {
                continue; // a door first seen: whatever it wrote before is older than anything this door cached
            }
            long first = n.last() - n.paths().size() + 1;
            if (n.last() < before || first > before + 1) {
                invalidateAll.run(); // it restarted, or wrote more than the window holds since the last notice seen
                continue;
            }
            for (int i = (int) (before + 1 - first); i < n.paths().size(); i++) {
                invalidate.accept(n.paths().get(i));
            }
        }
    }

    @Override
    public void close() {
        watch.close();
        if (registration != null) {
            registration.close();
        }
    }
}
