package org.gridcache.zk;

import org.gridcache.zk.layout.ZkLayout;
import com.fasterxml.jackson.annotation.JsonProperty;
import java.io.Closeable;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.Base64;
import java.util.HexFormat;
import java.util.Map;
import java.util.Optional;
import org.apache.curator.framework.CuratorFramework;
import org.apache.zookeeper.KeeperException;
import org.gridcache.common.Json;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The root keys every door signs and verifies macaroons with, shared through the znode {@link ZkLayout#MACAROON_SECRET}:
 * {@code {"current": "<id>", "keys": {"<id>": "<base64 of 32 random bytes>"}}}. The first door that starts creates it
 * (create-if-absent: when two doors race, one create wins and both read the winner's), every door watches it. A
 * macaroon names the id of the key it was made with, so an admin rotates by writing a new key as {@code current} and
 * keeping the old one until the macaroons made with it have expired. On a secured ensemble only doors and admins read
 * it ({@code ZkAcls.secret()}); on an open one, whoever reaches ZooKeeper does (ARCHITECTURE.md, "Trust model").
 */
public final class MacaroonSecrets implements Closeable {
    private static final Logger LOG = LoggerFactory.getLogger(MacaroonSecrets.class);
    private static final int KEY_BYTES = 32;
    private static final SecureRandom RANDOM = new SecureRandom();
    private final CuratorFramework client;
    /** Decoded in {@link #apply}, which keeps the last good keys: the tree passes the bytes on. */
    private final WatchedJsonTree<byte[]> tree;
    private volatile RootKeys keys;

    /** One root key: its id (what a macaroon names) and its secret bytes. */
    public record RootKey(String id, byte[] secret) {
        @Override
        public String toString() {
            return "root key " + id; // never the secret
        }
    }

    /** The znode's content. */
    record RootKeys(@JsonProperty("current") String current, @JsonProperty("keys") Map<String, String> keys) {
        RootKeys {
            keys = keys == null ? Map.of() : Map.copyOf(keys);
        }

        static RootKeys decode(byte[] data) {
            RootKeys read;
            try {
                read = Json.read(data, RootKeys.class);
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("is not {\"current\": ID, \"keys\": {ID: BASE64}}"); // Jackson's words may quote a key
            }
            if (read.current() == null || !read.keys().containsKey(read.current())) {
                throw new IllegalArgumentException("names no current key that it holds");
            }
            read.keys().forEach((id, key) -> {
                if (!id.matches("[A-Za-z0-9_-]{1,64}") || bytes(key).length < KEY_BYTES) {
                    throw new IllegalArgumentException("key '" + id + "' needs an id of letters, digits, '-' and '_' and at least "
                            + KEY_BYTES + " bytes");
                }
            });
            return read;
        }

        static byte[] bytes(String base64) {
            try {
                return Base64.getDecoder().decode(base64);
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("a key is not base64");
            }
        }
    }

    public MacaroonSecrets(CuratorFramework client) {
        this.client = client;
        this.tree = new WatchedJsonTree<>(client, ZkLayout.MACAROON_SECRET, WatchedJsonTree.Scope.NODE, "macaroon root keys",
                data -> data, nodes -> apply(nodes.get(ZkLayout.MACAROON_SECRET)));
    }

    /** A rewrite that does not decode (an admin's typo) keeps the last good keys: else every macaroon would fail. */
    private void apply(byte[] data) {
        if (data == null) {
            LOG.error("ZooKeeper {} is gone: keeping the last macaroon root keys", ZkLayout.MACAROON_SECRET);
            return;
        }
        try {
            RootKeys next = RootKeys.decode(data);
            if (keys != null && !next.current().equals(keys.current())) {
                LOG.info("macaroons are now made with root key {}", next.current());
            }
            keys = next;
        } catch (IllegalArgumentException e) {
            LOG.error("keeping the last macaroon root keys: ZooKeeper {} {}", ZkLayout.MACAROON_SECRET, e.getMessage());
        }
    }

    /** Creates the root key unless a door already did, then watches it; waits up to {@code wait} for both. */
    public MacaroonSecrets start(Duration wait) throws Exception {
        createIfAbsent();
        tree.start(wait); // its first load reads after our create, on the same session: it sees the key
        if (keys == null) {
            close();
            throw new IllegalStateException("ZooKeeper " + ZkLayout.MACAROON_SECRET + " holds no usable macaroon root key (see the log)");
        }
        return this;
    }

    private void createIfAbsent() throws Exception {
        byte[] secret = new byte[KEY_BYTES];
        RANDOM.nextBytes(secret);
        byte[] idBytes = new byte[8];
        RANDOM.nextBytes(idBytes);
        String id = HexFormat.of().formatHex(idBytes);
        RootKeys fresh = new RootKeys(id, Map.of(id, Base64.getEncoder().encodeToString(secret)));
        try {
            client.create().creatingParentsIfNeeded().forPath(ZkLayout.MACAROON_SECRET, Json.bytes(fresh));
            LOG.info("created the cluster's macaroon root key {}", id);
        } catch (KeeperException.NodeExistsException e) {
            LOG.debug("the macaroon root key exists already");
        }
    }

    /** The key new macaroons are made with. */
    public RootKey current() {
        RootKeys now = keys;
        return new RootKey(now.current(), RootKeys.bytes(now.keys().get(now.current())));
    }

    /** The key named {@code id}, if the cluster still holds it. */
    public Optional<RootKey> key(String id) {
        return Optional.ofNullable(keys.keys().get(id)).map(k -> new RootKey(id, RootKeys.bytes(k)));
    }

    @Override
    public void close() {
        tree.close();
    }
}
