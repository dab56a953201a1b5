package org.gridcache.zk.security;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import eu.emi.security.authn.x509.X509Credential;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.cert.CertificateException;
import java.security.cert.X509Certificate;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.apache.curator.framework.CuratorFramework;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.KeeperException;
import org.gridcache.common.origin.OriginEntry;
import org.gridcache.common.security.GridCredentials;
import org.gridcache.common.security.GridTrust;
import org.gridcache.common.security.TestPki;
import org.gridcache.zk.ClusterConfig;
import org.gridcache.zk.EmbeddedZooKeeper;
import org.gridcache.zk.MountTable;
import org.gridcache.zk.Zk;
import org.gridcache.zk.layout.ZkLayout;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.gridcache.zk.lock.DavLock;
import org.gridcache.zk.lock.LockConflictException;
import org.gridcache.zk.lock.LockTable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A secured ZooKeeper server in this JVM with gridenv's PKI (server: the localhost host certificate; admin: Alice;
 * member: the voms.example.org host certificate) and clients presenting host certificates and proxies: who may write
 * and read what, and whom the quorum admits. One server for the class (ZooKeeper's TLS settings are process-wide).
 */
class SecuredZooKeeperTest {
    private static final Duration WAIT = Duration.ofSeconds(20);
    static Path pki;
    @TempDir
    static Path dir;
    static GridTrust trust;
    static ZkServerTls tls;
    static EmbeddedZooKeeper server;

    @BeforeAll
    static void start() throws Exception {
        pki = TestPki.get();
        trust = GridTrust.load(pki.resolve("certificates"), null, GridTrust.DEFAULT_REFRESH);
        tls = new ZkServerTls(GridCredentials.load(pki.resolve("host/cert.pem"), pki.resolve("host/key.pem")), trust,
                List.of("/DC=org/DC=example/CN=Alice"), List.of(), List.of());
        server = EmbeddedZooKeeper.start(dir, "127.0.0.1", 0, tls);
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

    private static X509Credential member() throws Exception {
        return GridCredentials.load(pki.resolve("voms/cert.pem"), pki.resolve("voms/key.pem"));
    }

    private static X509Credential proxy(String name) throws Exception {
        return GridCredentials.loadProxy(pki.resolve("proxies/" + name + ".pem"));
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
    void anAdminsProxyActsAsTheAdminAndWritesTheMountTableAndSettings() throws Exception {
        try (Client alice = client(proxy("alice"))) {
            assertEquals("CN=Alice,DC=example,DC=org", alice.tls().ownDn(), "a proxy is its end-entity DN");
            MountTable.put(alice.zk(), OriginEntry.of("atlas", "/atlas", "https://se.example.org/atlas"));
            ClusterConfig.set(alice.zk(), "ticket.lifetime", "2m");
            assertEquals(Map.of("ticket.lifetime", "2m"), ClusterConfig.list(alice.zk()));
            assertEquals(ZkAcls.shared(), alice.zk().getACL().forPath(ZkLayout.origin("atlas")));
        }
        try (Client member = client(member())) {
            assertEquals(List.of("atlas"), MountTable.list(member.zk()).stream().map(OriginEntry::name).toList(), "members read");
            assertThrows(KeeperException.NoAuthException.class, () -> ClusterConfig.set(member.zk(), "ticket.lifetime", "9m"));
            assertThrows(KeeperException.NoAuthException.class, () -> MountTable.remove(member.zk(), "atlas"));
        }
    }

    @Test
    void aUserWhoIsNoAdminNeitherWritesNorReads() throws Exception {
        try (Client bob = client(proxy("bob"))) {
            assertThrows(KeeperException.NoAuthException.class,
                    () -> MountTable.put(bob.zk(), OriginEntry.of("evil", "/evil", "file:///etc")));
            assertThrows(KeeperException.NoAuthException.class, () -> ClusterConfig.set(bob.zk(), "ticket.lifetime", "9m"));
            assertThrows(KeeperException.NoAuthException.class,
                    () -> bob.zk().create().withMode(CreateMode.EPHEMERAL).forPath(ZkLayout.pool("x"), new byte[0]));
            assertThrows(KeeperException.NoAuthException.class, () -> bob.zk().getChildren().forPath(ZkLayout.ORIGINS));
        }
    }

    @Test
    void aMemberRegistersItsOwnRecordWhichNoOneElseChangesAndOnlyAnAdminMayRemove() throws Exception {
        byte[] record = "{\"id\":\"v\"}".getBytes(StandardCharsets.UTF_8);
        try (Client voms = client(member()); Client localhost = client(host()); Client alice = client(proxy("alice"))) {
            voms.zk().create().withMode(CreateMode.EPHEMERAL).forPath(ZkLayout.pool("v"), record);
            assertEquals(ZkAcls.ownRecord(voms.tls().ownDn()), voms.zk().getACL().forPath(ZkLayout.pool("v")));
            for (Client other : List.of(localhost, alice)) {
                assertThrows(KeeperException.NoAuthException.class, () -> other.zk().setData().forPath(ZkLayout.pool("v"), new byte[0]));
            }
            assertThrows(KeeperException.NoAuthException.class, () -> voms.zk().create().withMode(CreateMode.EPHEMERAL)
                    .withACL(ZkAcls.ownRecord(localhost.tls().ownDn())).forPath(ZkLayout.door("in-another-name"), record),
                    "a member creates records only in its own name");
            voms.zk().setData().forPath(ZkLayout.pool("v"), record);
            alice.zk().delete().forPath(ZkLayout.pool("v")); // an admin evicts a stale or rogue record
            assertEquals(null, voms.zk().checkExists().forPath(ZkLayout.pool("v")));
        }
    }

    @Test
    void withoutDoorDnsAnyMemberRegistersAsADoorInItsOwnName() throws Exception {
        byte[] record = "{\"id\":\"v\"}".getBytes(StandardCharsets.UTF_8);
        try (Client voms = client(member()); Client localhost = client(host())) {
            voms.zk().create().withMode(CreateMode.EPHEMERAL).forPath(ZkLayout.door("v"), record);
            assertEquals(ZkAcls.ownRecord(voms.tls().ownDn()), voms.zk().getACL().forPath(ZkLayout.door("v")));
            assertThrows(KeeperException.NoAuthException.class, () -> localhost.zk().setData().forPath(ZkLayout.door("v"), new byte[0]));
            assertThrows(KeeperException.NoAuthException.class, () -> localhost.zk().delete().forPath(ZkLayout.door("v")));
            voms.zk().delete().forPath(ZkLayout.door("v"));
        }
    }

    @Test
    void theServersHostCertificateIsNoAdmin() throws Exception {
        try (Client localhost = client(host())) {
            assertThrows(KeeperException.NoAuthException.class, () -> ClusterConfig.set(localhost.zk(), "ticket.lifetime", "9m"));
            assertThrows(KeeperException.NoAuthException.class,
                    () -> localhost.zk().create().forPath(ZkLayout.origin("evil"), "{}".getBytes(StandardCharsets.UTF_8)));
        }
        try (Client voms = client(member())) {
            assertEquals(ZkAcls.doorRegistry(), voms.zk().getACL().forPath(ZkLayout.DOORS), "yet the server created the tree");
        }
        assertTrue(ZkServerTls.isTreeToken(tls.treeToken()));
        assertFalse(ZkServerTls.isTreeToken("admin".getBytes(StandardCharsets.US_ASCII)));
        assertFalse(ZkServerTls.isTreeToken(null));
    }

    @Test
    void membersShareTheLockTableAndAUserCertificateCannotTouchIt() throws Exception {
        try (Client door1 = client(member()); Client door2 = client(host()); Client bob = client(proxy("bob"))) {
            LockTable one = new LockTable(door1.zk(), Clock.systemUTC());
            DavLock lock = one.lock("/atlas/f", true, false, null, "/CN=Alice", Duration.ofMinutes(1));
            LockTable two = new LockTable(door2.zk(), Clock.systemUTC());
            assertThrows(LockConflictException.class, () -> two.lock("/atlas/f", true, false, null, "/CN=Bob", Duration.ofMinutes(1)));
            assertTrue(two.unlock(lock.token(), "/CN=Alice"), "a lock taken at one door is released at another");
            assertThrows(KeeperException.NoAuthException.class, () -> bob.zk().getChildren().forPath(ZkLayout.LOCKS));
            assertThrows(KeeperException.NoAuthException.class,
                    () -> bob.zk().create().forPath(ZkLayout.LOCKS + "/0f8fad5b-d9cb-469f-a165-70867728950e", new byte[0]));
        }
    }

    @Test
    void aPlainClientGetsNoSession() {
        assertThrows(Zk.ZkUnavailableException.class,
                () -> Zk.connect(server.connectString(), Duration.ofSeconds(4), Duration.ofSeconds(3)).close());
    }

    @Test
    void rolesComeFromTheCertificate() throws Exception {
        assertEquals(List.of("member", "door"), tls.roles(host().getCertificateChain()),
                "the server's own host DN is no admin (its tree client proves itself with the process's secret); without --door every member is a door");
        assertEquals(List.of("member", "door"), tls.roles(member().getCertificateChain()), "a host certificate");
        assertEquals(List.of("admin"), tls.roles(proxy("alice").getCertificateChain()), "an admin's proxy: admin, never a member");
        assertEquals(List.of(), tls.roles(proxy("bob").getCertificateChain()));
        assertEquals(List.of(), tls.roles(GridCredentials.load(pki.resolve("users/bob/cert.pem"), pki.resolve("users/bob/key.pem"))
                .getCertificateChain()), "a personal certificate is no member");
    }

    @Test
    void theQuorumAdmitsHostCertificatesOnly() throws Exception {
        QuorumSslContext.HostsOnly quorum = new QuorumSslContext.HostsOnly(tls.trustManager());
        quorum.checkClientTrusted(member().getCertificateChain(), "RSA");
        quorum.checkServerTrusted(host().getCertificateChain(), "RSA");
        X509Certificate[] alice = GridCredentials.load(pki.resolve("users/alice/cert.pem"), pki.resolve("users/alice/key.pem")).getCertificateChain();
        CertificateException personal = assertThrows(CertificateException.class, () -> quorum.checkClientTrusted(alice, "RSA"));
        assertTrue(personal.getMessage().contains("must present a host certificate"), personal.getMessage());
        assertThrows(CertificateException.class, () -> quorum.checkClientTrusted(proxy("alice").getCertificateChain(), "RSA"));
        assertThrows(CertificateException.class, () -> quorum.checkClientTrusted(proxy("mallory").getCertificateChain(), "RSA"),
                "revoked: canl's CRL check comes first");
        assertTrue(new QuorumSslContext().get().getProtocol().startsWith("TLS"));
    }
}
