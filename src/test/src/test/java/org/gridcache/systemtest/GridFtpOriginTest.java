package org.gridcache.systemtest;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import eu.emi.security.authn.x509.X509Credential;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import org.gridcache.common.security.GridCredentials;
import org.gridcache.gridftp.GridFtp;
import org.gridcache.gridftp.GridFtpConnection;
import org.gridcache.gridftp.GridFtpException;
import org.gridcache.gridftp.GridFtpOptions;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * GridFTP origins end to end, with real parts: gridenv's PKI and its globus-gridftp-server (GSI, a grid-mapfile),
 * the distribution's zk, pool and door as HTTPS processes, curl with Alice's VOMS proxy. The door lists the origin
 * with MLSD/MLST as Alice (her delegated proxy); the pool fetches with jGlobus as Alice, in stream mode and with 4
 * MODE E streams, with DCAU and data channel protection, verifies the origin's CKSM, and serves cold ranges from
 * blocks read by partial retrieves and kept; it refuses what the origin refuses, and gives up a file gone, a server
 * down, a transfer cut, a checksum mismatch.
 *
 * <p>The PKI, the GridFTP server, zk, the pool p1 and the door are started once for the class. Each test sets up the
 * state it needs itself (Alice delegated or not, files only it reads, settings it restores, the server or pool it
 * stops brought back), so the tests run in any order and one failure does not cascade.
 */
@Timeout(value = 10, unit = TimeUnit.MINUTES)
class GridFtpOriginTest {
    static final String ALICE_DN = "/DC=org/DC=example/CN=Alice";
    static final String POLICY = """
            vo:atlas /atlas list,read
            dn:"/DC=org/DC=example/CN=Alice" /atlas/private.bin read
            dn:"/DC=org/DC=example/CN=Alice" /atlas/reuse/plain read
            authenticated / list
            """;
    static final String HOST_DN = "/DC=org/DC=example/OU=hosts/CN=localhost";
    @TempDir
    static Path tmp;
    static Path pki;
    static Path pkiParent;
    static Path data;
    static Path conf;
    static Path logs;
    static String zkConnect;
    static GridEnv.GridFtpOrigin origin;
    static Gridcache zk;
    static Gridcache pool;
    static Gridcache door;
    static String doorUrl;
    static int poolPort;

    @BeforeAll
    static void start() throws Exception {
        Tools.require("curl", "openssl", "grid-proxy-init", "voms-proxy-fake", "globus-gridftp-server", "globus-url-copy",
                "htproxyput");
        pkiParent = GridEnv.worldReadableDir("gridcache-test-pki");
        pki = GridEnv.pki(pkiParent.resolve("pki"));
        // the server runs as the mapped account (gridalice): the data must be world-readable
        data = GridEnv.worldReadableDir("gridcache-gridftp-origin");
        Path atlas = Files.createDirectories(data.resolve("atlas/sub"));
        Files.createDirectories(data.resolve("atlas/undelegated")); // listed by one test only, never cached
        GridEnv.makeReadable(atlas.getParent());
        GridEnv.makeReadable(atlas);
        Tools.randomFile(data.resolve("atlas/file.bin"), 3_000_000, 41);
        Tools.randomFile(data.resolve("atlas/four.bin"), 40_000_000, 42);
        Tools.randomFile(data.resolve("atlas/private.bin"), 5_000_000, 43);
        Tools.randomFile(data.resolve("atlas/range.bin"), 64_000_000, 44);
        Tools.randomFile(data.resolve("atlas/small-range.bin"), 8_000_000, 45);
        Tools.randomFile(data.resolve("atlas/gone.bin"), 100_000, 45);
        Tools.randomFile(data.resolve("atlas/down.bin"), 100_000, 46);
        Files.createDirectories(data.resolve("atlas/reuse"));
        Tools.randomFile(data.resolve("atlas/reuse/b1.bin"), 2_000_000, 53); // read by the connection reuse tests only
        Tools.randomFile(data.resolve("atlas/reuse/b2.bin"), 2_000_000, 54);
        Tools.randomFile(data.resolve("atlas/reuse/a1.bin"), 2_000_000, 55);
        Tools.randomFile(data.resolve("atlas/reuse/e1.bin"), 12_000_000, 56);
        Tools.randomFile(data.resolve("atlas/reuse/e2.bin"), 12_000_000, 57);
        Files.createDirectories(data.resolve("atlas/reuse/plain"));
        Tools.randomFile(data.resolve("atlas/reuse/plain/p1.bin"), 2_000_000, 58);
        Tools.randomFile(data.resolve("atlas/reuse/plain/p2.bin"), 2_000_000, 59);
        Files.createDirectories(data.resolve("atlas/lookups/one"));
        Files.createDirectories(data.resolve("atlas/lookups/two"));
        Tools.randomFile(data.resolve("atlas/lookups/one/l1.bin"), 1000, 60);
        Tools.randomFile(data.resolve("atlas/lookups/two/l2.bin"), 1000, 61);
        Tools.randomFile(data.resolve("atlas/htproxyput.bin"), 100_000, 49); // made here: the door caches listings
        Tools.randomFile(data.resolve("atlas/sub/small.bin"), 1000, 48);
        Tools.randomFile(data.resolve("atlas/undelegated/x.bin"), 1000, 51);
        Tools.randomFile(data.resolve("atlas/digest.bin"), 700_000, 52); // read by the checksum test only
        Files.write(data.resolve("atlas/empty.bin"), new byte[0]);
        try (RandomAccessFile sparse = new RandomAccessFile(data.resolve("atlas/huge.bin").toFile(), "rw")) {
            sparse.setLength(20L << 30); // 20 GiB of holes: a transfer that is surely still running when cut
        }
        try (RandomAccessFile sparse = new RandomAccessFile(data.resolve("atlas/stalled.bin").toFile(), "rw")) {
            sparse.setLength(20L << 30); // the same, for the test that stalls the server instead
        }
        try (RandomAccessFile sparse = new RandomAccessFile(data.resolve("atlas/changing.bin").toFile(), "rw")) {
            sparse.setLength(1L << 30); // 1 GiB: changed at the origin while it is being sent
        }
        try (RandomAccessFile sparse = new RandomAccessFile(data.resolve("atlas/long.bin").toFile(), "rw")) {
            sparse.setLength(2L << 30); // 2 GiB: several seconds here, longer than a 1 s gridftp.timeout
        }
        try (var files = Files.walk(data.resolve("atlas"))) {
            for (Path f : files.toList()) {
                GridEnv.makeReadable(f);
            }
        }
        // listed and statted by anyone, read by no one but root: MLST succeeds, the server refuses RETR and ERET
        Tools.randomFile(data.resolve("atlas/unreadable.bin"), 100_000, 62);
        Files.setPosixFilePermissions(data.resolve("atlas/unreadable.bin"), PosixFilePermissions.fromString("rw-------"));
        origin = GridEnv.GridFtpOrigin.start(pki, data);

        int zkPort = Tools.freePort();
        zkConnect = "127.0.0.1:" + zkPort;
        zk = Gridcache.start(tmp.resolve("zk.out"), "zk", "--home", tmp.resolve("zk").toString(), "--port", String.valueOf(zkPort))
                .awaitOutput("is up");
        Gridcache.admin("origins", "add", "atlas", "--prefix", "/atlas", "--url", origin.url("atlas"), "--zk", zkConnect).assertOk();
        Path policy = tmp.resolve("authz.conf");
        Files.writeString(policy, POLICY);
        conf = tmp.resolve("gridcache.properties");
        logs = tmp.resolve("logs");
        Files.writeString(conf, "zk=" + zkConnect
                + "\nhost-cert=" + pki.resolve("host/cert.pem") + "\nhost-key=" + pki.resolve("host/key.pem")
                + "\nca-dir=" + pki.resolve("certificates") + "\nvomsdir=" + pki.resolve("vomsdir") + "\n");
        poolPort = Tools.freePort();
        pool = Gridcache.start(tmp.resolve("p1.out"), "pool", "--config", conf.toString(), "--log-dir", logs.toString(),
                "--name", "p1", "--store", tmp.resolve("store-p1").toString(), "--capacity", "100G",
                "--port", String.valueOf(poolPort)).awaitOutput("is up");
        int doorPort = Tools.freePort();
        doorUrl = "https://localhost:" + doorPort;
        door = Gridcache.start(tmp.resolve("door.out"), "door", "--config", conf.toString(), "--log-dir", logs.toString(),
                "--port", String.valueOf(doorPort), "--public-url", doorUrl, "--authz", policy.toString(), "--pool-identity", HOST_DN)
                .awaitOutput("is up");
    }

