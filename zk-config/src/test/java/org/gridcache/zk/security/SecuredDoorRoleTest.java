package org.gridcache.zk.security;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import eu.emi.security.authn.x509.X509Credential;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.apache.curator.framework.CuratorFramework;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.KeeperException;
import org.gridcache.common.security.GridCredentials;
import org.gridcache.common.security.GridTrust;
import org.gridcache.common.security.TestPki;
import org.gridcache.zk.EmbeddedZooKeeper;
import org.gridcache.zk.MacaroonSecrets;
import org.gridcache.zk.Zk;
import org.gridcache.zk.layout.ZkLayout;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A secured ZooKeeper server in this JVM started as {@code gridcache zk --door DN} (door: the voms.example.org host
 * certificate; the server's own localhost certificate is a plain member; admin: Alice): only the door registers in
 * {@code /doors}, so a pool cannot publish ticket keys. Its own server: roles are the process's configuration.
 */
class SecuredDoorRoleTest {
    private static final Duration WAIT = Duration.ofSeconds(20);
    private static final String VOMS = "/DC=org/DC=example/OU=hosts/CN=voms.example.org";
    private static final byte[] RECORD = "{\"id\":\"d1\"}".getBytes(StandardCharsets.UTF_8);
    static Path pki;
    static GridTrust trust;
    static EmbeddedZooKeeper server;
    @TempDir
    static Path zkData;

    @BeforeAll
    static void start() throws Exception {
        pki = TestPki.get();
        trust = GridTrust.load(pki.resolve("certificates"), null, GridTrust.DEFAULT_REFRESH);
        ZkServerTls tls = new ZkServerTls(host(), trust, List.of("/DC=org/DC=example/CN=Alice"), List.of(), List.of(VOMS));
        server = EmbeddedZooKeeper.start(zkData, "127.0.0.1", 0, tls);
        try (Client self = client(host())) {
            SecuredTree.ensure(self.zk(), false);
        }
    }

    @AfterAll
    static void stop() throws Exception {
        if (server != null) {
            server.close();
        }
        if (trust != null) {
            trust.close();
        }
    }

    private static X509Credential host() throws Exception {
        return GridCredentials.load(pki.resolve("host/cert.pem"), pki.resolve("host/key.pem"));
    }

    private static X509Credential door() throws Exception {
        return GridCredentials.load(pki.resolve("voms/cert.pem"), pki.resolve("voms/key.pem"));
    }

    private record Client(ZkClientTls tls, CuratorFramework zk) implements AutoCloseable {
        @Override
        public void close() {
            zk.close();
            tls.close();
        }
    }

    private static Client client(X509Credential credential) throws Exception {
        ZkClientTls clientTls = ZkClientTls.of(credential, pki.resolve("certificates"));
        return new Client(clientTls, Zk.connect(server.connectString(), Duration.ofSeconds(10), WAIT, clientTls));
    }

    @Test
    void aMemberThatIsNoDoorCannotRegisterAsOneButStillRegistersAsAPool() throws Exception {
        try (Client pool = client(host())) {
            assertThrows(KeeperException.NoAuthException.class,
                    () -> pool.zk().create().withMode(CreateMode.EPHEMERAL).forPath(ZkLayout.door("evil"), RECORD),
                    "its own record in /doors: refused, it is no door");
            assertThrows(KeeperException.NoAuthException.class, () -> pool.zk().create().withMode(CreateMode.EPHEMERAL)
                    .withACL(ZkAcls.ownRecord(pool.tls().ownDn())).forPath(ZkLayout.door("evil"), RECORD));
            assertNull(pool.zk().checkExists().forPath(ZkLayout.door("evil")));
            pool.zk().create().withMode(CreateMode.EPHEMERAL).forPath(ZkLayout.pool("p1"), RECORD);
            pool.zk().delete().forPath(ZkLayout.pool("p1"));
        }
    }

    @Test
    void theDoorRegistersItsOwnRecordWhichNoOneElseChanges() throws Exception {
        try (Client door = client(door()); Client pool = client(host()); Client alice = client(GridCredentials.loadProxy(pki.resolve("proxies/alice.pem")))) {
            assertThrows(KeeperException.NoAuthException.class, () -> door.zk().create().withMode(CreateMode.EPHEMERAL)
                    .withACL(ZkAcls.ownRecord(pool.tls().ownDn())).forPath(ZkLayout.door("in-another-name"), RECORD),
                    "a door creates records only in its own name");
            door.zk().create().withMode(CreateMode.EPHEMERAL).forPath(ZkLayout.door("d1"), RECORD);
            assertEquals(ZkAcls.ownRecord(door.tls().ownDn()), door.zk().getACL().forPath(ZkLayout.door("d1")));
            for (Client other : List.of(pool, alice)) {
                assertThrows(KeeperException.NoAuthException.class, () -> other.zk().setData().forPath(ZkLayout.door("d1"), new byte[0]));
            }
            assertThrows(KeeperException.NoAuthException.class, () -> pool.zk().delete().forPath(ZkLayout.door("d1")));
            assertEquals(new String(RECORD, StandardCharsets.UTF_8), new String(pool.zk().getData().forPath(ZkLayout.door("d1")),
                    StandardCharsets.UTF_8), "members read the doors' records (their keys)");
            door.zk().delete().forPath(ZkLayout.door("d1"));
        }
    }

    @Test
    void theMacaroonRootKeyIsMadeAndReadByTheDoorAndReadByNoPoolNorUser() throws Exception {
        try (Client door = client(door()); Client pool = client(host());
             Client bob = client(GridCredentials.loadProxy(pki.resolve("proxies/bob.pem")));
             MacaroonSecrets secrets = new MacaroonSecrets(door.zk()).start(WAIT)) {
            assertEquals(32, secrets.current().secret().length);
            assertEquals(ZkAcls.secret(), door.zk().getACL().forPath(ZkLayout.MACAROON_SECRET));
            for (Client other : List.of(pool, bob)) {
                assertThrows(KeeperException.NoAuthException.class, () -> other.zk().getData().forPath(ZkLayout.MACAROON_SECRET),
                        "a pool or a user reads no macaroon key");
                assertThrows(KeeperException.NoAuthException.class, () -> other.zk().setData().forPath(ZkLayout.MACAROON_SECRET, RECORD));
            }
            assertThrows(KeeperException.NoAuthException.class, () -> new MacaroonSecrets(pool.zk()).start(WAIT),
                    "a pool cannot start as a door would");
            assertThrows(KeeperException.NoAuthException.class, () -> door.zk().setData().forPath(ZkLayout.MACAROON_SECRET, RECORD),
                    "a door made the key but cannot replace it: a rotation is an admin's");
        }
    }

    @Test
    void theServersHostCertificateIsNoAdminAndAddauthGrantsNothing() throws Exception {
        try (Client pool = client(host())) {
            assertThrows(KeeperException.NoAuthException.class,
                    () -> pool.zk().create().forPath(ZkLayout.origin("evil"), "{}".getBytes(StandardCharsets.UTF_8)));
            pool.zk().getZookeeperClient().getZooKeeper().addAuthInfo(ZkAcls.SCHEME, "admin".getBytes(StandardCharsets.US_ASCII));
            assertThrows(KeeperException.class,
                    () -> pool.zk().create().forPath(ZkLayout.origin("evil"), "{}".getBytes(StandardCharsets.UTF_8)));
        }
        try (Client alice = client(GridCredentials.loadProxy(pki.resolve("proxies/alice.pem")))) {
            assertNull(alice.zk().checkExists().forPath(ZkLayout.origin("evil")));
        }
    }

    @Test
    void onlyTheNamedEndEntityCertificateIsADoorNeverAProxy() throws Exception {
        String alice = "/DC=org/DC=example/CN=Alice";
        ZkServerTls aliceIsADoor = new ZkServerTls(host(), trust, List.of(), List.of(), List.of(alice));
        assertEquals(List.of("member", "door"), aliceIsADoor.roles(
                GridCredentials.load(pki.resolve("users/alice/cert.pem"), pki.resolve("users/alice/key.pem")).getCertificateChain()),
                "a --door DN is a member too");
        assertEquals(List.of(), aliceIsADoor.roles(GridCredentials.loadProxy(pki.resolve("proxies/alice.pem")).getCertificateChain()));
        assertEquals(List.of("member"), aliceIsADoor.roles(host().getCertificateChain()), "with --door, a host certificate is a member only");
        ZkServerTls rfc2253 = new ZkServerTls(host(), trust, List.of(), List.of(), List.of("CN=voms.example.org,OU=hosts,DC=example,DC=org"));
        assertEquals(List.of("member", "door"), rfc2253.roles(door().getCertificateChain()), "a --door DN in RFC 2253 form");
    }
}
