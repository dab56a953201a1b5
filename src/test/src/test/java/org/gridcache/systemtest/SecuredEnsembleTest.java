package org.gridcache.systemtest;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.SocketException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.apache.curator.framework.CuratorFramework;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.KeeperException;
import org.gridcache.common.security.GridCredentials;
import org.gridcache.zk.Zk;
import org.gridcache.zk.layout.ZkLayout;
import org.gridcache.zk.security.ZkAcls;
import org.gridcache.zk.security.ZkClientTls;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A secured cluster, every part its own process: three {@code gridcache zk} members with TLS for clients and quorum,
 * certificates and ACLs (admin: Alice; {@code --door}: the door's DN), two pools and a door connected with {@code --zk-tls} and their own host
 * certificates (made here from gridenv's CA), an nginx origin mounted by Alice with her proxy. A read works end to end;
 * a plain ZooKeeper client, a non-admin certificate and another pool are refused what they may not do; a bad origin
 * entry is ignored with a log line. One cluster for the class; no test changes what another one reads.
 */
@Timeout(value = 5, unit = TimeUnit.MINUTES)
class SecuredEnsembleTest {
    private static final String ALICE = "/DC=org/DC=example/CN=Alice";
    private static final String DOOR_DN = "/DC=org/DC=example/OU=hosts/CN=door1.example.org";
    @TempDir
    static Path tmp;
    static Path pki;
    static Path caDir;
    static NginxOrigin origin;
    static Path data;
    static final Gridcache[] zk = new Gridcache[3];
    static final int[] clientPorts = new int[3];
    static String zkConnect;
    static final Gridcache[] pools = new Gridcache[2];
    static final Path[] poolCerts = new Path[2];
    static Gridcache door;
    static String doorUrl;

    @BeforeAll
    static void start() throws Exception {
        Tools.require("curl", "nginx", "openssl");
        pki = GridEnv.pki(tmp.resolve("pki"));
        caDir = pki.resolve("certificates");
        data = Files.createDirectories(tmp.resolve("data"));
        for (int i = 0; i < 8; i++) {
            Tools.randomFile(data.resolve("f" + i + ".bin"), 128 * 1024 + i, 300 + i);
        }
        origin = NginxOrigin.start(tmp.resolve("nginx"), data);
        List<String> members = new ArrayList<>();
        List<String> clients = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            clientPorts[i] = Tools.freePort();
            members.add("127.0.0.1:" + clientPorts[i] + ":" + Tools.freePort() + ":" + Tools.freePort());
            clients.add("127.0.0.1:" + clientPorts[i]);
        }
        zkConnect = String.join(",", clients);
        Path doorCert = hostCertificate("door1");
        for (int i = 0; i < 3; i++) {
            zk[i] = Gridcache.start(tmp.resolve("zk" + (i + 1) + ".out"), "zk", "--home", tmp.resolve("zk" + (i + 1)).toString(),
                    "--ensemble", String.join(",", members), "--id", String.valueOf(i + 1), "--log-dir", tmp.resolve("logs").toString(),
                    "--host-cert", pki.resolve("host/cert.pem").toString(), "--host-key", pki.resolve("host/key.pem").toString(),
                    "--ca-dir", caDir.toString(), "--admin", ALICE, "--door", DOOR_DN);
        }
        for (Gridcache member : zk) {
            member.awaitOutput("is up");
        }
        asAlice("origins", "add", "fast", "--prefix", "/fast", "--url", origin.url()).assertOk();
        asAlice("config", "set", "selection.spill-load", "1000").assertOk();
        Path conf = tmp.resolve("gridcache.properties");
        Files.writeString(conf, "plain-http=true\nzk=" + zkConnect + "\nzk-tls=true\nca-dir=" + caDir
                + "\nlog-dir=" + tmp.resolve("logs") + "\nzk-session-timeout=4s\n");
        for (int i = 0; i < 2; i++) {
            poolCerts[i] = hostCertificate("pool" + (i + 1));
            pools[i] = Gridcache.start(tmp.resolve("pool" + (i + 1) + ".out"), "pool", "--config", conf.toString(), "--name", "p" + (i + 1),
                    "--store", tmp.resolve("store" + (i + 1)).toString(), "--capacity", "1G", "--port", String.valueOf(Tools.freePort()),
                    "--host-cert", poolCerts[i].resolve("cert.pem").toString(), "--host-key", poolCerts[i].resolve("key.pem").toString());
            pools[i].awaitOutput("is up"); // the first creates the shared ticket key
        }
        int port = Tools.freePort();
        door = Gridcache.start(tmp.resolve("door.out"), "door", "--config", conf.toString(), "--port", String.valueOf(port), "--id", "d1",
                "--host-cert", doorCert.resolve("cert.pem").toString(), "--host-key", doorCert.resolve("key.pem").toString());
        door.awaitOutput("is up");
        doorUrl = "http://127.0.0.1:" + port;
        Tools.await("both pools seen by the door", Duration.ofSeconds(60), () -> poolsChosen().size() == 2);
    }

    /** Alice, with her proxy as $X509_USER_PROXY (the admin commands' default credential). */
    private static Tools.Result asAlice(String... args) {
        List<String> cmd = new ArrayList<>(List.of("env", "X509_USER_PROXY=" + pki.resolve("proxies/alice.pem"),
                Gridcache.DIST.resolve("bin/gridcache").toString()));
        cmd.addAll(List.of(args));
        cmd.addAll(List.of("--zk", zkConnect, "--zk-tls", "--ca-dir", caDir.toString()));
        return Tools.run(Duration.ofSeconds(60), cmd.toArray(String[]::new));
    }

    /** A host certificate of its own (the grid's host profile: DNS name and address in subjectAltName) from gridenv's CA. */
    private static Path hostCertificate(String name) throws IOException {
        Path dir = Files.createDirectories(tmp.resolve("certs/" + name));
        Tools.run(Duration.ofSeconds(30), "openssl", "req", "-new", "-newkey", "rsa:2048", "-nodes",
                "-subj", "/DC=org/DC=example/OU=hosts/CN=" + name + ".example.org",
                "-keyout", dir.resolve("key.pem").toString(), "-out", dir.resolve("req.pem").toString()).assertOk();
        Tools.run(Duration.ofSeconds(30), "openssl", "x509", "-req", "-in", dir.resolve("req.pem").toString(),
                "-CA", pki.resolve("ca/ca.pem").toString(), "-CAkey", pki.resolve("ca/ca.key").toString(),
                "-set_serial", String.valueOf(System.nanoTime()), "-days", "2", "-sha256",
                "-extfile", pki.resolve("ca/openssl.cnf").toString(), "-extensions", "host",
                "-out", dir.resolve("cert.pem").toString()).assertOk();
        return dir;
    }

    /** A ZooKeeper client in this JVM presenting {@code cert}/{@code key} (a proxy file when {@code key} is null). */
    private static Client client(Path cert, Path key) throws Exception {
        ZkClientTls tls = ZkClientTls.of(key == null ? GridCredentials.loadProxy(cert) : GridCredentials.load(cert, key), caDir);
        return new Client(tls, Zk.connect(zkConnect, Duration.ofSeconds(10), Duration.ofSeconds(30), tls));
    }

    private record Client(ZkClientTls tls, CuratorFramework zk) implements AutoCloseable {
        @Override
        public void close() {
            zk.close();
            tls.close();
        }
    }

    @AfterAll
    static void stop() throws Exception {
        List<Gridcache> all = new ArrayList<>();
        all.add(door);
        all.addAll(List.of(pools));
        all.addAll(List.of(zk));
        for (Gridcache g : all) {
            if (g != null) {
                g.close();
            }
        }
        if (origin != null) {
            origin.close();
        }
    }

    private static Set<String> poolsChosen() {
        Set<String> seen = new HashSet<>();
        for (int i = 0; i < 8; i++) {
            Tools.Result r = Tools.curl("-o", "/dev/null", "-w", "%{http_code} %{redirect_url}", doorUrl + "/fast/f" + i + ".bin");
            String[] parts = r.out().trim().split(" ", 2);
            if (parts[0].equals("302") && parts.length == 2) {
                seen.add(parts[1].substring(0, parts[1].indexOf('/', "http://".length())));
            }
        }
        return seen;
    }

    private static void readAndCheck(String file) throws IOException {
        Path out = tmp.resolve("read-" + System.nanoTime());
        Tools.curl("-fL", "-o", out.toString(), doorUrl + "/fast/" + file).assertOk();
        assertEquals(Tools.sha256(data.resolve(file)), Tools.sha256(out), "the bytes of " + file);
        Files.delete(out);
    }

    @Test
    void aDoorAndTwoPoolsConnectedOverTlsServeReadsEndToEnd() throws Exception {
        for (int i = 0; i < 8; i++) {
            readAndCheck("f" + i + ".bin");
        }
        for (Gridcache member : zk) {
            assertTrue(member.output().contains("sslQuorum") || member.output().contains("quorum over TLS"), "quorum over TLS");
        }
        String log = String.join("", zk[0].output(), zk[1].output(), zk[2].output());
        assertTrue(log.contains("CN=pool1.example.org") && log.contains("roles [member]"), "pools authenticated as members: " + log);
    }

    /** The macaroon root keys are in every member's log in clear: ACLs protect them only if nobody else reads the files. */
    @Test
    void eachMembersDataIsItsUsersOnlyAndLogsAndTransferRecordsAtMost0640() throws Exception {
        readAndCheck("f2.bin");
        Tools.await("transfer records of the door and a pool", Duration.ofSeconds(30)).until(() -> {
            try (var files = Files.list(tmp.resolve("logs"))) {
                return files.filter(f -> f.getFileName().toString().startsWith("transfers-")).count() >= 2;
            }
        });
        for (int i = 1; i <= 3; i++) {
            SecretsAtRestTest.assertOwnerOnly(tmp.resolve("zk" + i + "/zookeeper"));
        }
        SecretsAtRestTest.assertAtMost0640(tmp.resolve("logs"));
    }

    @Test
    void aPlainZooKeeperClientCannotConnect() throws Exception {
        // a plain server answers the four-letter word "srvr" with its status; a TLS-only one hangs up without a word (it
        // needs five bytes to see that they are no TLS record)
        for (int port : clientPorts) {
            try (Socket s = new Socket("127.0.0.1", port)) {
                s.setSoTimeout(10_000);
                OutputStream out = s.getOutputStream();
                out.write("srvr\r\n".getBytes(StandardCharsets.US_ASCII));
                out.flush();
                InputStream in = s.getInputStream();
                byte[] answer;
                try {
                    answer = in.readAllBytes();
                } catch (SocketException reset) {
                    answer = new byte[0];
                }
                assertFalse(new String(answer, StandardCharsets.US_ASCII).contains("Zookeeper version"), "no plain answer on " + port);
            }
        }
        assertThrows(Zk.ZkUnavailableException.class, () -> Zk.connect(zkConnect, Duration.ofSeconds(4), Duration.ofSeconds(5)).close(),
                "ZooKeeper's own client without TLS gets no session");
    }

    /** Issue 42 item 6: an admin command without --zk-tls against this TLS ensemble says to add it, in one line. */
    @Test
    void anAdminCommandWithoutTlsIsToldToAddIt() {
        Tools.Result r = Gridcache.admin("origins", "list", "--zk", zkConnect);
        assertEquals(1, r.exit(), r.out() + r.err());
        assertTrue(r.err().contains("does not answer as ZooKeeper; if the ensemble speaks TLS, add --zk-tls"), r.err());
        assertEquals(1, r.err().strip().lines().count(), r.err());
    }

    @Test
    void aNonAdminCertificateCannotWriteOriginsConfigOrPools() throws Exception {
        Path bob = pki.resolve("proxies/bob.pem");
        Tools.Result add = Gridcache.admin("origins", "add", "evil", "--prefix", "/evil", "--url", "file:///etc", "--zk", zkConnect, "--zk-tls",
                "--cert", bob.toString(), "--ca-dir", caDir.toString());
        assertEquals(1, add.exit(), add.out() + add.err());
        assertTrue(add.err().contains("not allowed"), add.err());
        assertFalse(add.err().contains("NoAuthException") || add.err().lines().anyMatch(l -> l.strip().startsWith("at ")),
                "issue 42: the one line, no trace before it: " + add.err());
        Tools.Result set = Gridcache.admin("config", "set", "ticket.lifetime", "9m", "--zk", zkConnect, "--zk-tls",
                "--cert", bob.toString(), "--ca-dir", caDir.toString());
        assertEquals(1, set.exit(), set.out() + set.err());
        try (Client asBob = client(bob, null); Client asPool = client(poolCerts[1].resolve("cert.pem"), poolCerts[1].resolve("key.pem"))) {
            for (Client c : List.of(asBob, asPool)) {
                assertThrows(KeeperException.NoAuthException.class,
                        () -> c.zk().create().forPath(ZkLayout.origin("evil"), "{}".getBytes(StandardCharsets.UTF_8)), "origins");
                assertThrows(KeeperException.NoAuthException.class,
                        () -> c.zk().setData().forPath(ZkLayout.CONFIG, "{\"ticket.lifetime\":\"9m\"}".getBytes(StandardCharsets.UTF_8)), "config");
            }
            assertThrows(KeeperException.NoAuthException.class,
                    () -> asBob.zk().create().withMode(CreateMode.EPHEMERAL).forPath(ZkLayout.pool("x"), "{}".getBytes(StandardCharsets.UTF_8)),
                    "a user's certificate registers no pool");
            assertThrows(KeeperException.NoAuthException.class, () -> asBob.zk().getData().forPath(ZkLayout.origin("fast")),
                    "a user's certificate does not even read the mount table");
        }
        assertFalse(asAlice("origins", "list").out().contains("evil"));
    }

    @Test
    void aPoolCannotWriteOrRemoveAnotherPoolsRecordButRegistersItsOwn() throws Exception {
        try (Client asPool2 = client(poolCerts[1].resolve("cert.pem"), poolCerts[1].resolve("key.pem"));
                Client asPool1 = client(poolCerts[0].resolve("cert.pem"), poolCerts[0].resolve("key.pem"))) {
            byte[] record = asPool2.zk().getData().forPath(ZkLayout.pool("p1"));
            assertNotNull(record, "members read the pools");
            assertThrows(KeeperException.NoAuthException.class, () -> asPool2.zk().setData().forPath(ZkLayout.pool("p1"), record));
            assertThrows(KeeperException.NoAuthException.class, () -> asPool2.zk().delete().forPath(ZkLayout.pool("p1")));
            // a record created in another pool's name (its DN in the ACL) is refused: the owner is who creates
            assertThrows(KeeperException.NoAuthException.class, () -> asPool2.zk().create().withMode(CreateMode.EPHEMERAL)
                    .withACL(ZkAcls.ownRecord(asPool1.tls().ownDn())).forPath(ZkLayout.pool("p9"), record));
            asPool2.zk().create().withMode(CreateMode.EPHEMERAL).forPath(ZkLayout.pool("p9"), record);
            assertThrows(KeeperException.NoAuthException.class, () -> asPool1.zk().delete().forPath(ZkLayout.pool("p9")));
            asPool2.zk().delete().forPath(ZkLayout.pool("p9"));
        }
    }

    @Test
    void onlyTheDoorDnRegistersInDoorsSoAPoolCannotPublishTicketKeys() throws Exception {
        String log = String.join("", zk[0].output(), zk[1].output(), zk[2].output());
        assertTrue(log.contains("CN=door1.example.org") && log.contains("roles [member, door]"), "the door authenticated as a door: " + log);
        assertFalse(log.contains("no --door given"), "no warning with --door");
        try (Client asPool = client(poolCerts[0].resolve("cert.pem"), poolCerts[0].resolve("key.pem"))) {
            byte[] record = asPool.zk().getData().forPath(ZkLayout.door("d1"));
            assertNotNull(record, "members read the doors' records");
            assertThrows(KeeperException.NoAuthException.class, () -> asPool.zk().create().withMode(CreateMode.EPHEMERAL)
                    .forPath(ZkLayout.door("evil"), record), "a pool registers no door, not even in its own name");
            assertThrows(KeeperException.NoAuthException.class, () -> asPool.zk().setData().forPath(ZkLayout.door("d1"), record));
            assertThrows(KeeperException.NoAuthException.class, () -> asPool.zk().delete().forPath(ZkLayout.door("d1")));
        }
    }

    @Test
    void aBadOriginEntryWrittenByAnAdminIsIgnoredWithALogLineAndTheRestStillWorks() throws Exception {
        try (Client asAlice = client(pki.resolve("proxies/alice.pem"), null)) {
            asAlice.zk().create().forPath(ZkLayout.origin("bad"),
                    "{\"name\":\"bad\",\"prefix\":\"/bad\",\"url\":\"ftp://internal.example.org/\",\"protocol\":\"ftp\"}".getBytes(StandardCharsets.UTF_8));
            try {
                Tools.await("the door to log the bad entry", Duration.ofSeconds(30), () -> door.output().contains("ignoring origin /origins/bad"));
                assertEquals("404", Tools.curl("-o", "/dev/null", "-w", "%{http_code}", doorUrl + "/bad/x").out().trim(), "no such mount");
                readAndCheck("f1.bin");
            } finally {
                asAlice.zk().delete().forPath(ZkLayout.origin("bad"));
            }
        }
    }
}