    /** Fixture, idempotent: Alice has delegated her VOMS proxy. */
    static void aliceDelegated() {
        GridEnv.delegated(pki, doorUrl, "alice-atlas");
    }

    /** Fixture, idempotent: Alice has no delegation (neither her VOMS proxy nor the plain one). */
    static void aliceWithoutDelegation() {
        GridEnv.withoutDelegation(pki, doorUrl, "alice-atlas", "plain");
    }

    @AfterAll
    static void stop() throws Exception {
        Tools.closeAll(origin, zk, pool, door);
        for (Path dir : new Path[] {data, pkiParent}) {
            if (dir != null) {
                Tools.run(Duration.ofMinutes(1), "rm", "-rf", dir.toString());
            }
        }
    }

    static Tools.Result curlAs(String proxy, String... args) {
        return GridEnv.curlAs(pki, proxy, args);
    }

    static int status(Tools.Result r) {
        return GridEnv.lastStatus(r);
    }

    static void config(String key, String value) {
        Gridcache.admin("config", "set", key, value, "--zk", zkConnect).assertOk();
    }

    /** Reads {@code path} through door and pool as Alice: asserts 200, the X-Cache value and the bytes. */
    static void readExact(String path, String expectedCache) throws Exception {
        readExact(path, expectedCache, "alice-atlas");
    }

    /** As {@link #readExact(String, String)}, in a session with gridenv's proxies/PROXY.pem. */
    static void readExact(String path, String expectedCache, String proxy) throws Exception {
        Path out = tmp.resolve("read.out");
        Tools.Result r = curlAs(proxy, "-L", "-o", out.toString(), doorUrl + path);
        if (status(r) != 200) {
            fail(r.out() + Files.readString(out, java.nio.charset.StandardCharsets.ISO_8859_1));
        }
        assertTrue(r.out().contains("X-Cache: " + expectedCache), r.out());
        assertEquals(Files.size(data.resolve(path.substring(1))), Files.size(out), () -> "the whole body of " + path + ": "
                + r.out() + "\nthe pool's warnings: " + poolWarnings());
        assertEquals(Tools.sha256(data.resolve(path.substring(1))), Tools.sha256(out), "byte-exact " + path);
    }

    /** The pool's WARN and ERROR lines so far: why a fetch failed. */
    static String poolWarnings() {
        StringBuilder lines = new StringBuilder();
        Tools.readLogs(logs, "pool").lines().filter(l -> l.contains("WARN") || l.contains("ERROR"))
                .forEach(l -> lines.append('\n').append(l));
        return lines.toString();
    }

    @Test
    void listingWithoutDelegationIs401NamingTheDelegationEndpoint() {
        aliceWithoutDelegation();
        Tools.Result r = curlAs("alice-atlas", "-X", "PROPFIND", "-H", "Depth: 1", doorUrl + "/atlas/undelegated/");
        assertEquals(401, status(r), r.out());
        assertTrue(r.out().contains("X-Delegate-To: " + doorUrl + "/.gridcache/delegation"), r.out());
    }

    /**
     * Alice's {@code /cms} session, while her {@code /atlas} delegation exists and the door holds the listing made with
     * it: asked to delegate, shown nothing (the cache is keyed by the delegation, the delegation by DN and FQANs).
     */
    @Test
    void aCmsSessionIsNotServedWithTheAtlasDelegationNorItsCachedListing() {
        aliceDelegated();
        assertEquals(207, status(curlAs("alice-atlas", "-X", "PROPFIND", "-H", "Depth: 1", doorUrl + "/atlas/")));
        Tools.Result r = curlAs("alice-cms", "-X", "PROPFIND", "-H", "Depth: 1", doorUrl + "/atlas/");
        assertEquals(401, status(r), r.out());
        assertTrue(r.out().contains("X-Delegate-To: " + doorUrl + "/.gridcache/delegation"), r.out());
        assertFalse(r.out().contains("file.bin"), r.out());
    }

