package org.gridcache.zk;

import org.gridcache.zk.layout.ZkLayout;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import org.apache.curator.framework.CuratorFramework;
import org.apache.zookeeper.KeeperException;
import org.gridcache.common.origin.OriginEntry;
import org.gridcache.zk.security.StandaloneTree;
import org.gridcache.zk.security.ZkDigestSecret;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/** A standalone's ZooKeeper, open as an earlier version left it, closed to whoever lacks the home's secret. */
class StandaloneTreeTest {
    private static final byte[] KEY = "{\"current\":\"k\",\"keys\":{}}".getBytes(StandardCharsets.UTF_8);
    @RegisterExtension
    final ZooKeeperServer zooKeeper = new ZooKeeperServer();
    @TempDir
    Path home;

    private CuratorFramework connect(ZkDigestSecret secret) throws Exception {
        return Zk.connect(zooKeeper.connectString(), Duration.ofSeconds(10), Duration.ofSeconds(10), secret);
    }

    @Test
    void everyZnodeGetsTheSecretsAclAndAKeyMadeOpenIsDeleted() throws Exception {
        CuratorFramework open = zooKeeper.client();
        MountTable.put(open, OriginEntry.of("a", "/a", "http://127.0.0.1:9/", null));
        open.create().creatingParentsIfNeeded().forPath(ZkLayout.MACAROON_SECRET, KEY);
        ZkDigestSecret secret = ZkDigestSecret.loadOrCreate(ZkDigestSecret.file(home));
        assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(ZkDigestSecret.file(home))));
        try (CuratorFramework owner = connect(secret)) {
            StandaloneTree.ensure(owner, secret, false);
            assertNull(owner.checkExists().forPath(ZkLayout.MACAROON_SECRET), "the key anyone could read is gone");
            assertNotNull(owner.getData().forPath(ZkLayout.origin("a")), "the mount table is kept");
            for (String path : new String[] {ZkLayout.origin("a"), ZkLayout.ORIGINS, ZkLayout.SECRETS}) {
                assertEquals(secret.acl(), owner.getACL().forPath(path), path);
            }
            assertEquals(secret.acl(), owner.usingNamespace(null).getACL().forPath("/zookeeper/quota"));

            owner.create().forPath(ZkLayout.MACAROON_SECRET, KEY); // as the door makes it, with the secret's ACL
            StandaloneTree.ensure(owner, secret, false);
            assertArrayEquals(KEY, owner.getData().forPath(ZkLayout.MACAROON_SECRET), "a key only the secret read is kept");
            StandaloneTree.ensure(owner, secret, true);
            assertNull(owner.checkExists().forPath(ZkLayout.MACAROON_SECRET), "a key in data files others could read is gone");
        }
        assertThrows(KeeperException.NoAuthException.class, () -> open.getData().forPath(ZkLayout.origin("a")));
        assertThrows(KeeperException.NoAuthException.class, () -> open.create().forPath(ZkLayout.origin("b")));
        assertThrows(KeeperException.NoAuthException.class, () -> open.usingNamespace(null).create().forPath("/x"));
    }

    @Test
    void aSecretReadableByOthersIsRefused() throws Exception {
        Path file = ZkDigestSecret.file(home);
        ZkDigestSecret.loadOrCreate(file);
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-r--r--"));
        assertThrows(java.io.IOException.class, () -> ZkDigestSecret.loadOrCreate(file));
    }
}
