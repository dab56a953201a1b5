package org.gridcache.zk;

import org.gridcache.zk.layout.ZkLayout;
import com.fasterxml.jackson.core.type.TypeReference;
import java.io.Closeable;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;
import org.apache.curator.framework.CuratorFramework;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.data.Stat;
import org.gridcache.common.settings.ClusterSettings;
import org.gridcache.common.Json;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Cluster settings in {@code /config} (one JSON object of key → value), watched live. A node that reads an invalid
 * value keeps its last good settings and logs an error; a retired key (a setting since removed) is ignored, said
 * once per node at INFO. The static methods are {@code gridcache config set|get|list}.
 */
public final class ClusterConfig implements Closeable {
    private static final Logger LOG = LoggerFactory.getLogger(ClusterConfig.class);
    private static final TypeReference<TreeMap<String, String>> MAP = new TypeReference<>() { };
    private final CuratorFramework client;
    /** Decoded and checked key by key in {@link #apply}, which keeps last good values: the tree passes the bytes on. */
    private final WatchedJsonTree<byte[]> tree;
    private final CopyOnWriteArrayList<Consumer<ClusterSettings>> listeners = new CopyOnWriteArrayList<>();
    private volatile ClusterSettings current = ClusterSettings.defaults();
    private volatile String lastError;
    /** Retired keys this node has said it ignores; guarded by this ({@link #apply}). */
    private final java.util.Set<String> retiredSeen = new java.util.HashSet<>();

    public ClusterConfig(CuratorFramework client) {
        this.client = client;
        this.tree = new WatchedJsonTree<>(client, ZkLayout.CONFIG, WatchedJsonTree.Scope.NODE, "settings", data -> data,
                nodes -> apply(nodes.get(ZkLayout.CONFIG)));
    }

    /** Waits for the first reading of {@code /config}; throws {@link IllegalStateException} when it takes longer. */
    public ClusterConfig start(Duration initialWait) throws InterruptedException {
        tree.start(initialWait);
        ConfigManagement.add(this);
        return this;
    }

    /**
     * Reads {@code /config} from ZooKeeper now and applies it (the JMX operation {@code reload()}): for an admin who
     * wants to be sure, since changes normally arrive by the watch within a second.
     */
    public ClusterSettings reloadNow() throws Exception {
        byte[] data;
        try {
            data = client.getData().forPath(ZkLayout.CONFIG);
        } catch (KeeperException.NoNodeException e) {
            data = null;
        }
        apply(data);
        return current;
    }

    private synchronized void apply(byte[] data) {
        Map<String, String> raw;
        try {
            raw = parse(data);
        } catch (IllegalArgumentException e) {
            lastError = e.getMessage();
            LOG.error("keeping the last good cluster settings: {}", e.getMessage());
            return;
        }
        List<String> errors = new ArrayList<>();
        ClusterSettings next = ClusterSettings.of(goodValues(raw, current.explicitValues(), errors));
        lastError = errors.isEmpty() ? null : String.join("; ", errors);
        if (!next.explicitValues().equals(current.explicitValues())) {
            LOG.info("cluster settings now {}", next.explicitValues());
        }
        current = next;
        listeners.forEach(l -> l.accept(next));
    }

    /**
     * Valid values of {@code raw}; for an invalid one, the last good value of that key (logged as an error); retired
     * keys left out (logged once).
     */
    private Map<String, String> goodValues(Map<String, String> raw, Map<String, String> lastGood, List<String> errors) {
        Map<String, String> good = new TreeMap<>();
        raw.forEach((key, value) -> {
            String retired = ClusterSettings.retired(key);
            if (retired != null) {
                if (retiredSeen.add(key)) {
                    LOG.info("ignoring {}={} in the cluster settings: that setting was removed ({}); "
                            + "'gridcache config unset {}' drops it", key, value, retired, key);
                }
                return;
            }
            try {
                ClusterSettings.validate(key, value);
                good.put(key, value);
            } catch (IllegalArgumentException e) {
                errors.add(e.getMessage());
                LOG.error("{}; keeping {}", e.getMessage(),
                        lastGood.containsKey(key) ? "the last good value '" + lastGood.get(key) + "'" : "the default");
                if (lastGood.containsKey(key)) {
                    good.put(key, lastGood.get(key));
                }
            }
        });
        return good;
    }

    public ClusterSettings current() {
        return current;
    }

    /** Why the last reading of {@code /config} was (partly) refused, or null when it was all good. */
    public String lastError() {
        return lastError;
    }

    /** Called with the new settings after every valid change. */
    public void onChange(Consumer<ClusterSettings> listener) {
        listeners.add(listener);
    }

    @Override
    public void close() {
        ConfigManagement.remove(this);
        tree.close();
    }

    private static Map<String, String> parse(byte[] data) {
        if (data == null || data.length == 0) {
            return Map.of();
        }
        try {
            return Json.mapper().readValue(data, MAP);
        } catch (IOException e) {
            throw new IllegalArgumentException("/config is not a JSON object of strings: " + e.getMessage());
        }
    }

    // --- admin operations (gridcache config …) ---

    /** Validates and stores one setting; a compare-and-set loop so concurrent admins do not lose updates. */
    public static void set(CuratorFramework client, String key, String value) throws Exception {
        ClusterSettings.validate(key, value);
        update(client, map -> map.put(key, value));
    }

    /** {@link #set(CuratorFramework, String, String)} by declaration, for code that names {@code ClusterSettings.Keys}. */
    public static void set(CuratorFramework client, ClusterSettings.Setting<?> setting, String value) throws Exception {
        set(client, setting.key(), value);
    }

    public static boolean unset(CuratorFramework client, ClusterSettings.Setting<?> setting) throws Exception {
        return unset(client, setting.key());
    }

    public static boolean unset(CuratorFramework client, String key) throws Exception {
        boolean[] had = new boolean[1];
        update(client, map -> had[0] = map.remove(key) != null);
        return had[0];
    }

    /** The explicit settings stored now (defaults not included). */
    public static Map<String, String> list(CuratorFramework client) throws Exception {
        try {
            return parse(client.getData().forPath(ZkLayout.CONFIG));
        } catch (KeeperException.NoNodeException e) {
            return Map.of();
        }
    }

    private static void update(CuratorFramework client, Consumer<Map<String, String>> change) throws Exception {
        while (true) {
            Stat stat = new Stat();
            byte[] data;
            try {
                data = client.getData().storingStatIn(stat).forPath(ZkLayout.CONFIG);
            } catch (KeeperException.NoNodeException e) {
                TreeMap<String, String> fresh = new TreeMap<>();
                change.accept(fresh);
                try {
                    client.create().creatingParentsIfNeeded().forPath(ZkLayout.CONFIG, Json.bytes(fresh));
                    return;
                } catch (KeeperException.NodeExistsException raced) {
                    continue;
                }
            }
            TreeMap<String, String> map = new TreeMap<>(parse(data));
            change.accept(map);
            try {
                client.setData().withVersion(stat.getVersion()).forPath(ZkLayout.CONFIG, Json.bytes(map));
                return;
            } catch (KeeperException.BadVersionException raced) {
                // someone else changed /config meanwhile: read again
            }
        }
    }
}