    /**
     * {@code curl -I -H 'Want-Digest: adler32, md5'} at the door for a GridFTP file: the pool fills it (verified with
     * the server's CKSM) and the door answers the Digest; a GET that follows is a hit with the same Digest.
     */
    @Test
    void aHeadWithWantDigestIsAnsweredWithTheFilesChecksums() throws Exception {
        aliceDelegated();
        Path file = data.resolve("atlas/digest.bin");
        String adler = Tools.run(Duration.ofSeconds(30), "python3", "-c",
                "import sys, zlib; print('%08x' % zlib.adler32(open(sys.argv[1], 'rb').read()))", file.toString()).assertOk().out().trim();
        String md5 = java.util.Base64.getEncoder().encodeToString(java.util.HexFormat.of().parseHex(
                Tools.run(Duration.ofSeconds(30), "md5sum", file.toString()).assertOk().out().split(" ")[0]));
        Tools.Result head = curlAs("alice-atlas", "-I", "-H", "Want-Digest: adler32, md5", doorUrl + "/atlas/digest.bin");
        assertEquals(200, status(head), head.out());
        assertTrue(head.out().contains("Digest: adler32=" + adler + ",md5=" + md5), head.out());
        Path out = tmp.resolve("digest.out");
        Tools.Result get = curlAs("alice-atlas", "-L", "-H", "Want-Digest: adler32", "-o", out.toString(), doorUrl + "/atlas/digest.bin");
        assertEquals(200, status(get), get.out());
        assertTrue(get.out().contains("X-Cache: HIT") && get.out().contains("Digest: adler32=" + adler), get.out());
        assertEquals(Tools.sha256(file), Tools.sha256(out));
    }

    @Test
    void theDoorListsTheOriginWithMlsdAsTheUser() {
        Gridcache.admin("delegate", "--proxy", pki.resolve("proxies/alice-atlas.pem").toString(), "--capath",
                pki.resolve("certificates").toString(), doorUrl).assertOk();
        Tools.Result r = curlAs("alice-atlas", "-X", "PROPFIND", "-H", "Depth: 1", doorUrl + "/atlas/");
        assertEquals(207, status(r), r.out());
        assertTrue(r.out().contains("file.bin") && r.out().contains("four.bin") && r.out().contains("<d:collection/>")
                || r.out().contains("file.bin") && r.out().contains("four.bin") && r.out().toLowerCase().contains("collection"), r.out());
        assertTrue(r.out().contains("<d:getcontentlength>3000000</d:getcontentlength>")
                || r.out().toLowerCase().contains("getcontentlength>3000000<"), "size from MLSD: " + r.out());
        Tools.Result sub = curlAs("alice-atlas", doorUrl + "/atlas/sub/");
        assertEquals(200, status(sub), sub.out());
        assertTrue(sub.out().contains("small.bin"), sub.out());
        Tools.Result head = curlAs("alice-atlas", "-I", doorUrl + "/atlas/sub/small.bin");
        assertEquals(200, status(head), head.out());
        assertTrue(head.out().contains("Content-Length: 1000"), "size from MLST: " + head.out());
        Tools.Result missing = curlAs("alice-atlas", doorUrl + "/atlas/nope.bin");
        assertEquals(404, status(missing), missing.out());
    }

    @Test
    void aReadIsByteExactInStreamModeAndTheSecondReadIsAHit() throws Exception {
        aliceDelegated();
        config("gridftp.streams", "1");
        readExact("/atlas/file.bin", "MISS");
        readExact("/atlas/file.bin", "HIT");
    }

    /** An empty file sends no data: its fetch begins when RETR ends, and it is cached like any other. */
    @Test
    void anEmptyFileIsReadAndThenAHit() throws Exception {
        aliceDelegated();
        readExact("/atlas/empty.bin", "MISS");
        readExact("/atlas/empty.bin", "HIT");
    }

    /**
     * The pool's GSI control connections to the origin, as the kernel sees them (immediate and exact, unlike the
     * server's log, which each server process flushes every 5 s): the pool's local ports.
     */
    static Set<Integer> poolControlConnections() {
        Tools.Result r = Tools.run(Duration.ofSeconds(10), "ss", "-tnpH", "state", "established", "( dport = :" + origin.port() + " )")
                .assertOk();
        Set<Integer> ports = new TreeSet<>();
        for (String line : r.out().lines().toList()) {
            if (line.contains("pid=" + pool.pid() + ",")) {
                String local = line.trim().split("\\s+")[2];
                ports.add(Integer.parseInt(local.substring(local.lastIndexOf(':') + 1)));
            }
        }
        return ports;
    }

    /** The server process that served the connection from the pool's {@code localPort}, by the server's log. */
    static String serverProcessOf(int localPort) {
        String[] pid = new String[1];
        Tools.await("the server's log of the connection from port " + localPort, Duration.ofSeconds(30), () -> {
            pid[0] = serverLog().filter(l -> l.endsWith("New connection from: localhost:" + localPort)).map(GridFtpOriginTest::processOf)
                    .findFirst().orElse(null);
            return pid[0] != null;
        });
        return pid[0];
    }

    /** The DN the server process {@code pid} authorized (awaited: the log is flushed every few seconds). */
    static String authorizedDn(String pid) {
        String[] dn = new String[1];
        Tools.await("the DN of server process " + pid, Duration.ofSeconds(30), () -> {
            dn[0] = serverLog().filter(l -> processOf(l).equals(pid) && l.contains(":: DN ") && l.endsWith(" successfully authorized."))
                    .map(l -> l.substring(l.indexOf(":: DN ") + 6, l.length() - " successfully authorized.".length())).findFirst().orElse(null);
            return dn[0] != null;
        });
        return dn[0];
    }

    /** The server process that sent {@code file} (awaited). */
    static String senderOf(String file) {
        String[] pid = new String[1];
        Tools.await("the server's log of the transfer of " + file, Duration.ofSeconds(30), () -> {
            pid[0] = serverLog().filter(l -> l.contains("Starting to transfer \"" + data.toAbsolutePath().resolve(file.substring(1)) + "\""))
                    .map(GridFtpOriginTest::processOf).findFirst().orElse(null);
            return pid[0] != null;
        });
        return pid[0];
    }

