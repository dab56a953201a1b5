package org.gridcache.systemtest;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.apache.curator.framework.CuratorFramework;
import org.apache.zookeeper.KeeperException;
import org.gridcache.common.origin.OriginEntry;
import org.gridcache.zk.EmbeddedZooKeeper;
import org.gridcache.zk.MountTable;
import org.gridcache.zk.Zk;
import org.gridcache.zk.layout.ZkLayout;
import org.gridcache.zk.security.ZkClientCredential;
import org.gridcache.zk.security.ZkDigestSecret;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * What a standalone keeps is its own user's (issue 39, rows 3 and 4): an HTTPS standalone (gridenv's PKI, so its door
 * makes the macaroon root key) keeps ZooKeeper's data 0700/0600 and its logs and transfer records at most 0640,
 * whatever the umask it was started with; a ZooKeeper client without the home's secret reads and writes nothing, while the admin
 * commands run from the directory holding the home work without an option. A home an earlier version left open (its
 * ZooKeeper files 0644, its znodes {@code world:anyone}) is closed on start and its macaroon key replaced.
 */
@Timeout(value = 5, unit = TimeUnit.MINUTES)
class SecretsAtRestTest {
    private static final Set<PosixFilePermission> AT_MOST_0640 = PosixFilePermissions.fromString("rw-r-----");
    private static final ObjectMapper JSON = new ObjectMapper();
    @TempDir
    static Path tmp;
    static Path pki;
    static Path data;
    static Standalone gridcache;

    @BeforeAll
    static void start() throws Exception {
        Tools.require("curl", "openssl", "grid-proxy-init", "voms-proxy-fake");
        pki = GridEnv.pki(tmp.resolve("pki"));
        data = Files.createDirectories(tmp.resolve("data"));
        Tools.randomFile(data.resolve("f.bin"), 200_000, 39);
        gridcache = Standalone.startHttps(Files.createDirectories(tmp.resolve("new")), data.toString(), pki);
    }

    @AfterAll
    static void stop() throws Exception {
        Tools.closeAll(gridcache);
    }

    @Test
    void zooKeepersDataIsTheOwnersOnlyAndLogsAndTransferRecordsAtMost0640() throws Exception {
        Path proxy = pki.resolve("proxies/alice.pem");
        Tools.curl("-L", "--fail", "-o", "/dev/null", "--capath", pki.resolve("certificates").toString(), "--cert", proxy.toString(),
                "--key", proxy.toString(), gridcache.door() + "/f.bin").assertOk();
        Path transfers = gridcache.home().resolve("logs/transfers.jsonl");
        Tools.await("a transfer record", Duration.ofSeconds(30)).until(() -> Files.exists(transfers) && Files.size(transfers) > 0);
        assertOwnerOnly(gridcache.home().resolve("zookeeper"));
        assertAtMost0640(gridcache.home().resolve("logs"));
        assertEquals("rw-------", mode(ZkDigestSecret.file(gridcache.home())));
    }

    @Test
    void withoutTheHomesSecretAZooKeeperClientReadsAndWritesNothingButTheAdminCommandsWork() throws Exception {
        try (CuratorFramework owner = connect(gridcache.zkConnect(), ZkDigestSecret.loadOrCreate(ZkDigestSecret.file(gridcache.home())))) {
            assertNotNull(owner.getData().forPath(ZkLayout.MACAROON_SECRET), "the door made its key, which the secret's holder reads");
        }
        ZkDigestSecret another = ZkDigestSecret.loadOrCreate(tmp.resolve("another.secret"));
        for (ZkClientCredential stranger : new ZkClientCredential[] {null, another}) {
            try (CuratorFramework zk = connect(gridcache.zkConnect(), stranger)) {
                assertThrows(KeeperException.NoAuthException.class, () -> zk.getData().forPath(ZkLayout.MACAROON_SECRET), "the key");
                assertThrows(KeeperException.NoAuthException.class,
                        () -> zk.create().forPath(ZkLayout.origin("x"), "{}".getBytes(StandardCharsets.UTF_8)), "the mount table");
                assertThrows(KeeperException.NoAuthException.class, () -> zk.getData().forPath(ZkLayout.origin("default")), "an origin");
                CuratorFramework root = zk.usingNamespace(null);
                assertThrows(KeeperException.NoAuthException.class, () -> root.create().forPath("/elsewhere"), "the root");
                assertThrows(KeeperException.NoAuthException.class, () -> root.create().forPath("/zookeeper/quota/gridcache"), "quotas");
            }
        }
        gridcache.admin("origins", "add", "x", "--prefix", "/x", "--url", "http://127.0.0.1:9/").assertOk();
        try {
            assertTrue(gridcache.admin("origins", "list").assertOk().out().contains("http://127.0.0.1:9"));
        } finally {
            gridcache.admin("origins", "remove", "x").assertOk();
        }
        Tools.Result elsewhere = Gridcache.admin("origins", "add", "y", "--prefix", "/y", "--url", "http://127.0.0.1:9/", "--zk",
                gridcache.zkConnect());
        assertEquals(1, elsewhere.exit(), elsewhere.out() + elsewhere.err());
        assertTrue(elsewhere.err().contains("not allowed: ZooKeeper refused this client access to /gridcache"), elsewhere.err());
        assertEquals(1, elsewhere.err().lines().count(), "one line: " + elsewhere.err());
    }

