package org.gridcache.systemtest;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Grid security end to end, with real parts: gridenv's PKI (RFC 3820 and VOMS proxies, a CRL), the Apache +
 * mod_gridsite origin enforcing its own ACL (the host and Alice may read {@code /atlas}, Bob may not), the
 * distribution's zk, pool and door as HTTPS processes, and real {@code curl --cert/--key/--capath} and
 * {@code htproxyput}.
 *
 * <p>The PKI, the origin, zk, the pool p1 and the door are started once for the class; each test then sets up the
 * state it needs itself ({@link #delegated}, {@link #withoutDelegation}, files only it reads, a user only it revokes),
 * so the tests run in any order and one failure does not cascade.
 */
@Timeout(value = 10, unit = TimeUnit.MINUTES)
class GridSecurityTest {
    static final String HOST_DN = "/DC=org/DC=example/OU=hosts/CN=localhost";
    static final String ALICE_DN = "/DC=org/DC=example/CN=Alice";
    /** gridenv's second host certificate (its VOMS server's), standing in for another pool of the door. */
    static final String OTHER_HOST_DN = "/DC=org/DC=example/OU=hosts/CN=voms.example.org";
    static final String POLICY = """
            # gridcache test policy: first match wins
            vo:cms / none
            fqan:/atlas/Role=production /atlas/production list,read
            dn:"%s" /atlas/production none
            fqan:/atlas /atlas list,read
            dn:"%s" /atlas list,read   # Alice without VOMS (e.g. her limited proxy)
            authenticated /public list,read
            authenticated / list
            """.formatted(ALICE_DN, ALICE_DN);
    @TempDir
    static Path tmp;
    static Path pki;
    static Path data;
    static Path pkiParent;
    static Path logs;
    static GridEnv.Origin origin;
    static Gridcache zk;
    static Gridcache pool;
    static Gridcache pool2;
    static Gridcache door;
    static String doorUrl;
    static String zkConnect;

    @BeforeAll
    static void start() throws Exception {
        Tools.require("curl", "openssl", "grid-proxy-init", "voms-proxy-fake", "htproxyput", "apache2", "unshare");
        // the origin's workers (www-data) read the CA directory at every handshake: not under JUnit's private temp dir
        pkiParent = GridEnv.worldReadableDir("gridcache-test-pki");
        pki = GridEnv.pki(pkiParent.resolve("pki"));
        data = GridEnv.worldReadableDir("gridcache-gridsite-origin");
        Path atlas = Files.createDirectories(data.resolve("atlas/production"));
        GridEnv.makeReadable(atlas.getParent());
        GridEnv.makeReadable(atlas);
        Tools.randomFile(atlas.getParent().resolve("file.bin"), 3_000_000, 31);
        Tools.randomFile(atlas.getParent().resolve("other.bin"), 100_000, 32);
        Tools.randomFile(atlas.resolve("prod.bin"), 50_000, 33);
        // files each read by one test only (a first read, a file no pool has); made here, since the door caches
        // what it has looked up
        Tools.randomFile(atlas.getParent().resolve("late.bin"), 200_000, 34);
        Tools.randomFile(atlas.getParent().resolve("peer.bin"), 1_500_000, 35);
        Tools.randomFile(atlas.getParent().resolve("sha1.bin"), 10_000, 36);
        Tools.randomFile(atlas.getParent().resolve("miss-then-hit.bin"), 3_000_000, 37);
        Tools.randomFile(atlas.getParent().resolve("proxy.bin"), 300_000, 38);
        Files.writeString(atlas.getParent().resolve(".gacl"), """
                <?xml version="1.0"?>
                <gacl version="0.0.1">
                <entry><person><dn>%s</dn></person><allow><read/><list/></allow></entry>
                <entry><person><dn>%s</dn></person><allow><read/><list/></allow></entry>
                </gacl>
                """.formatted(HOST_DN, ALICE_DN));
        for (Path f : List.of(atlas.getParent().resolve("file.bin"), atlas.getParent().resolve("other.bin"),
                atlas.resolve("prod.bin"), atlas.getParent().resolve(".gacl"), atlas.getParent().resolve("late.bin"),
                atlas.getParent().resolve("peer.bin"), atlas.getParent().resolve("sha1.bin"),
                atlas.getParent().resolve("miss-then-hit.bin"), atlas.getParent().resolve("proxy.bin"))) {
            GridEnv.makeReadable(f);
        }
        origin = GridEnv.Origin.start(pki, data);

        int zkPort = Tools.freePort();
        zkConnect = "127.0.0.1:" + zkPort;
        zk = Gridcache.start(tmp.resolve("zk.out"), "zk", "--home", tmp.resolve("zk").toString(), "--port", String.valueOf(zkPort))
                .awaitOutput("is up");
        Gridcache.admin("origins", "add", "atlas", "--prefix", "/atlas", "--url", origin.url() + "/atlas", "--zk", zkConnect)
                .assertOk();
        Path policy = tmp.resolve("authz.conf");
        Files.writeString(policy, POLICY);
        Path conf = tmp.resolve("gridcache.properties");
        logs = Path.of(System.getProperty("gridcache.test.logs", tmp.resolve("logs").toString()));
        Files.writeString(conf, "zk=" + zkConnect
                + "\nhost-cert=" + pki.resolve("host/cert.pem") + "\nhost-key=" + pki.resolve("host/key.pem")
                + "\nca-dir=" + pki.resolve("certificates") + "\nvomsdir=" + pki.resolve("vomsdir")
                + "\ncrl-refresh=2s\n");
        pool = Gridcache.start(tmp.resolve("pool.out"), "pool", "--config", conf.toString(), "--log-dir", logs.toString(), "--name", "p1",
                "--store", tmp.resolve("store").toString(), "--capacity", "1G", "--port", String.valueOf(Tools.freePort()))
                .awaitOutput("is up");
        int doorPort = Tools.freePort();
        doorUrl = "https://localhost:" + doorPort;
        door = Gridcache.start(tmp.resolve("door.out"), "door", "--config", conf.toString(), "--log-dir", logs.toString(),
                "--port", String.valueOf(doorPort), "--public-url", doorUrl, "--authz", policy.toString(), "--pool-identity", HOST_DN,
                "--pool-identity", OTHER_HOST_DN)
                .awaitOutput("is up");
    }

    @AfterAll
    static void stop() throws Exception {
        Tools.closeAll(origin, zk, pool2, pool, door);
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

    static Tools.Result delegate(String proxy, String... args) {
        List<String> cmd = new java.util.ArrayList<>(List.of("delegate", "--proxy", pki.resolve("proxies/" + proxy + ".pem").toString(),
                "--capath", pki.resolve("certificates").toString()));
        cmd.addAll(List.of(args));
        cmd.add(doorUrl);
        return Gridcache.admin(cmd.toArray(String[]::new));
    }

    static void delegated(String proxy) {
        GridEnv.delegated(pki, doorUrl, proxy);
    }

    static void withoutDelegation(String proxy) {
        GridEnv.withoutDelegation(pki, doorUrl, proxy, "short");
    }

    @Test
    void aClientWithoutACertificateIs401() {
        Tools.Result r = Tools.curl("--capath", pki.resolve("certificates").toString(), "-D", "-", doorUrl + "/atlas/file.bin");
        assertEquals(401, status(r));
        assertTrue(r.out().contains("authentication required"), r.out());
    }

    /** A refusal's text names paths and origins; its metric label is one of three fixed reason codes. */
    @Test
    void authenticationFailuresAreCountedByReasonCodeNeverByPath() {
        assertEquals(401, status(Tools.curl("-D", "-", "--capath", pki.resolve("certificates").toString(),
                doorUrl + "/atlas/made-up-" + System.nanoTime() + ".bin")));
        withoutDelegation("bob-atlas");
        assertEquals(401, status(curlAs("bob-atlas", doorUrl + "/atlas/file.bin")));
        String metrics = curlAs("alice-atlas", doorUrl + "/.gridcache/metrics").out();
        assertTrue(metrics.matches("(?s).*gridcache_door_authentication_failures_total\\{door=\"[^\"]+\",reason=\"no-credential\"} [1-9].*"),
                metrics);
        assertTrue(metrics.matches("(?s).*gridcache_door_authentication_failures_total\\{door=\"[^\"]+\",reason=\"delegation-required\"} [1-9].*"),
                metrics);
        assertTrue(metrics.lines().filter(l -> l.startsWith("gridcache_door_authentication_failures_total"))
                .allMatch(l -> l.matches(".*reason=\"(no-credential|credential-refused|delegation-required)\".*")), metrics);
        assertTrue(!metrics.contains("/atlas"), "no path in a label: " + metrics);
    }

    @Test
    void aCmsProxyIs403AtTheDoor() {
        Tools.Result r = curlAs("alice-cms", doorUrl + "/atlas/file.bin");
        assertEquals(403, status(r));
        assertTrue(r.out().contains(ALICE_DN + " may not"), r.out());
    }

    @Test
    void expiredRevokedAndUntrustedProxiesAreRefused() throws Exception {
        Tools.Result expired = curlAs("alice-expired", doorUrl + "/atlas/file.bin");
        assertEquals(401, status(expired));
        assertTrue(expired.out().contains("certificate refused") && expired.out().contains("expired"), expired.out());

        Tools.Result revoked = curlAs("mallory", doorUrl + "/atlas/file.bin");
        assertEquals(401, status(revoked));
        assertTrue(revoked.out().contains("revoked"), revoked.out());

        // a user certificate from a CA the door does not know
        Path rogue = Files.createDirectories(tmp.resolve("rogue"));
        Tools.run(Duration.ofMinutes(1), "openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2",
                "-subj", "/DC=org/DC=example/CN=Alice", "-keyout", rogue.resolve("key.pem").toString(),
                "-out", rogue.resolve("cert.pem").toString()).assertOk();
        Tools.Result untrusted = Tools.curl("--capath", pki.resolve("certificates").toString(), "--cert", rogue.resolve("cert.pem").toString(),
                "--key", rogue.resolve("key.pem").toString(), "-D", "-", doorUrl + "/atlas/file.bin");
        assertEquals(401, status(untrusted));
        assertTrue(untrusted.out().contains("certificate refused"), untrusted.out());
        assertTrue(door.output().isEmpty() || !door.output().contains("BEGIN"), "no credential in the door's output");
    }

    @Test
    void anExpiredAttributeCertificateLosesItsFqans() throws Exception {
        Tools.Result refused = curlAs("alice-atlas-expired-ac", doorUrl + "/atlas/production/prod.bin");
        assertEquals(403, status(refused));
        // issue 42: the refusal says why the proxy's VO did not count
        assertTrue(refused.out().contains("(the VOMS attribute certificate of VO atlas in your proxy expired at "), refused.out());
        String log = Files.readString(doorLog());
        assertTrue(log.contains("ignoring the VOMS attributes of VO atlas"), "the refused AC is logged");
    }

    @Test
    void withoutDelegationA401NamesTheDelegationEndpoint() {
        withoutDelegation("bob-atlas");
        Tools.Result r = curlAs("bob-atlas", doorUrl + "/atlas/file.bin");
        assertEquals(401, status(r));
        assertTrue(r.out().contains("X-Delegate-To: " + doorUrl + "/.gridcache/delegation"), r.out());
    }

    @Test
    void htproxyputDelegatesShowsAndDestroysOverSoap() {
        String proxy = pki.resolve("proxies/alice-atlas.pem").toString();
        String id = GridEnv.htproxyput(pki, doorUrl, "alice-atlas");
        Tools.Result info = curlAs("alice-atlas", doorUrl + "/.gridcache/delegation/" + id);
        assertEquals(200, status(info));
        assertTrue(info.out().contains(ALICE_DN), info.out());
        Tools.Result time = Tools.run(Duration.ofMinutes(1), "htproxyput", "--unixtime", "--delegation-id", id, "--cert", proxy,
                "--key", proxy, "--capath", pki.resolve("certificates").toString(), doorUrl + "/.gridcache/delegation").assertOk();
        assertTrue(time.out().trim().matches("\\d{10}"), "termination time: " + time.out());
        Tools.run(Duration.ofMinutes(1), "htproxyput", "--destroy", "--delegation-id", id, "--cert", proxy, "--key", proxy,
                "--capath", pki.resolve("certificates").toString(), doorUrl + "/.gridcache/delegation").assertOk();
        // like putProxy, htproxyput sends destroy without waiting for the answer
        Tools.await("the door to drop delegation " + id, Duration.ofSeconds(30),
                () -> status(curlAs("alice-atlas", doorUrl + "/.gridcache/delegation/" + id)) == 404);
    }

    @Test
    void aDelegatingUserReadsFromTheGridsiteOriginThroughThePoolAMissThenAHit() throws Exception {
        delegate("alice-atlas").assertOk();
        for (String expected : new String[] {"X-Cache: MISS", "X-Cache: HIT"}) {
            Path out = tmp.resolve("alice.out");
            Tools.Result r = curlAs("alice-atlas", "-L", "-o", out.toString(), doorUrl + "/atlas/miss-then-hit.bin");
            assertEquals(200, status(r), r.out());
            assertTrue(r.out().contains(expected), r.out());
            assertEquals(Tools.sha256(data.resolve("atlas/miss-then-hit.bin")), Tools.sha256(out));
        }
        Tools.Result prod = curlAs("alice-atlas", "-L", "-o", tmp.resolve("prod.out").toString(), doorUrl + "/atlas/production/prod.bin");
        assertEquals(200, status(prod), prod.out());
        assertTrue(Tools.readLog(logs.resolve("pool-p1.log")).contains("obtained the credential of " + ALICE_DN),
                "the pool read with the credential the door handed it");
    }

    @Test
    void aLimitedProxyReadsWithTheUsersDelegation() throws Exception {
        delegated("alice"); // the limited proxy carries no VOMS attributes: it reads with a delegation without them
        Path out = tmp.resolve("limited.out");
        Tools.Result r = curlAs("alice-limited", "-L", "-o", out.toString(), doorUrl + "/atlas/file.bin");
        assertEquals(200, status(r), r.out());
        assertEquals(Tools.sha256(data.resolve("atlas/file.bin")), Tools.sha256(out));
    }

    @Test
    void aFileCachedForAliceIsRefusedToBobWhomTheOriginDenies() {
        delegated("alice-atlas");
        assertEquals(200, status(curlAs("alice-atlas", "-L", "-o", "/dev/null", doorUrl + "/atlas/file.bin")), "cached for Alice");
        delegate("bob-atlas").assertOk();
        Tools.Result r = curlAs("bob-atlas", "-L", doorUrl + "/atlas/file.bin");
        assertEquals(403, status(r));
        assertTrue(r.out().contains("the origin refuses /DC=org/DC=example/CN=Bob"), r.out());
    }

    @Test
    void aTicketReplayedForAnotherPathIs403() {
        delegated("alice-atlas");
        String location = location(curlAs("alice-atlas", doorUrl + "/atlas/file.bin"));
        String replayed = location.replace("/atlas/file.bin?", "/atlas/other.bin?");
        Tools.Result r = curlAs("alice-atlas", replayed);
        assertEquals(403, status(r));
        assertTrue(r.out().contains("ticket was issued for another path"), r.out());
    }

    /**
     * Issue 39, row 10: a DN's certificate requests (an RSA key each) are rate-limited: a burst of them ends in 429
     * with Retry-After and the reason, and a request is served again once the DN's budget refilled.
     */
    @Test
    void aDnsCertificateRequestsAreRateLimitedWith429AndRetryAfter() {
        Tools.Result refused = null;
        for (int i = 0; i < 60 && refused == null; i++) {
            Tools.Result r = curlAs("bob", doorUrl + "/.gridcache/delegation/rate-" + i + "/request");
            if (status(r) == 429) {
                refused = r;
            } else {
                assertEquals(200, status(r), r.out());
            }
        }
        assertTrue(refused != null, "60 certificate requests in a row were all served");
        assertTrue(refused.out().toLowerCase(java.util.Locale.ROOT).contains("retry-after: "), refused.out());
        assertTrue(refused.out().contains("too many certificate requests from this DN"), refused.out());
        // served again after the wait it was told, so the tests after this one delegate as Bob as before
        org.awaitility.Awaitility.await().atMost(Duration.ofMinutes(1)).pollInterval(Duration.ofSeconds(1))
                .until(() -> status(curlAs("bob", doorUrl + "/.gridcache/delegation/rate-again/request")) == 200);
    }

    /** Issue 39, row 9: in TLS 1.2 the pool, as the door, offers only forward-secret AEAD suites (ECDHE with GCM). */
    @Test
    void poolAndDoorRefuseStaticRsaAndCbcSuitesInTls12() {
        delegated("alice-atlas");
        java.net.URI poolUrl = java.net.URI.create(location(curlAs("alice-atlas", doorUrl + "/atlas/other.bin")));
        java.net.URI doorUri = java.net.URI.create(doorUrl);
        for (java.net.URI server : List.of(poolUrl, doorUri)) {
            String connect = server.getHost() + ":" + server.getPort();
            Tools.Result staticRsa = Tools.runWithInput(Duration.ofSeconds(30), "", "openssl", "s_client", "-connect", connect,
                    "-tls1_2", "-cipher", "AES128-SHA");
            assertTrue(staticRsa.exit() != 0 && !staticRsa.out().contains("Cipher is AES128-SHA"),
                    connect + " accepted AES128-SHA:\n" + staticRsa.out() + staticRsa.err());
            Tools.Result ecdhe = Tools.runWithInput(Duration.ofSeconds(30), "", "openssl", "s_client", "-connect", connect,
                    "-tls1_2", "-cipher", "ECDHE-RSA-AES128-GCM-SHA256");
            assertTrue(ecdhe.out().contains("Cipher is ECDHE-RSA-AES128-GCM-SHA256"), connect + ":\n" + ecdhe.out() + ecdhe.err());
        }
    }

    @Test
    void aStolenTicketYieldsNoCredential() {
        delegated("alice-atlas");
        String ticket = ticket(location(curlAs("alice-atlas", doorUrl + "/atlas/file.bin")));
        Tools.Result r = curlAs("alice-atlas", doorUrl + "/.gridcache/credential?gridcache-ticket=" + ticket);
        assertEquals(403, status(r));
        assertTrue(r.out().contains("not a pool of this door"), r.out());
        assertTrue(!r.out().contains("PRIVATE KEY"), "no key handed out");
    }

    @Test
    void anotherPoolOfTheDoorGetsNoCredentialWithATicketIssuedToP1() {
        delegated("alice-atlas");
        String ticket = ticket(location(curlAs("alice-atlas", doorUrl + "/atlas/file.bin")));
        Tools.Result r = Tools.curl("--capath", pki.resolve("certificates").toString(), "--cert", pki.resolve("voms/cert.pem").toString(),
                "--key", pki.resolve("voms/key.pem").toString(), "-D", "-", doorUrl + "/.gridcache/credential?gridcache-ticket=" + ticket);
        assertEquals(403, status(r), r.out());
        assertTrue(r.out().contains("ticket was issued to another pool"), r.out());
        assertTrue(!r.out().contains("PRIVATE KEY"), "no key handed out");
    }

    /**
     * What the pool obtains for a read as Alice (called here as the pool calls it, with its host certificate and the
     * door's ticket to it): a proxy the door made for this transfer, below Alice's delegation, living an hour at most;
     * never the delegation with its key.
     */
    @Test
    void thePoolObtainsAnHourLongProxyOfTheDelegationNotTheDelegation() throws Exception {
        // alice.pem allows proxies below it (alice-atlas, from voms-proxy-fake, only one: the delegation itself)
        delegate("alice").assertOk();
        try {
            Path out = tmp.resolve("proxy.out");
            Tools.Result read = curlAs("alice", "-L", "-o", out.toString(), doorUrl + "/atlas/proxy.bin");
            assertEquals(200, status(read), read.out());
            assertEquals(Tools.sha256(data.resolve("atlas/proxy.bin")), Tools.sha256(out), "read with the derived proxy");
            assertHandsOutAnHourLongProxy(ticket(location(curlAs("alice", doorUrl + "/atlas/file.bin"))));
        } finally {
            delegate("alice-atlas").assertOk(); // the other tests' delegation
        }
    }

    private static void assertHandsOutAnHourLongProxy(String ticket) throws Exception {
        Tools.Result r = Tools.curl("--capath", pki.resolve("certificates").toString(), "--cert", pki.resolve("host/cert.pem").toString(),
                "--key", pki.resolve("host/key.pem").toString(), "-w", "\n%{http_code}", doorUrl + "/.gridcache/credential?gridcache-ticket=" + ticket);
        assertTrue(r.out().endsWith("200"), r.out().lines().reduce((a, b) -> b).orElse(""));
        java.security.cert.X509Certificate[] chain = org.gridcache.common.security.GridCredentials.fromPem(
                r.out().substring(0, r.out().lastIndexOf('\n'))).getCertificateChain();
        java.security.cert.X509Certificate proxy = chain[0];
        java.security.cert.X509Certificate delegation = chain[1];
        assertTrue(eu.emi.security.authn.x509.proxy.ProxyUtils.isProxy(proxy));
        assertEquals(delegation.getSubjectX500Principal(), proxy.getIssuerX500Principal(), "signed by the delegation");
        assertTrue(eu.emi.security.authn.x509.proxy.ProxyUtils.isProxy(delegation), "the delegation is Alice's proxy");
        assertEquals(ALICE_DN, org.gridcache.common.security.X509Authenticator.slashDn(
                eu.emi.security.authn.x509.proxy.ProxyUtils.getOriginalUserDN(chain)));
        Duration lifetime = Duration.between(proxy.getNotBefore().toInstant(), proxy.getNotAfter().toInstant());
        assertTrue(lifetime.compareTo(Duration.ofHours(1)) <= 0, "lives " + lifetime);
        assertTrue(proxy.getSigAlgName().equalsIgnoreCase("SHA256withRSA"), proxy.getSigAlgName());
        assertTrue(!proxy.getNotAfter().after(delegation.getNotAfter()), "never beyond the delegation");
    }

    @Test
    void aProxyOfThePoolsHostCertificateGetsNoCredential() {
        delegated("alice-atlas");
        String ticket = ticket(location(curlAs("alice-atlas", doorUrl + "/atlas/file.bin")));
        Path hostProxy = tmp.resolve("host-proxy.pem");
        Tools.run(Duration.ofMinutes(1), "grid-proxy-init", "-rfc", "-cert", pki.resolve("host/cert.pem").toString(),
                "-key", pki.resolve("host/key.pem").toString(), "-out", hostProxy.toString(), "-valid", "1:00").assertOk();
        Tools.Result r = Tools.curl("--capath", pki.resolve("certificates").toString(), "--cert", hostProxy.toString(),
                "--key", hostProxy.toString(), "-D", "-", doorUrl + "/.gridcache/credential?gridcache-ticket=" + ticket);
        assertEquals(403, status(r), r.out());
        assertTrue(r.out().contains("a proxy certificate cannot obtain credentials"), r.out());
        assertTrue(!r.out().contains("PRIVATE KEY"), "no key handed out");
    }

    /**
     * A ticket issued while Alice's delegation existed, used after she destroyed it, on a file the pool must fetch:
     * the pool asks the door again rather than use the credential it obtained for her earlier reads.
     */
    @Test
    void aDestroyedDelegationIsNoLongerUsedByThePool() throws Exception {
        Tools.Result delegated = delegate("alice-atlas").assertOk();
        // issue 42 item 6: who, which VOMS attributes, until when, to which door
        assertTrue(delegated.out().matches("(?s)delegated /DC=org/DC=example/CN=Alice \\(VOMS attributes /atlas, "
                + "/atlas/Role=production\\) until 20[0-9-]+T[0-9:]+Z to " + java.util.regex.Pattern.quote(doorUrl)
                + " as delegation [0-9a-f]{16}\\s*"), delegated.out());
        assertEquals(200, status(curlAs("alice-atlas", "-L", "-o", "/dev/null", doorUrl + "/atlas/file.bin")));
        String location = location(curlAs("alice-atlas", doorUrl + "/atlas/late.bin"));
        delegate("alice-atlas", "--destroy").assertOk();

        Path body = tmp.resolve("late.out");
        Tools.Result r = curlAs("alice-atlas", "-o", body.toString(), location);
        assertEquals(401, status(r), r.out());
        assertTrue(Files.readString(body).contains("expired or was destroyed"), "reason given");
        assertTrue(r.out().contains("X-Delegate-To: " + doorUrl + "/.gridcache/delegation"), r.out());
        assertTrue(!origin.accessLog().contains("\"GET /atlas/late.bin"), "the pool never fetched the file");
    }

    @Test
    void anExpiredDelegationIs401() {
        withoutDelegation("bob-atlas");
        delegate("bob-atlas", "--id", "short", "--lifetime", "5s").assertOk();
        // until the short delegation runs out the door asks the origin as Bob, which refuses him: 403
        Tools.Result refused = curlAs("bob-atlas", doorUrl + "/atlas/other.bin");
        assertEquals(403, status(refused), "the origin's refusal while the delegation lasts: " + refused.out());
        assertTrue(refused.out().contains("the origin refuses /DC=org/DC=example/CN=Bob access to /atlas/other.bin"), refused.out());
        Tools.await("bob's 5 s delegation to expire", Duration.ofSeconds(60),
                () -> status(curlAs("bob-atlas", doorUrl + "/atlas/other.bin")) == 401);
    }

    /**
     * A user's certificate revoked after the door started: the CRL it re-reads every 2 s refuses her, no restart. The
     * user (Carol) is issued here, for this test alone: revoking Bob or Alice would change what the other tests see.
     * The door keeps a validated chain for 60 s, so each chain tried after the revocation is a new proxy of Carol's
     * (grid-proxy-init does not check CRLs): only the re-read CRL can refuse it.
     */
    @Test
    void aCrlPublishedWhileRunningAppliesWithoutRestart() {
        String config = pki.resolve("ca/openssl.cnf").toString();
        Path carol = pki.resolve("users/carol");
        if (!Files.exists(carol.resolve("cert.pem"))) {
            Tools.run(Duration.ofMinutes(1), "mkdir", "-p", carol.toString()).assertOk();
            Tools.run(Duration.ofMinutes(1), "openssl", "req", "-new", "-newkey", "rsa:2048", "-nodes", "-subj", "/DC=org/DC=example/CN=Carol",
                    "-keyout", carol.resolve("key.pem").toString(), "-out", carol.resolve("req.pem").toString(), "-config", config).assertOk();
            Tools.run(Duration.ofMinutes(1), "openssl", "ca", "-batch", "-notext", "-config", config, "-extensions", "usr",
                    "-in", carol.resolve("req.pem").toString(), "-out", carol.resolve("cert.pem").toString()).assertOk();
        }
        proxy(carol, "carol-before-revocation");
        String propfind = doorUrl + "/"; // the door's own answer: /atlas is listed as the user, who needs a delegation
        assertEquals(207, status(curlAs("carol-before-revocation", "-X", "PROPFIND", "-H", "Depth: 0", propfind)));
        Tools.run(Duration.ofMinutes(1), "openssl", "ca", "-batch", "-config", config, "-revoke",
                carol.resolve("cert.pem").toString()).assertOk();
        Path crl = pki.resolve("ca/crl-carol.pem");
        Tools.run(Duration.ofMinutes(1), "openssl", "ca", "-batch", "-config", config, "-gencrl", "-out", crl.toString()).assertOk();
        String hash = Tools.run(Duration.ofMinutes(1), "openssl", "x509", "-in", pki.resolve("ca/ca.pem").toString(), "-noout", "-hash")
                .assertOk().out().trim();
        Tools.run(Duration.ofMinutes(1), "cp", crl.toString(), pki.resolve("certificates/" + hash + ".r0").toString()).assertOk();

        // each attempt with a proxy the door has not seen (and so not cached) yet
        Tools.await("the door to refuse Carol's revoked certificate", Duration.ofSeconds(60), () -> {
            proxy(carol, "carol");
            return status(curlAs("carol", "-X", "PROPFIND", "-H", "Depth: 0", propfind)) == 401;
        });
        Tools.Result r = curlAs("carol", "-X", "PROPFIND", "-H", "Depth: 0", propfind);
        assertTrue(r.out().contains("revoked"), r.out());
        assertEquals(207, status(curlAs("alice-atlas", "-X", "PROPFIND", "-H", "Depth: 0", propfind)), "Alice is not affected");
    }

    /** A new RFC 3820 proxy, {@code proxies/NAME.pem}, of the user whose certificate and key are in {@code user}. */
    private static void proxy(Path user, String name) {
        Tools.run(Duration.ofMinutes(1), "env", "X509_USER_CERT=" + user.resolve("cert.pem"), "X509_USER_KEY=" + user.resolve("key.pem"),
                "grid-proxy-init", "-q", "-rfc", "-bits", "2048", "-valid", "24:00", "-out", pki.resolve("proxies/" + name + ".pem").toString())
                .assertOk();
    }

    /**
     * Two HTTPS pools cooperating: the door's redirect names the path's owner and, in a {@code Link: rel="duplicate";
     * pri=2} header, the next pool with a ticket naming the owner as its peer. A client following that link (as davix does
     * when the first pool fails) reaches a pool that asks the owner over TLS and pulls the file from it: the origin
     * is read once.
     */
    @Test
    void aSecondHttpsPoolPullsFromItsPeerOverTls() throws Exception {
        delegated("alice-atlas");
        Path conf = tmp.resolve("gridcache.properties");
        pool2 = Gridcache.start(tmp.resolve("pool2.out"), "pool", "--config", conf.toString(), "--log-dir", logs.toString(), "--name", "p2",
                "--store", tmp.resolve("store2").toString(), "--capacity", "1G", "--port", String.valueOf(Tools.freePort()))
                .awaitOutput("is up");
        Path file = data.resolve("atlas/peer.bin");
        String url = doorUrl + "/atlas/peer.bin";
        try {
            readFromBothPools(file, url);
        } finally {
            // the other tests see one pool again: p2 leaves (SIGTERM deregisters it) and the door stops ranking it
            pool2.close();
            Tools.await("the door to rank p1 alone", Duration.ofSeconds(60),
                    () -> !curlAs("alice-atlas", url).out().contains("pri=2"));
        }
    }

    private static void readFromBothPools(Path file, String url) throws Exception {
        Tools.await("the door to rank both pools", Duration.ofSeconds(30),
                () -> curlAs("alice-atlas", url).out().contains("pri=2"));
        Tools.Result redirect = curlAs("alice-atlas", url);
        String owner = location(redirect);
        String duplicate = redirect.out().lines().filter(l -> l.toLowerCase().startsWith("link:") && l.contains("pri=2"))
                .findFirst().orElseThrow();
        duplicate = duplicate.substring(duplicate.indexOf('<') + 1, duplicate.indexOf('>'));

        for (String poolUrl : List.of(owner, duplicate)) {
            Path out = tmp.resolve("peer.out");
            Tools.Result r = curlAs("alice-atlas", "-o", out.toString(), poolUrl);
            assertEquals(200, status(r), r.out());
            assertEquals(Tools.sha256(file), Tools.sha256(out), "byte-exact from " + poolUrl);
        }
        assertEquals(1, origin.accessLog().lines().filter(l -> l.contains("\"GET /atlas/peer.bin")).count(),
                "one origin read for both pools");
        String pools = Tools.readLog(logs.resolve("pool-p1.log")) + Tools.readLog(logs.resolve("pool-p2.log"));
        assertTrue(pools.contains("pulling /atlas/peer.bin from peer"), () -> "the second pool pulled from its peer: "
                + pools.lines().filter(l -> l.contains("peer")).toList());
    }

    /**
     * Public data: an origin mounted with {@code --credential service} is read with the pool's host certificate, so
     * Bob, who has delegated nothing (and whom the origin's ACL does not know), reads it; the same files under the
     * user-credential mount still want his delegation.
     */
    @Test
    void aServiceCredentialMountNeedsNoDelegation() throws Exception {
        withoutDelegation("bob-atlas");
        Gridcache.admin("origins", "add", "public", "--prefix", "/public", "--url", origin.url() + "/atlas", "--credential", "service",
                "--zk", zkConnect).assertOk();
        Path out = tmp.resolve("public.out");
        Tools.await("the door to mount /public", Duration.ofSeconds(30),
                () -> status(curlAs("bob-atlas", "-L", "-o", out.toString(), doorUrl + "/public/other.bin")) == 200);
        assertEquals(Tools.sha256(data.resolve("atlas/other.bin")), Tools.sha256(out), "byte-exact with the host credential");
        Tools.Result user = curlAs("bob-atlas", doorUrl + "/atlas/other.bin");
        assertEquals(401, status(user), user.out());
        assertTrue(user.out().contains("X-Delegate-To: "), user.out());
    }

    /**
     * Debian's htproxyput signs a SHA-1, non-RFC 3820 proxy (docs/htproxyput.md). The door takes the
     * delegation and warns; mod_gridsite refuses that credential in the TLS handshake, and the client learns it as a
     * 403 naming the alert, not as an unreachable origin.
     */
    @Test
    void anHtproxyputDelegationRefusedByTheOriginIs403WithTheAlert() throws Exception {
        withoutDelegation("alice-atlas"); // the htproxyput one is then Alice's only /atlas delegation
        String proxy = pki.resolve("proxies/alice-atlas.pem").toString();
        String capath = pki.resolve("certificates").toString();
        String id = GridEnv.htproxyput(pki, doorUrl, "alice-atlas");
        try {
            Path out = tmp.resolve("sha1.out");
            Tools.Result r = curlAs("alice-atlas", "-L", "-o", out.toString(), doorUrl + "/atlas/sha1.bin");
            assertEquals(403, status(r), r.out());
            assertTrue(Files.readString(out).contains("the origin refuses the credential of " + ALICE_DN + " (TLS alert"),
                    Files.readString(out));
            // the door warns after it made the delegation usable, which is all GridEnv.htproxyput waits for: awaited
            String warning = "delegation " + id + " of " + ALICE_DN + " is not an RFC 3820 proxy";
            Tools.await("the door's warning that it took the delegation: " + warning, Duration.ofSeconds(30), () -> {
                try {
                    return Files.readString(doorLog()).contains(warning);
                } catch (Exception e) {
                    return false;
                }
            });
        } finally {
            Tools.run(Duration.ofMinutes(1), "htproxyput", "--destroy", "--delegation-id", id, "--cert", proxy, "--key", proxy,
                    "--capath", capath, doorUrl + "/.gridcache/delegation").assertOk();
        }
    }

    private static String location(Tools.Result redirect) {
        assertEquals(302, status(redirect), redirect.out());
        return redirect.out().lines().filter(l -> l.toLowerCase().startsWith("location:")).findFirst().orElseThrow()
                .substring("location:".length()).trim();
    }

    private static String ticket(String location) {
        return location.substring(location.indexOf("gridcache-ticket=") + "gridcache-ticket=".length());
    }

    private static Path doorLog() throws Exception {
        try (var files = Files.list(logs)) {
            return files.filter(f -> f.getFileName().toString().startsWith("door")).findFirst().orElseThrow();
        }
    }

    /**
     * A page on another site can make Alice's browser POST a form to the door with her certificate, without asking
     * first (a "simple" cross-site request: form-urlencoded, multipart or text/plain). Such a post must not destroy
     * her delegation: SOAP comes as text/xml or application/soap+xml only, anything else is 415 before it is read.
     */
    @Test
    void aCrossSiteFormPostCannotDestroyADelegation() {
        String proxy = pki.resolve("proxies/alice-atlas.pem").toString();
        String id = Tools.run(Duration.ofMinutes(1), "htproxyput", "--cert", proxy, "--key", proxy,
                "--capath", pki.resolve("certificates").toString(), doorUrl + "/.gridcache/delegation").assertOk().out().trim();
        String destroy = "<?xml version=\"1.0\"?><SOAP-ENV:Envelope xmlns:SOAP-ENV=\"http://schemas.xmlsoap.org/soap/envelope/\""
                + " xmlns:ns=\"http://www.gridsite.org/namespaces/delegation-1\"><SOAP-ENV:Body><ns:destroy><delegationID>" + id
                + "</delegationID></ns:destroy></SOAP-ENV:Body></SOAP-ENV:Envelope>";
        for (String type : List.of("application/x-www-form-urlencoded", "text/plain", "multipart/form-data; boundary=x")) {
            Tools.Result form = curlAs("alice-atlas", "-H", "Content-Type: " + type, "-H", "Origin: https://evil.example.com",
                    "--data-binary", destroy, doorUrl + "/.gridcache/delegation");
            assertEquals(415, status(form), type + ": " + form.out());
            assertTrue(form.out().contains("needs Content-Type text/xml or application/soap+xml"), form.out());
            assertEquals(200, status(curlAs("alice-atlas", doorUrl + "/.gridcache/delegation/" + id)), "still there after " + type);
        }
        Tools.Result soap = curlAs("alice-atlas", "-H", "Content-Type: text/xml; charset=utf-8", "-H", "SOAPAction: \"\"",
                "--data-binary", destroy, doorUrl + "/.gridcache/delegation");
        assertEquals(200, status(soap), soap.out());
        assertEquals(404, status(curlAs("alice-atlas", doorUrl + "/.gridcache/delegation/" + id)), "SOAP itself still destroys");
    }

    /** What a v2 client (davix, FTS) asks before delegating: the service's version and interface, as SOAP. */
    @Test
    void theDelegationServiceAnswersTheV2VersionAndMetadataCalls() {
        for (String[] call : new String[][] {
                {"getVersion", "", "<getVersionReturn>2.0.0</getVersionReturn>"},
                {"getInterfaceVersion", "", "<getInterfaceVersionReturn>2.0.0</getInterfaceVersionReturn>"},
                {"getServiceMetadata", "<key>glue2.Endpoint.InterfaceName</key>", "org.gridsite.delegation"}}) {
            String envelope = "<?xml version=\"1.0\"?><SOAP-ENV:Envelope xmlns:SOAP-ENV=\"http://schemas.xmlsoap.org/soap/envelope/\""
                    + " xmlns:ns=\"http://www.gridsite.org/namespaces/delegation-2\"><SOAP-ENV:Body><ns:" + call[0] + ">" + call[1]
                    + "</ns:" + call[0] + "></SOAP-ENV:Body></SOAP-ENV:Envelope>";
            Tools.Result r = curlAs("alice-atlas", "-H", "Content-Type: text/xml; charset=utf-8", "-H", "SOAPAction: \"\"",
                    "--data-binary", envelope, doorUrl + "/.gridcache/delegation");
            assertEquals(200, status(r), r.out());
            assertTrue(r.out().contains(call[2]), call[0] + ": " + r.out());
        }
    }
}