    static java.util.stream.Stream<String> serverLog() {
        try {
            return Files.readString(origin.runDir().resolve("gridftp.log")).lines();
        } catch (java.io.IOException e) {
            return java.util.stream.Stream.empty();
        }
    }

    /** "[1234] Tue Nov ... :: ..." is process 1234's. */
    static String processOf(String logLine) {
        return logLine.startsWith("[") && logLine.indexOf(']') > 0 ? logLine.substring(1, logLine.indexOf(']')) : "";
    }

    @Test
    void missesOfOneUserShareOneGsiConnectionAndAnotherUserGetsItsOwn() throws Exception {
        // Bob reads only here: no connection of his can be in the pool before this test
        GridEnv.delegated(pki, doorUrl, "bob-atlas");
        aliceDelegated();
        // the door looks the files up first (its own connections, not counted: only the pool's are)
        for (String f : List.of("b1.bin", "b2.bin", "a1.bin")) {
            String who = f.startsWith("b") ? "bob-atlas" : "alice-atlas";
            assertEquals(207, status(curlAs(who, "-X", "PROPFIND", "-H", "Depth: 0", doorUrl + "/atlas/reuse/" + f)));
        }
        Set<Integer> before = poolControlConnections(); // Alice's, kept by earlier tests
        long handshakes = poolGridFtpConnections("opened");
        readExact("/atlas/reuse/b1.bin", "MISS", "bob-atlas");
        assertEquals(handshakes + 1, poolGridFtpConnections("opened"), "Bob's first miss: one GSI handshake");
        Set<Integer> opened = new TreeSet<>(poolControlConnections());
        opened.removeAll(before);
        assertEquals(1, opened.size(), "Bob's first miss: the permission check and the fetch on one new connection, kept idle: " + opened);
        int bobs = opened.iterator().next();
        String bobsProcess = serverProcessOf(bobs);
        assertEquals("/DC=org/DC=example/CN=Bob", authorizedDn(bobsProcess));
        assertEquals(bobsProcess, senderOf("/atlas/reuse/b1.bin"));

        awaitPoolConnectionsIdle(); // Bob's, given back after his client's last byte
        long reused = poolGridFtpConnections("reused");
        readExact("/atlas/reuse/b2.bin", "MISS", "bob-atlas");
        assertEquals(handshakes + 1, poolGridFtpConnections("opened"), "Bob's second miss: no GSI handshake");
        assertTrue(poolGridFtpConnections("reused") > reused);
        Set<Integer> now = poolControlConnections();
        assertTrue(now.contains(bobs), "Bob's connection is kept: " + now);
        now.removeAll(before);
        assertEquals(Set.of(bobs), now, "Bob's second miss opened no connection");
        assertEquals(bobsProcess, senderOf("/atlas/reuse/b2.bin"), "the second miss was sent over Bob's first connection");

        readExact("/atlas/reuse/a1.bin", "MISS", "alice-atlas");
        String alicesProcess = senderOf("/atlas/reuse/a1.bin");
        assertNotEquals(bobsProcess, alicesProcess, "never another user's connection");
        assertEquals(ALICE_DN, authorizedDn(alicesProcess));
    }

    @Test
    void theDoorLooksUpOnAKeptConnection() {
        aliceDelegated();
        long opened = doorGridFtpConnections("opened");
        long reused = doorGridFtpConnections("reused");
        // two directories nobody listed yet: no cached listing can answer, each lookup talks to the server
        assertEquals(207, status(curlAs("alice-atlas", "-X", "PROPFIND", "-H", "Depth: 0", doorUrl + "/atlas/lookups/one/l1.bin")));
        assertEquals(207, status(curlAs("alice-atlas", "-X", "PROPFIND", "-H", "Depth: 0", doorUrl + "/atlas/lookups/two/l2.bin")));
        assertTrue(doorGridFtpConnections("opened") <= opened + 1, "at most one GSI handshake for Alice's lookups");
        assertTrue(doorGridFtpConnections("reused") > reused, "a later lookup took the kept connection");
        assertTrue(metric(curlAs("alice-atlas", doorUrl + "/.gridcache/metrics").out(), "gridcache_door_gridftp_idle_connections") >= 1);
    }

    /** The door's count of the lister's GridFTP control connections {@code opened} or {@code reused}. */
    static long doorGridFtpConnections(String outcome) {
        return metric(curlAs("alice-atlas", doorUrl + "/.gridcache/metrics").out(),
                "gridcache_door_gridftp_connections_total\\{[^}]*outcome=\"" + outcome + "\"[^}]*}");
    }

    /** The value of the first sample whose name and labels match {@code sample} (a regular expression). */
    static long metric(String page, String sample) {
        java.util.regex.Matcher m = java.util.regex.Pattern.compile("(?m)^" + sample + "(?:\\{[^}]*})? (\\S+)$").matcher(page);
        assertTrue(m.find(), sample + " in " + page);
        return (long) Double.parseDouble(m.group(1));
    }

    /**
     * Waits until every GSI control connection the pool holds to the origin is idle, so that a miss now can take one:
     * a fetch gives its connection back only after the client has its last byte, and a miss that comes sooner opens
     * a new one. The idle gauge counts every user's connections (earlier tests' too), so it is compared with the
     * pool's established connections, counted first (an idle one expiring in between leaves the gauge before the
     * kernel's list): it reaches their number only when no conversation holds one.
     */
    static void awaitPoolConnectionsIdle() {
        Tools.await("the pool's GSI control connections given back, all idle", Duration.ofSeconds(30), () -> {
            int established = poolControlConnections().size();
            Tools.Result r = curlAs("alice-atlas", "https://localhost:" + poolPort + "/.gridcache/metrics");
            return established >= 1 && metric(r.out(), "gridcache_pool_gridftp_idle_connections") >= established;
        });
    }

    /** The pool's count of GridFTP control connections {@code opened} or {@code reused} (its Prometheus metrics). */
    static long poolGridFtpConnections(String outcome) {
        Tools.Result r = curlAs("alice-atlas", "https://localhost:" + poolPort + "/.gridcache/metrics");
        java.util.regex.Matcher m = java.util.regex.Pattern.compile(
                "(?m)^gridcache_pool_gridftp_connections_total\\{[^}]*outcome=\"" + outcome + "\"[^}]*} (\\S+)$").matcher(r.out());
        assertTrue(m.find(), r.out());
        return (long) Double.parseDouble(m.group(1));
    }