    /** The home as an earlier version left it: files with the umask's modes, znodes open, a macaroon key anyone read. */
    @Test
    void aHomeLeftOpenByAnEarlierVersionIsClosedOnStartAndItsMacaroonKeyReplaced() throws Exception {
        Path dir = Files.createDirectories(tmp.resolve("old"));
        Path home = dir.resolve("gridcache-home");
        String oldKey = "{\"current\":\"old\",\"keys\":{\"old\":\"" + "A".repeat(43) + "=\"}}";
        try (EmbeddedZooKeeper server = EmbeddedZooKeeper.start(home.resolve("zookeeper"), "127.0.0.1", 0);
                CuratorFramework open = Zk.connect(server.connectString())) {
            MountTable.put(open, OriginEntry.of("kept", "/kept", "http://127.0.0.1:9/", null));
            open.create().creatingParentsIfNeeded().forPath(ZkLayout.MACAROON_SECRET, oldKey.getBytes(StandardCharsets.UTF_8));
        }
        Files.createDirectories(home.resolve("logs"));
        Files.writeString(home.resolve("logs/standalone.log"), "an earlier version's line\n");
        Files.writeString(home.resolve("logs/transfers.jsonl"), "{}\n");
        try (Stream<Path> all = Files.walk(home)) {
            for (Path p : all.toList()) {
                Files.setPosixFilePermissions(p, PosixFilePermissions.fromString(Files.isDirectory(p) ? "rwxr-xr-x" : "rw-r--r--"));
            }
        }
        try (Standalone upgraded = Standalone.startHttps(dir, data.toString(), pki)) {
            assertOwnerOnly(home.resolve("zookeeper"));
            assertAtMost0640(home.resolve("logs"));
            try (CuratorFramework zk = connect(upgraded.zkConnect(), null)) {
                assertThrows(KeeperException.NoAuthException.class, () -> zk.getData().forPath(ZkLayout.origin("kept")), "re-ACLed");
            }
            try (CuratorFramework owner = connect(upgraded.zkConnect(), ZkDigestSecret.loadOrCreate(ZkDigestSecret.file(home)))) {
                JsonNode keys = JSON.readTree(owner.getData().forPath(ZkLayout.MACAROON_SECRET));
                assertFalse(keys.get("current").asText().equals("old") || keys.get("keys").has("old"), "a new key: " + keys);
            }
            assertTrue(upgraded.output().contains("deleted the macaroon root keys"), upgraded.output());
            assertTrue(upgraded.admin("origins", "list").assertOk().out().contains("/kept"), "the mount table is kept");
        }
    }

    private static CuratorFramework connect(String zk, ZkClientCredential credential) throws Exception {
        return Zk.connect(zk, Duration.ofSeconds(10), Duration.ofSeconds(20), credential);
    }

    static void assertOwnerOnly(Path dir) throws IOException {
        List<Path> all;
        try (Stream<Path> walk = Files.walk(dir)) {
            all = walk.toList();
        }
        assertTrue(all.stream().anyMatch(p -> p.getFileName().toString().startsWith("log.")), "a transaction log in " + all);
        for (Path p : all) {
            assertEquals(Files.isDirectory(p) ? "rwx------" : "rw-------", mode(p), p.toString());
        }
    }

    static void assertAtMost0640(Path dir) throws IOException {
        List<Path> files;
        try (Stream<Path> list = Files.list(dir)) {
            files = list.toList();
        }
        assertFalse(files.isEmpty(), "files in " + dir);
        for (Path f : files) {
            assertTrue(AT_MOST_0640.containsAll(Files.getPosixFilePermissions(f)), f + " is " + mode(f));
        }
    }

    static String mode(Path p) throws IOException {
        return PosixFilePermissions.toString(Files.getPosixFilePermissions(p));
    }
}
