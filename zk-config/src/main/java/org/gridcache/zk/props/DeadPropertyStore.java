package org.gridcache.zk.props;

import java.io.Closeable;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.UnaryOperator;
import org.apache.curator.framework.CuratorFramework;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.data.Stat;
import org.gridcache.common.GridPath;
import org.gridcache.common.Json;
import org.gridcache.zk.WatchedJsonTree;
import org.gridcache.zk.Zk;
import org.gridcache.zk.layout.ZkLayout;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The dead properties of the namespace (WebDAV PROPPATCH), kept by the doors because no origin kind they write to
 * (nginx, GridFTP, a file system) stores them. One znode per resource that has any, {@code /props/<sha-256 of the
 * path>} ({@link StoredProperties} as JSON; a hash because paths are longer and freer than znode names), watched by
 * every door so that a PROPFIND of a collection with many members asks ZooKeeper nothing. A change reads the znode
 * itself and writes it back at the version it read (optimistic, retried), so two doors never lose each other's
 * properties; the writer then waits until its own watch shows the write, so a PROPFIND right after a PROPPATCH
 * through the same door sees it.
 *
 * <p>Bounded, because every door and every ZooKeeper server holds all of them in memory: {@value #MAX_PROPERTY}
 * characters per property element, {@value #MAX_RESOURCE} per resource, {@value #MAX_RESOURCES} resources and
 * {@value #MAX_TOTAL} characters in the cluster, of which one subject's properties ({@link DeadProperty#setBy}: who set,
 * copied or moved them) take at most {@value #MAX_PER_SUBJECT}, so one writer cannot use up the cluster's budget for
 * everyone ({@link PropertyLimitException} beyond).
 */
public final class DeadPropertyStore implements Closeable {
    public static final int MAX_PROPERTY = 4096;
    public static final int MAX_RESOURCE = 65536;
    public static final int MAX_RESOURCES = 50_000;
    public static final long MAX_TOTAL = 16L << 20;
    public static final long MAX_PER_SUBJECT = 1L << 20;
    private static final int MAX_ATTEMPTS = 20;
    private static final Duration SEEN_WAIT = Duration.ofSeconds(5);
    private static final Logger LOG = LoggerFactory.getLogger(DeadPropertyStore.class);
    private final CuratorFramework zk;
    private final long maxTotal;
    private final long maxPerSubject;
    private final WatchedJsonTree<StoredProperties> watch;
    /** Namespace path → its properties, as the watch last saw them (guarded by this). */
    private Map<String, StoredProperties> byPath = Map.of();
    /** The characters of {@link #byPath}, all resources together (guarded by this). */
    private long total;
    /** The characters of {@link #byPath} per subject that set them (guarded by this). */
    private Map<String, Long> bySubject = Map.of();

    public DeadPropertyStore(CuratorFramework zk) {
        this(zk, MAX_TOTAL);
    }

    /** {@code maxTotal}: the characters of dead properties the cluster keeps (a test's smaller bound). */
    DeadPropertyStore(CuratorFramework zk, long maxTotal) {
        this(zk, maxTotal, MAX_PER_SUBJECT);
    }

    /** {@code maxPerSubject}: the characters one subject's properties take at most (a test's smaller bound). */
    DeadPropertyStore(CuratorFramework zk, long maxTotal, long maxPerSubject) {
        this.zk = zk;
        this.maxTotal = maxTotal;
        this.maxPerSubject = maxPerSubject;
        this.watch = new WatchedJsonTree<>(zk, ZkLayout.PROPS, WatchedJsonTree.Scope.CHILDREN, "dead properties",
                DeadPropertyStore::decode, this::changed);
    }

    public DeadPropertyStore start(Duration initialWait) throws Exception {
        // on a secured cluster the server made it (doors may not create beside their registries): only look
        if (zk.checkExists().forPath(ZkLayout.PROPS) == null) {
            try {
                zk.create().creatingParentsIfNeeded().forPath(ZkLayout.PROPS, new byte[0]);
            } catch (KeeperException.NodeExistsException e) {
                // another door made it meanwhile
            }
        }
        watch.start(initialWait);
        return this;
    }

    /** The dead properties of {@code path} (normalised), in the order they were set; empty when none. */
    public synchronized List<DeadProperty> of(String path) {
        StoredProperties stored = byPath.get(path);
        return stored == null ? List.of() : stored.properties();
    }

    /**
     * Replaces the properties of {@code path} by what {@code change} makes of the current ones (all or nothing; an
     * empty result removes the znode). {@code change} may run more than once (when another door wrote meanwhile).
     */
    public void update(String path, UnaryOperator<List<DeadProperty>> change) throws Exception {
        String znode = ZkLayout.props(hash(path));
        for (int attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
            Zk.requireConnected(zk); // during an outage: at once, for the door's 503
            Stat stat = new Stat();
            StoredProperties current = read(znode, stat);
            List<DeadProperty> next = change.apply(current == null ? List.of() : current.properties());
            StoredProperties wanted = next.isEmpty() ? null
                    : new StoredProperties(path, current == null ? 1 : current.revision() + 1, next);
            if (wanted != null) {
                checkLimits(wanted, current == null);
            }
            try {
                if (current == null && wanted != null) {
                    zk.create().forPath(znode, Json.bytes(wanted));
                } else if (current != null && wanted == null) {
                    zk.delete().withVersion(stat.getVersion()).forPath(znode);
                } else if (current != null) {
                    zk.setData().withVersion(stat.getVersion()).forPath(znode, Json.bytes(wanted));
                }
                awaitSeen(path, wanted);
                return;
            } catch (KeeperException.BadVersionException | KeeperException.NodeExistsException | KeeperException.NoNodeException e) {
                // another door changed this resource's properties meanwhile: apply the change to theirs
            }
        }
        throw new IllegalStateException("the properties of " + path + " kept changing: not updated");
    }

    /** Forgets the properties of {@code path} and of everything below it (the resource was deleted). */
    public void delete(String path) throws Exception {
        for (String p : subtree(path)) {
            Zk.requireConnected(zk);
            try {
                zk.delete().forPath(ZkLayout.props(hash(p)));
            } catch (KeeperException.NoNodeException e) {
                // gone already
            }
            awaitSeen(p, null);
        }
    }

    /**
     * Gives {@code to} the properties of {@code from} and, when {@code deep}, its members those of {@code from}'s
     * (COPY), charged to {@code by}, who copied them; whatever {@code to} and its members had is dropped first, as
     * the copy replaced them.
     */
    public void copy(String from, String to, boolean deep, String by) throws Exception {
        delete(to);
        List<String> sources = deep ? subtree(from) : (of(from).isEmpty() ? List.of() : List.of(from));
        for (String source : sources) {
            List<DeadProperty> properties = of(source).stream().map(p -> p.setBy(by)).toList();
            String target = to + source.substring(from.length());
            update(target, ignored -> properties);
        }
    }

    /** {@link #copy} with depth infinity, then {@link #delete} of {@code from} (MOVE by {@code by}). */
    public void move(String from, String to, String by) throws Exception {
        copy(from, to, true, by);
        delete(from);
    }

    private synchronized List<String> subtree(String path) {
        List<String> paths = new ArrayList<>();
        for (String p : byPath.keySet()) {
            if (GridPath.isUnder(p, path)) {
                paths.add(p);
            }
        }
        return paths;
    }

    private synchronized void checkLimits(StoredProperties wanted, boolean created) {
        for (DeadProperty p : wanted.properties()) {
            if (p.xml().length() > MAX_PROPERTY) {
                throw new PropertyLimitException("property {" + p.namespace() + "}" + p.name() + " is larger than "
                        + MAX_PROPERTY + " characters");
            }
        }
        if (wanted.size() > MAX_RESOURCE) {
            throw new PropertyLimitException("the properties of " + wanted.path() + " would be larger than "
                    + MAX_RESOURCE + " characters");
        }
        if (created && byPath.size() >= MAX_RESOURCES) {
            throw new PropertyLimitException("the cluster keeps dead properties of at most " + MAX_RESOURCES + " resources");
        }
        StoredProperties current = byPath.get(wanted.path());
        if (total - (current == null ? 0 : current.size()) + wanted.size() > maxTotal) {
            throw new PropertyLimitException("the cluster keeps at most " + maxTotal + " characters of dead properties");
        }
        for (String subject : wanted.properties().stream().map(DeadProperty::setBy).filter(Objects::nonNull).distinct().toList()) {
            long after = bySubject.getOrDefault(subject, 0L) - (current == null ? 0 : current.sizeOf(subject)) + wanted.sizeOf(subject);
            if (after > maxPerSubject && wanted.sizeOf(subject) > (current == null ? 0 : current.sizeOf(subject))) {
                throw new PropertyLimitException(subject + "'s dead properties would take more than " + maxPerSubject
                        + " characters, the most one subject may: remove some first");
            }
        }
    }

    private StoredProperties read(String znode, Stat stat) throws Exception {
        try {
            return Json.read(zk.getData().storingStatIn(stat).forPath(znode), StoredProperties.class);
        } catch (KeeperException.NoNodeException e) {
            return null;
        }
    }

    /** Waits (bounded) until the watch shows {@code expected} at {@code path} (null: nothing). */
    private synchronized void awaitSeen(String path, StoredProperties expected) throws InterruptedException {
        long deadline = System.nanoTime() + SEEN_WAIT.toNanos();
        while (!Objects.equals(byPath.get(path), expected)) {
            long left = deadline - System.nanoTime();
            if (left <= 0) {
                LOG.warn("the watch of {} did not show the write of {} within {} ms (another door wrote since?)",
                        ZkLayout.PROPS, path, SEEN_WAIT.toMillis());
                return;
            }
            wait(Math.max(1, left / 1_000_000));
        }
    }

    private synchronized void changed(Map<String, StoredProperties> snapshot) {
        Map<String, StoredProperties> next = new HashMap<>(snapshot.size() * 2);
        Map<String, Long> subjects = new HashMap<>();
        long characters = 0;
        for (StoredProperties stored : snapshot.values()) {
            next.put(stored.path(), stored);
            characters += stored.size();
            for (DeadProperty p : stored.properties()) {
                if (p.setBy() != null) {
                    subjects.merge(p.setBy(), p.size(), Long::sum);
                }
            }
        }
        byPath = next;
        total = characters;
        bySubject = subjects;
        notifyAll();
    }

    private static StoredProperties decode(String name, byte[] data) {
        StoredProperties stored = Json.read(data, StoredProperties.class);
        if (!stored.path().equals(GridPath.normalize(stored.path())) || !name.equals(hash(stored.path()))) {
            throw new IllegalArgumentException("not the properties of the path its name is the hash of");
        }
        if (stored.size() > MAX_RESOURCE) {
            throw new IllegalArgumentException("larger than " + MAX_RESOURCE + " characters");
        }
        return stored;
    }

    /** The znode name of {@code path}'s properties: the SHA-256 of its UTF-8 bytes, in hex. */
    static String hash(String path) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(path.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("the JDK has no SHA-256", e);
        }
    }

    @Override
    public void close() {
        watch.close();
    }
}