    /**
     * Alice's plain proxy allows further proxies, so the door hands the pool a proxy derived from her delegation (its
     * own key, renewed every half hour): the pool's connections are keyed by the delegation, not by that proxy, or a
     * renewed proxy would never reuse one.
     */
    @Test
    void aNewProxyOfTheSameDelegationForEachMissStillReusesTheConnection() throws Exception {
        Gridcache.admin("delegate", "--id", "plain", "--proxy", pki.resolve("proxies/alice.pem").toString(), "--capath",
                pki.resolve("certificates").toString(), doorUrl).assertOk();
        for (String f : List.of("p1.bin", "p2.bin")) {
            assertEquals(207, status(curlAs("alice", "-X", "PROPFIND", "-H", "Depth: 0", doorUrl + "/atlas/reuse/plain/" + f)));
        }
        readExact("/atlas/reuse/plain/p1.bin", "MISS", "alice");
        awaitPoolConnectionsIdle(); // p1's, given back after the client's last byte
        long handshakes = poolGridFtpConnections("opened");
        readExact("/atlas/reuse/plain/p2.bin", "MISS", "alice");
        assertEquals(handshakes, poolGridFtpConnections("opened"), "the second miss opened no connection");
        assertEquals(senderOf("/atlas/reuse/plain/p1.bin"), senderOf("/atlas/reuse/plain/p2.bin"), "both over one connection");
        String doorLog = Tools.readLogs(logs, "door");
        assertTrue(doorLog.contains("obtained a proxy of delegation plain of " + ALICE_DN + " for /atlas/reuse/plain/p2.bin"), doorLog);
        assertFalse(doorLog.contains("delegation plain of " + ALICE_DN + " allows no further proxy"), "a derived proxy, not the delegation");
    }

    @Test
    void twoModeETransfersInARowReuseTheConnectionByteExact() throws Exception {
        aliceDelegated();
        config("gridftp.streams", "4");
        try {
            readExact("/atlas/reuse/e1.bin", "MISS");
            awaitPoolConnectionsIdle(); // e1's, given back after the client's last byte
            readExact("/atlas/reuse/e2.bin", "MISS");
        } finally {
            config("gridftp.streams", "1");
        }
        assertEquals(senderOf("/atlas/reuse/e1.bin"), senderOf("/atlas/reuse/e2.bin"), "both over one connection");
    }

    @Test
    void aReadWithFourModeEStreamsIsByteExact() throws Exception {
        aliceDelegated();
        config("gridftp.streams", "4");
        try {
            readExact("/atlas/four.bin", "MISS");
            readExact("/atlas/four.bin", "HIT");
        } finally {
            config("gridftp.streams", "1");
        }
        Tools.await("the origin's record of a 4-stream transfer", Duration.ofSeconds(30), () -> {
            try {
                return Files.readString(origin.runDir().resolve("gridftp.log")).lines()
                        .anyMatch(l -> l.contains("four.bin") && l.contains("STREAMS=4") && l.contains("NBYTES=40000000"));
            } catch (java.io.IOException e) {
                return false;
            }
        });
    }

    @Test
    void aReadOverPrivateDataChannelsWithFourStreamsIsByteExact() throws Exception {
        // Alice's VOMS proxy (voms-proxy-fake) allows one proxy below it: the door's. The server's data channel proxy
        // would be a second, so protected data channels need a delegation without that constraint: her plain proxy
        // (the pools so far fell back to clear channels without DCAU, as logged), which serves a session with her plain
        // proxy (a delegation serves only sessions with its VOMS attributes)
        Gridcache.admin("delegate", "--id", "plain", "--proxy", pki.resolve("proxies/alice.pem").toString(), "--capath",
                pki.resolve("certificates").toString(), doorUrl).assertOk();
        config("gridftp.protection", "private");
        config("gridftp.streams", "4");
        config("gridftp.checksum", "md5");
        try {
            readExact("/atlas/private.bin", "MISS", "alice");
        } finally {
            config("gridftp.protection", "clear");
            config("gridftp.streams", "1");
            config("gridftp.checksum", "adler32");
        }
        assertFalse(Gridcache.admin("config", "set", "gridftp.streams", "0", "--zk", zkConnect).exit() == 0, "streams 1-64");
        assertFalse(Gridcache.admin("config", "set", "gridftp.protection", "secret", "--zk", zkConnect).exit() == 0);
    }

    /**
     * A Range of a large cold file is a block read: its 128 KiB blocks by one partial retrieve (ERET), kept, so the
     * same range again is a hit; the whole file then fetches only the blocks it lacks (partial retrieves), then a hit.
     */
    @Test
    void aRangeOfALargeColdFileIsABlockReadByPartialRetrieve() throws Exception {
        aliceDelegated();
        long start = 60_000_000; // blocks 457 and 458: 262144 bytes from 59899904
        byte[] expected = rangeOf("atlas/range.bin", start, 100_000);
        for (String cache : new String[] {"MISS", "HIT"}) {
            assertEquals(cache, xCache(readRange("/atlas/range.bin", start, expected, "64000000")));
        }
        Tools.await("the origin's record of a partial retrieve of 2 blocks", Duration.ofSeconds(30),
                () -> eretsOf("range.bin", "NBYTES=262144 ") == 1);
        assertEquals(1, eretsOf("range.bin", "TYPE=ERET"), "the second read was a hit");
        readExact("/atlas/range.bin", "MISS");
        readExact("/atlas/range.bin", "HIT");
    }

    /**
     * A Range of a small cold file is a block read too: its blocks by one partial
     * retrieve, kept (Cache-Status says stored), so the same range again is a hit; the whole file then fetches only
     * the blocks it lacks, then a hit.
     */
    @Test
    void aRangeOfASmallColdFileIsABlockReadAndKept() throws Exception {
        aliceDelegated();
        long start = 6_000_000; // blocks 45 and 46: 262144 bytes from 5898240
        byte[] expected = rangeOf("atlas/small-range.bin", start, 100_000);
        String heads = readRange("/atlas/small-range.bin", start, expected, "8000000");
        assertEquals("MISS", xCache(heads));
        assertTrue(heads.contains("Cache-Status: gridcache; fwd=partial; stored"), "kept: " + heads);
        assertEquals("HIT", xCache(readRange("/atlas/small-range.bin", start, expected, "8000000")));
        Tools.await("the origin's record of a partial retrieve of 2 blocks", Duration.ofSeconds(30),
                () -> eretsOf("small-range.bin", "NBYTES=262144 ") == 1);
        assertEquals(1, eretsOf("small-range.bin", "TYPE=ERET"), "the second read was a hit");
        readExact("/atlas/small-range.bin", "MISS");
        readExact("/atlas/small-range.bin", "HIT");
    }

