package org.gridcache.systemtest;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
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
 * The grid's real HTTPS clients log in with Alice's credential and read byte-exact through a standalone gridcache
 * over HTTPS (gridenv's PKI): curl, wget (GnuTLS), davix, gfal2, rclone and webdav4 (PyPI, in a venv) with her RFC
 * 3820 proxy, following the door's redirect to the pool (so the pool's TLS serves them); cadaver and a davfs2 mount
 * (neon, which never follows a redirect: the door streams) with a PKCS#12 file of her proxy. Each reads its own file,
 * and the transfer log must name Alice as the subject the door authenticated.
 *
 * <p>wget is the one that chooses its certificate by the server's request; before the door stopped naming CAs in
 * it (GridTls), it sent none and got 401. neon sends only the certificate of a PKCS#12 file that matches its key: a
 * proxy without the user certificate above it, whatever CA names the request carries (GnuTLS' neon, cadaver, and
 * OpenSSL's, davfs2, alike). The door completes that chain from the certificates of Alice's delegation, or of a whole
 * chain of hers it validated (any request with her proxy file, e.g. curl's); it refuses, with a reason that says to
 * delegate, a user it knows neither way (Bob). A PKCS#12 of the user certificate needs neither (cadaver's case).
 */
@Timeout(value = 10, unit = TimeUnit.MINUTES)
class GridClientsTest {
    static final String ALICE_DN = "/DC=org/DC=example/CN=Alice";
    static final String P12_PASSWORD = "test-only";
    /** The venv's python with webdav4 in it: .ci/run makes it (pip install webdav4==0.11.0), see the pom. */
    static final Path WEBDAV4_PYTHON = Path.of(System.getProperty("gridcache.webdav4.python", "../../target/webdav4-venv/bin/python"));
    @TempDir
    static Path tmp;
    static Path pkiParent;
    static Path pki;
    static Path data;
    static Path proxy;
    static Standalone gridcache;
    static String door;

    @BeforeAll
    static void start() throws Exception {
        Tools.require("openssl", "grid-proxy-init", "voms-proxy-fake");
        pkiParent = GridEnv.worldReadableDir("gridcache-test-pki");
        pki = GridEnv.pki(pkiParent.resolve("pki"));
        proxy = pki.resolve("proxies/alice.pem");
        data = Files.createDirectories(tmp.resolve("data"));
        long seed = 40;
        for (String client : List.of("curl", "wget", "davix", "gfal2", "rclone", "webdav4", "cadaver", "cadaver-user",
                "cadaver-refused", "davfs2", "cadaver-undelegated", "davfs2-undelegated")) {
            Tools.randomFile(data.resolve(client + ".bin"), 2_000_000 + seed * 1000, seed++);
        }
        gridcache = Standalone.startHttps(tmp, data.toString(), pki);
        door = gridcache.door();
    }

    @AfterAll
    static void stop() throws Exception {
        Tools.closeAll(gridcache);
        if (pkiParent != null) {
            Tools.run(Duration.ofMinutes(1), "rm", "-rf", pkiParent.toString());
        }
    }

    @Test
    void curlReadsWithTheProxy() throws Exception {
        Path got = tmp.resolve("got-curl.bin");
        Tools.curl("-L", "--fail", "--capath", certificates(), "--cert", proxy.toString(), "--key", proxy.toString(), "-o",
                got.toString(), door + "/curl.bin").assertOk();
        assertReadByAlice("curl.bin", got, "pool");
    }

    @Test
    void wgetSendsTheProxyAlthoughItChoosesByTheServersRequest() throws Exception {
        Tools.require("wget");
        Path got = tmp.resolve("got-wget.bin");
        Tools.run(Duration.ofMinutes(2), "wget", "-q", "-O", got.toString(), "--certificate=" + proxy, "--private-key=" + proxy,
                "--ca-directory=" + certificates(), door + "/wget.bin").assertOk();
        assertReadByAlice("wget.bin", got, "pool");
    }

    @Test
    void davixReadsWithTheProxy() throws Exception {
        Tools.require("davix-get");
        Path got = tmp.resolve("got-davix.bin");
        Tools.run(Duration.ofMinutes(2), "davix-get", "--capath", certificates(), "--cert", proxy.toString(), "--key",
                proxy.toString(), door + "/davix.bin", got.toString()).assertOk();
        assertReadByAlice("davix.bin", got, "pool");
    }

    @Test
    void gfal2ReadsWithTheProxy() throws Exception {
        Tools.require("gfal-copy");
        Path got = tmp.resolve("got-gfal2.bin");
        // gfal's wrapper runs the first python3 on PATH (notes/clients.md); file:// needs gfal2-plugin-file
        Tools.run(Duration.ofMinutes(2), "env", "X509_CERT_DIR=" + certificates(), "X509_USER_PROXY=" + proxy,
                "GFAL_PYTHONBIN=/usr/bin/python3", "gfal-copy", "-f", door + "/gfal2.bin", "file://" + got).assertOk();
        assertReadByAlice("gfal2.bin", got, "pool");
    }

    @Test
    void rcloneReadsWithTheProxy() throws Exception {
        Tools.require("rclone");
        Path got = tmp.resolve("got-rclone.bin");
        Tools.run(Duration.ofMinutes(2), "rclone", "--config", "/dev/null", "copyto", "--webdav-url", door + "/",
                "--ca-cert", pki.resolve("ca/ca.pem").toString(), "--client-cert", proxy.toString(), "--client-key",
                proxy.toString(), ":webdav:rclone.bin", got.toString()).assertOk();
        assertReadByAlice("rclone.bin", got, "pool");
    }

    @Test
    void webdav4ListsAndReadsWithTheProxy() throws Exception {
        Tools.requireExecutable(WEBDAV4_PYTHON, "the webdav4 venv (.ci/run makes it: python3 -m venv target/webdav4-venv;"
                + " target/webdav4-venv/bin/pip install webdav4==0.11.0)");
        Path script = Path.of(GridClientsTest.class.getResource("/webdav4-read.py").toURI());
        Path got = tmp.resolve("got-webdav4.bin");
        Tools.Result r = Tools.run(Duration.ofMinutes(2), WEBDAV4_PYTHON.toString(), script.toString(), door + "/",
                pki.resolve("ca/ca.pem").toString(), proxy.toString(), "webdav4.bin", got.toString()).assertOk();
        assertTrue(r.out().contains(" webdav4.bin"), "the listing names the file: " + r.out());
        assertReadByAlice("webdav4.bin", got, "pool");
    }

    @Test
    void cadaverReadsWithAPkcs12OfTheProxyOnceAliceHasDelegated() throws Exception {
        Tools.require("cadaver", "expect");
        GridEnv.delegated(pki, door, "alice");
        cadaverRead(proxyPkcs12("alice"), "cadaver.bin");
    }

    @Test
    void cadaverWithAPkcs12OfTheProxyIsRefusedWithTheReasonWhenTheDoorKnowsNoCertificateOfItsUser() throws Exception {
        Tools.require("cadaver", "expect");
        // Bob never delegates here nor presents his whole proxy: the door holds no certificate of his
        Path got = tmp.resolve("got-cadaver-refused.bin");
        Tools.Result r = cadaverGet(proxyPkcs12("bob"), "cadaver-refused.bin", got);
        assertTrue(r.out().contains("401"), r.out() + r.err());
        assertTrue(Files.notExists(got), "nothing read");
        Tools.await("the door's log of the refusal with its reason", Duration.ofSeconds(30),
                () -> read(gridcache.home().resolve("logs/standalone.log")).lines().anyMatch(l -> l.contains("-> 401 certificate refused:"
                        + " the proxy came without the user certificate that signed it, and this door holds none that does")
                        && l.contains("delegate to this door once (gridcache delegate), or give them a PKCS#12 of the user certificate")));
    }

    @Test
    void cadaverReadsWithAPkcs12OfTheUserCertificateWithoutADelegation() throws Exception {
        Tools.require("cadaver", "expect");
        GridEnv.withoutDelegation(pki, door, "alice");
        cadaverRead(userPkcs12(), "cadaver-user.bin");
    }

    @Test
    void aDavfs2MountReadsWithAPkcs12OfTheProxyOnceAliceHasDelegated() throws Exception {
        Tools.require("mount.davfs", "umount");
        GridEnv.delegated(pki, door, "alice");
        davfs2Read("davfs2.bin");
    }

    /**
     * No delegation, but the door has validated Alice's whole proxy chain: withoutDelegation lists her delegations with
     * curl and her proxy file, as any grid client would send it. Before, the door completed a lone proxy only from
     * delegations, and cadaver got 401.
     */
    @Test
    void cadaverReadsWithAPkcs12OfTheProxyWithoutADelegationOnceTheDoorHasSeenHerWholeProxy() throws Exception {
        Tools.require("cadaver", "expect");
        GridEnv.withoutDelegation(pki, door, "alice");
        cadaverRead(proxyPkcs12("alice"), "cadaver-undelegated.bin");
    }

    /** As cadaver's: a davfs2 mount with the PKCS#12 of her proxy and no delegation; before, mount failed (401). */
    @Test
    void aDavfs2MountReadsWithAPkcs12OfTheProxyWithoutADelegationOnceTheDoorHasSeenHerWholeProxy() throws Exception {
        Tools.require("mount.davfs", "umount");
        GridEnv.withoutDelegation(pki, door, "alice");
        davfs2Read("davfs2-undelegated.bin");
    }

    /** cadaver gets {@code name} with the PKCS#12 file {@code p12}, read by Alice through the door. */
    private static void cadaverRead(Path p12, String name) throws IOException {
        Path got = tmp.resolve("got-" + name);
        Tools.Result r = cadaverGet(p12, name, got);
        assertTrue(Files.exists(got), r.out() + r.err());
        assertReadByAlice(name, got, "door");
    }

    /** Mounts the door with davfs2 and the PKCS#12 of Alice's proxy, and copies {@code name} out of it, read by Alice. */
    private static void davfs2Read(String name) throws Exception {
        Path p12 = proxyPkcs12("alice");
        Path mnt = Files.createDirectories(tmp.resolve("mnt-" + name));
        Path secrets = tmp.resolve("davfs2.secrets");
        Files.writeString(secrets, p12 + " " + P12_PASSWORD + "\n");
        Files.setPosixFilePermissions(secrets, java.nio.file.attribute.PosixFilePermissions.fromString("rw-------"));
        Path conf = tmp.resolve("davfs2.conf");
        // buf_size 64: see NeonClientsTest; the password of the PKCS#12 comes from the secrets file
        Files.writeString(conf, "buf_size 64\nuse_locks 0\nask_auth 0\ntrust_ca_cert " + pki.resolve("ca/ca.pem")
                + "\nclientcert " + p12 + "\nsecrets " + secrets + "\n");
        Tools.runWithInput(Duration.ofSeconds(60), "\n\n", "mount", "-t", "davfs", "-o", "ro,conf=" + conf, door + "/",
                mnt.toString()).assertOk();
        try {
            Path got = tmp.resolve("got-" + name);
            Files.copy(mnt.resolve(name), got);
            assertReadByAlice(name, got, "door");
        } finally {
            Tools.run(Duration.ofSeconds(60), "umount", mnt.toString());
        }
    }

    private static String certificates() {
        return pki.resolve("certificates").toString();
    }

    /**
     * {@code user}'s proxy as PKCS#12 (made once from gridenv's proxies/USER.pem: proxy, key and user certificate);
     * neon sends only the proxy of it.
     */
    private static synchronized Path proxyPkcs12(String user) {
        Path p12 = tmp.resolve(user + "-proxy.p12");
        Path pem = pki.resolve("proxies/" + user + ".pem");
        if (!Files.exists(p12)) {
            Tools.run(Duration.ofMinutes(1), "openssl", "pkcs12", "-export", "-in", pem.toString(), "-inkey", pem.toString(),
                    "-passout", "pass:" + P12_PASSWORD, "-out", p12.toString()).assertOk();
        }
        return p12;
    }

    /** Alice's user certificate and key as PKCS#12, the file neon-based clients take (made once). */
    private static synchronized Path userPkcs12() {
        Path p12 = tmp.resolve("alice-user.p12");
        if (!Files.exists(p12)) {
            Tools.run(Duration.ofMinutes(1), "openssl", "pkcs12", "-export", "-in", pki.resolve("users/alice/cert.pem").toString(),
                    "-inkey", pki.resolve("users/alice/key.pem").toString(), "-passout", "pass:" + P12_PASSWORD, "-out",
                    p12.toString()).assertOk();
        }
        return p12;
    }

    /**
     * cadaver {@code get} of one file with a PKCS#12 file. cadaver asks for the file's password and to accept the
     * door's certificate (its CA is not in the system store) on a terminal, so expect drives it; it always exits 0.
     */
    private static Tools.Result cadaverGet(Path p12, String name, Path got) throws IOException {
        return cadaverWithPkcs12(p12, P12_PASSWORD, door + "/", "get " + name + " " + got);
    }

    /** One cadaver {@code command} at {@code url} with the PKCS#12 file {@code p12} (src/test/resources/cadaver-p12.exp). */
    static Tools.Result cadaverWithPkcs12(Path p12, String password, String url, String command) {
        try {
            Path script = Path.of(GridClientsTest.class.getResource("/cadaver-p12.exp").toURI());
            return Tools.run(Duration.ofMinutes(2), "expect", script.toString(), p12.toString(), password, url, command);
        } catch (java.net.URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }

    /**
     * The bytes are the origin's, and the transfer log names Alice as the subject of a 200 for this file, served by
     * {@code node}: the pool after the door's redirect (so over the pool's TLS), or the door itself for neon clients.
     */
    private static void assertReadByAlice(String name, Path got, String node) throws IOException {
        assertEquals(Tools.sha256(data.resolve(name)), Tools.sha256(got), name);
        Path transfers = gridcache.home().resolve("logs/transfers.jsonl");
        Tools.await("a transfer record of /" + name + " by Alice", Duration.ofSeconds(30), () -> read(transfers).lines()
                .anyMatch(l -> l.contains("\"subject\":\"" + ALICE_DN + "\"") && l.contains("\"path\":\"/" + name + "\"")
                        && l.contains("\"status\":200") && l.contains("\"node\":\"" + node + "\"")));
    }

    private static String read(Path file) {
        return Tools.readLog(file);
    }
}