    private static byte[] rangeOf(String file, long start, int length) throws Exception {
        byte[] bytes = new byte[length];
        try (RandomAccessFile f = new RandomAccessFile(data.resolve(file).toFile(), "r")) {
            f.seek(start);
            f.readFully(bytes);
        }
        return bytes;
    }

    /** Reads {@code expected.length} bytes from {@code start} as Alice: asserts 206, the range and the bytes; returns the heads. */
    private static String readRange(String path, long start, byte[] expected, String size) throws Exception {
        Path out = tmp.resolve("range.out");
        long end = start + expected.length - 1;
        Tools.Result r = curlAs("alice-atlas", "-L", "-r", start + "-" + end, "-o", out.toString(), doorUrl + path);
        assertEquals(206, status(r), r.out());
        assertTrue(r.out().toLowerCase().contains("content-range: bytes " + start + "-" + end + "/" + size), r.out());
        assertTrue(Arrays.equals(expected, Files.readAllBytes(out)), "the range's bytes");
        return r.out();
    }

    private static String xCache(String heads) {
        return heads.contains("X-Cache: HIT") ? "HIT" : "MISS";
    }

    /** ERETs of {@code name} in the server's log whose line also holds {@code fact}. */
    private static long eretsOf(String name, String fact) {
        try {
            return Files.readString(origin.runDir().resolve("gridftp.log")).lines()
                    .filter(l -> l.contains("/atlas/" + name + " ") && l.contains("TYPE=ERET") && l.contains(fact)).count();
        } catch (java.io.IOException e) {
            return -1;
        }
    }

    @Test
    void expiredAndRevokedProxiesAreRefused() throws Exception {
        // at the door: canl refuses them before anything reaches the origin
        Tools.Result expired = curlAs("alice-expired", doorUrl + "/atlas/file.bin");
        assertEquals(401, status(expired));
        assertTrue(expired.out().contains("expired"), expired.out());
        Tools.Result revoked = curlAs("mallory", doorUrl + "/atlas/file.bin");
        assertEquals(401, status(revoked));
        assertTrue(revoked.out().contains("revoked"), revoked.out());
        // at the origin, with the client the door and pools use: refused with the server's reason
        GridFtp.configure(pki.resolve("certificates"));
        for (String[] c : new String[][] {{"alice-expired", "has expired"}, {"mallory", "revoked"}}) {
            X509Credential proxy = GridCredentials.loadProxy(pki.resolve("proxies/" + c[0] + ".pem"));
            GridFtpException e = assertThrows(GridFtpException.class, () -> GridFtpConnection.open("localhost", origin.port(),
                    proxy.getKey(), proxy.getCertificateChain(), GridFtpOptions.DEFAULT).close());
            assertEquals(GridFtpException.Kind.DENIED, e.kind(), e.getMessage());
            assertTrue(e.getMessage().contains(c[1]), e.getMessage());
        }
    }

    @Test
    void anOriginThatRefusesTheUserIs403WithItsReason() throws Exception {
        aliceDelegated();
        Tools.Result before = curlAs("alice-atlas", doorUrl + "/atlas/sub/"); // listed and cached by the door
        assertEquals(200, status(before), before.out());
        String map = Files.readString(origin.gridMapFile());
        Files.writeString(origin.gridMapFile(), map.lines().filter(l -> !l.contains("CN=Alice")).map(l -> l + "\n").reduce("", String::concat));
        try {
            Tools.Result r = curlAs("alice-atlas", "-L", doorUrl + "/atlas/sub/small.bin");
            assertEquals(403, status(r), r.out());
            assertTrue(r.out().contains("the origin refuses " + ALICE_DN) || r.out().contains("refuses " + ALICE_DN), r.out());
        } finally {
            Files.writeString(origin.gridMapFile(), map);
        }
    }

    @Test
    void aFileGoneAtTheOriginIs404AtThePool() throws Exception {
        aliceDelegated();
        Tools.Result listed = curlAs("alice-atlas", "-X", "PROPFIND", "-H", "Depth: 1", doorUrl + "/atlas/"); // the door caches the entry
        assertEquals(207, status(listed));
        Files.delete(data.resolve("atlas/gone.bin"));
        Tools.Result r = curlAs("alice-atlas", "-L", doorUrl + "/atlas/gone.bin");
        assertEquals(404, status(r), r.out());
        assertTrue(r.out().contains("not found at origin"), r.out());
    }

    /**
     * A file the server will not send, though MLST shows it (the permission check passes): the refusal comes after the
     * fetch has begun, and the client still gets it as a status and a reason, for a whole file and for a range, not a
     * response head followed by a cut connection.
     */
    @Test
    void aFileTheServerWillNotSendIs403WithItsReasonForTheFileAndARange() throws Exception {
        aliceDelegated();
        String url = doorUrl + "/atlas/unreadable.bin";
        for (List<String> request : List.of(List.of("-L", url), List.of("-L", "-r", "0-999", url))) {
            for (int n = 0; n < 2; n++) { // the second: nothing was cached or left in flight by the first
                int attempt = n;
                Tools.Result r = curlAs("alice-atlas", request.toArray(String[]::new));
                assertEquals(403, status(r), () -> request + " attempt " + attempt + ": " + r.out() + "\n" + poolState("unreadable"));
                assertTrue(r.out().contains("Permission denied"), "the server's reason: " + r.out());
                assertFalse(r.out().contains("curl: (18)"), "no response cut short: " + r.out());
            }
        }
    }

    @Test
    void aServerDownIs502() throws Exception {
        aliceDelegated();
        Tools.Result listed = curlAs("alice-atlas", "-X", "PROPFIND", "-H", "Depth: 1", doorUrl + "/atlas/");
        assertEquals(207, status(listed));
        origin.close();
        try {
            Tools.Result r = curlAs("alice-atlas", "-L", doorUrl + "/atlas/down.bin"); // the door's cached entry, the pool's fetch
            assertEquals(502, status(r), r.out());
            assertTrue(r.out().contains("localhost:" + origin.port()), "names the origin: " + r.out());
            Tools.Result listing = curlAs("alice-atlas", doorUrl + "/atlas/not/listed/yet/"); // no cached parent
            assertEquals(502, status(listing), listing.out());
        } finally {
            origin.restart(pki);
        }
    }

    @Test
    void aTransferCutMidFileAbortsTheClientAndLeavesNoHit() throws Exception {
        aliceDelegated();
        Path out = tmp.resolve("huge.out");
        String proxy = pki.resolve("proxies/alice-atlas.pem").toString();
        Process curl = new ProcessBuilder("curl", "-sS", "-L", "--capath", pki.resolve("certificates").toString(), "--cert", proxy,
                "--key", proxy, "-o", out.toString(), doorUrl + "/atlas/huge.bin").redirectErrorStream(true).start();
        try {
            Tools.await("the first 8 MiB of the 20 GiB file at the client", Duration.ofSeconds(120),
                    () -> Files.exists(out) && out.toFile().length() > (8 << 20));
            for (String child : Tools.run(Duration.ofSeconds(30), "pgrep", "-P", String.valueOf(origin.pid())).out().split("\\s+")) {
                if (!child.isBlank()) {
                    Tools.run(Duration.ofSeconds(30), "kill", "-KILL", child.trim()); // the server process of this transfer
                }
            }
            assertTrue(curl.waitFor(2, TimeUnit.MINUTES), "curl ends");
            assertNotEquals(0, curl.exitValue(), "the client sees the transfer fail (fewer bytes than Content-Length)");
            assertTrue(out.toFile().length() < (20L << 30));
        } finally {
            curl.destroyForcibly();
            Files.deleteIfExists(out);
        }
        Tools.Result after = curlAs("alice-atlas", "-L", "-r", "0-1023", "-o", "/dev/null", doorUrl + "/atlas/huge.bin");
        assertEquals(206, status(after), after.out());
        assertTrue(after.out().contains("X-Cache: MISS"), "no partial hit: " + after.out());
    }

    /** gridftp.timeout bounds silence, not transfers: a file that takes longer to come than the timeout arrives whole. */
    @Test
    void aTransferLongerThanTheGridftpTimeoutCompletes() throws Exception {
        aliceDelegated();
        // 2 GiB take several seconds here; 3 s, not 1 s: the timeout also ends a fetch whose disk takes nothing for that
        // long (by design), and a machine loaded by other builds can stall a disk for a second
        config("gridftp.timeout", "3s");
        try {
            readExact("/atlas/long.bin", "MISS");
        } finally {
            config("gridftp.timeout", "60s");
        }
    }

    /** A server that stops sending (alive, connected, silent) is given up after gridftp.timeout, not waited for forever. */
    @Test
    void aStalledServerIsGivenUpAfterTheGridftpTimeout() throws Exception {
        aliceDelegated();
        config("gridftp.timeout", "3s");
        Path out = tmp.resolve("stalled.out");
        String proxy = pki.resolve("proxies/alice-atlas.pem").toString();
        Process curl = new ProcessBuilder("curl", "-sS", "-L", "--capath", pki.resolve("certificates").toString(), "--cert", proxy,
                "--key", proxy, "-o", out.toString(), doorUrl + "/atlas/stalled.bin").redirectErrorStream(true).start();
        List<String> stopped = new ArrayList<>();
        try {
            Tools.await("the first 8 MiB of the 20 GiB file at the client", Duration.ofSeconds(120),
                    () -> Files.exists(out) && out.toFile().length() > (8 << 20));
            for (String child : Tools.run(Duration.ofSeconds(30), "pgrep", "-P", String.valueOf(origin.pid())).out().split("\\s+")) {
                if (!child.isBlank()) {
                    Tools.run(Duration.ofSeconds(30), "kill", "-STOP", child.trim()); // the server process: alive, silent
                    stopped.add(child.trim());
                }
            }
            assertTrue(curl.waitFor(2, TimeUnit.MINUTES), "curl ends");
            assertNotEquals(0, curl.exitValue(), "the client sees the transfer fail (fewer bytes than Content-Length)");
            String poolLog = poolLog();
            assertTrue(poolLog.contains("sent no data for 3 s"), () -> "the pool says why it gave up: "
                    + poolLog.lines().filter(l -> l.contains("huge") || l.contains("GridFTP") || l.contains("WARN")).toList());
        } finally {
            for (String child : stopped) {
                Tools.run(Duration.ofSeconds(30), "kill", "-KILL", child);
            }
            curl.destroyForcibly();
            Files.deleteIfExists(out);
            config("gridftp.timeout", "60s");
        }
    }

    /**
     * GridSite's own delegation client: Debian's htproxyput (gridsite 3.0) signs the delegated proxy with SHA-1 and as
     * a legacy (pre-RFC 3820) proxy, which OpenSSL 3 cannot verify. The door takes the delegation and warns in its
     * log; the pool presents it, and the origin's refusal reaches the client with the origin's reason.
     */
    @Test
    void aDelegationMadeWithHtproxyputIsRefusedByTheOriginWithItsReason() throws Exception {
        String proxy = pki.resolve("proxies/alice-atlas.pem").toString();
        String capath = pki.resolve("certificates").toString();
        aliceWithoutDelegation(); // the htproxyput one is then Alice's only /atlas delegation
        String id = GridEnv.htproxyput(pki, doorUrl, "alice-atlas");
        try {
            Path out = tmp.resolve("htproxyput.out");
            Tools.Result r = curlAs("alice-atlas", "-L", "-o", out.toString(), doorUrl + "/atlas/htproxyput.bin");
            assertEquals(403, status(r), r.out() + Files.readString(out));
            assertTrue(Files.readString(out).contains("refused the credential") && Files.readString(out).contains("certificate verify failed"),
                    "the origin's reason is passed on");
            // the door warns after it made the delegation usable, which is all GridEnv.htproxyput waits for: awaited
            String warning = "delegation " + id + " of " + ALICE_DN + " is not an RFC 3820 proxy and is signed with SHA-1";
            Tools.await("the door's warning that it took such a delegation: " + warning, Duration.ofSeconds(30),
                    () -> Tools.readLogs(logs, "door").contains(warning));
        } finally {
            Tools.run(Duration.ofMinutes(1), "htproxyput", "--destroy", "--delegation-id", id, "--cert", proxy, "--key", proxy,
                    "--capath", capath, doorUrl + "/.gridcache/delegation").assertOk();
        }
    }

    /**
     * The origin's file changes under a running transfer, at a byte the pool already has: the server sends the rest,
     * then computes its CKSM over the changed file, which is not what the pool received. A real mismatch with the
     * real server (the pool has no hook for it): the file is discarded, the client's last byte never comes.
     */
    @Test
    void aChecksumMismatchFailsTheTransferAndCachesNothing() throws Exception {
        aliceDelegated();
        Path file = data.resolve("atlas/changing.bin");
        long size = Files.size(file);
        Path out = tmp.resolve("changing.out");
        String proxy = pki.resolve("proxies/alice-atlas.pem").toString();
        Process curl = new ProcessBuilder("curl", "-sS", "-L", "--capath", pki.resolve("certificates").toString(), "--cert", proxy,
                "--key", proxy, "-o", out.toString(), doorUrl + "/atlas/changing.bin").redirectErrorStream(true).start();
        int first; // byte 0 of the origin's file before the change
        try {
            Tools.await("the first 8 MiB of the 1 GiB file at the client", Duration.ofSeconds(120),
                    () -> Files.exists(out) && out.toFile().length() > (8 << 20));
            List<String> stopped = new ArrayList<>();
            try {
                for (String child : Tools.run(Duration.ofSeconds(30), "pgrep", "-P", String.valueOf(origin.pid())).out().split("\\s+")) {
                    if (!child.isBlank()) {
                        Tools.run(Duration.ofSeconds(30), "kill", "-STOP", child.trim()).assertOk(); // the server process: paused
                        stopped.add(child.trim());
                    }
                }
                assertFalse(stopped.isEmpty(), "a server process to pause");
                assertFalse(transferRecorded(size), "the server is paused before the end of its transfer (else: a larger file)");
                // byte 0 reached the pool already (the client has 8 MiB of it): change it at the origin, size and mtime kept
                FileTime mtime = Files.getLastModifiedTime(file);
                try (RandomAccessFile f = new RandomAccessFile(file.toFile(), "rw")) {
                    first = f.read();
                    f.seek(0);
                    f.write(first ^ 0xff);
                }
                Files.setLastModifiedTime(file, mtime);
            } finally {
                for (String child : stopped) {
                    Tools.run(Duration.ofSeconds(30), "kill", "-CONT", child);
                }
            }
            assertTrue(curl.waitFor(2, TimeUnit.MINUTES), "curl ends");
            assertNotEquals(0, curl.exitValue(), "the client's transfer fails: " + new String(curl.getInputStream().readAllBytes()));
            assertTrue(out.toFile().length() < size, "the last byte is held back until verified");
            try (RandomAccessFile got = new RandomAccessFile(out.toFile(), "r")) {
                assertEquals(first, got.read(), "the client has byte 0 as it was before the change");
            }
            // the server sent the whole file: the checksum failed the transfer, not a cut
            Tools.await("the server's record of the whole transfer", Duration.ofSeconds(30), () -> transferRecorded(size));
            // the server's CKSM is the changed file's; the pool's the file's as it was
            // (compared with the adler32 the pool computed while the file filled, not read back)
            String mismatch = "checksum mismatch: origin gsiftp://localhost:" + origin.port() + " gave adler32="
                    + adler32OfHoles(size, first ^ 0xff) + ", the pool received adler32=" + adler32OfHoles(size, first) + " (file discarded)";
            Tools.await("the pool's log of the mismatch", Duration.ofSeconds(30), () -> poolLog().contains(mismatch));
        } finally {
            curl.destroyForcibly();
            Files.deleteIfExists(out);
        }
        // nothing cached: the next read is a miss (a range of a file not stored: a partial retrieve), with the origin's new byte
        Path again = tmp.resolve("changing.range");
        Tools.Result r = curlAs("alice-atlas", "-L", "-r", "0-1023", "-o", again.toString(), doorUrl + "/atlas/changing.bin");
        assertEquals(206, status(r), r.out());
        assertTrue(r.out().contains("X-Cache: MISS"), "nothing cached: " + r.out());
        assertEquals(first ^ 0xff, Files.readAllBytes(again)[0] & 0xff, "the origin's byte 0 now");
        Files.delete(again);
    }

    /** Whether the origin's log records a complete RETR of changing.bin ({@code size} bytes, 226). */
    private static boolean transferRecorded(long size) {
        try {
            return Files.readString(origin.runDir().resolve("gridftp.log")).lines()
                    .anyMatch(l -> l.contains("/atlas/changing.bin ") && l.contains("NBYTES=" + size + " ") && l.contains("TYPE=RETR CODE=226"));
        } catch (java.io.IOException e) {
            return false;
        }
    }

    /**
     * The ADLER32 (as the pool and the server write it) of {@code size} bytes of zeros (a file of holes) whose byte 0
     * is {@code first}: A = 1 + first, and each byte adds A to B, so B = size * A (mod 65521). Reading 1 GiB back
     * would take seconds.
     */
    private static String adler32OfHoles(long size, int first) {
        long a = (1 + first) % 65521;
        long b = size % 65521 * a % 65521;
        return String.format(Locale.ROOT, "%08x", b << 16 | a);
    }

    /** For a failure's message: the pool's log lines naming {@code file}, and the stacks of its threads at work. */
    private static String poolState(String file) {
        String threads = Tools.run(Duration.ofSeconds(30), "jcmd", String.valueOf(pool.pid()), "Thread.print").out();
        StringBuilder busy = new StringBuilder();
        for (String thread : threads.split("\n\n")) {
            if (thread.contains("at org.gridcache.") || thread.contains("at org.globus.")) { // idle threads wait in the JDK's code
                busy.append(thread).append("\n\n");
            }
        }
        return "pool log:\n" + String.join("\n", poolLog().lines().filter(l -> l.contains(file)).toList())
                + "\npool threads:\n" + busy;
    }

    private static String poolLog() {
        return Tools.readLog(logs.resolve("pool-p1.log"));
    }
}
