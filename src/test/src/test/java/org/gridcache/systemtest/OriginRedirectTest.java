package org.gridcache.systemtest;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.KeyStore;
import java.security.cert.CertificateFactory;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Which origin redirects a pool follows, against a real nginx that answers GETs of some files with a redirect (HEADs,
 * with which the door looks files up, are answered from the file): the same origin listens on 127.0.0.1 (the mounted
 * origin), 127.0.0.2 (mounted too, at {@code /second}) and 127.0.0.3 (in no mount), and over HTTPS on 127.0.0.1 (a
 * self-signed certificate the JVMs are told to trust). gridcache runs under umask 000, so that what its store leaves
 * on disk shows the store's own permissions.
 */
@Timeout(value = 5, unit = TimeUnit.MINUTES)
class OriginRedirectTest {
    private static final int SIZE = 300_000;
    @TempDir
    static Path tmp;
    static NginxOrigin origin;
    static Standalone gridcache;
    static String door;
    static Path data;
    static int tlsPort;

    @BeforeAll
    static void start() throws Exception {
        Tools.require("nginx", "curl", "openssl");
        data = Files.createDirectories(tmp.resolve("data"));
        // each redirecting name is also a file of the same bytes, which the door's HEAD finds
        for (String name : List.of("dir/target.bin", "hop/listed.bin", "hop/unlisted.bin", "secure/down.bin")) {
            Tools.randomFile(data.resolve(name), SIZE, 51);
        }
        tlsPort = Tools.freePort();
        Path tls = selfSignedLoopbackCertificate(tmp.resolve("tls"));
        origin = NginxOrigin.startPlain(tmp.resolve("nginx"), data, """
                listen 127.0.0.2:{port};
                listen 127.0.0.3:{port};
                access_log {dir}/access.log origin;
                access_log {dir}/hosts.log hosts;
                location = /hop/listed.bin { if ($request_method = GET) { return 302 http://127.0.0.2:{port}/dir/target.bin; } }
                location = /hop/unlisted.bin { if ($request_method = GET) { return 302 http://127.0.0.3:{port}/dir/target.bin; } }
                """, """
                log_format hosts '$server_addr $request_method $uri $status';
                server {
                  listen 127.0.0.1:%1$d ssl;
                  ssl_certificate %2$s/cert.pem;
                  ssl_certificate_key %2$s/key.pem;
                  root %3$s;
                  access_log {dir}/hosts.log hosts;
                  location = /secure/down.bin { if ($request_method = GET) { return 302 http://127.0.0.1:{port}/dir/target.bin; } }
                }
                """.formatted(tlsPort, tls, data));
        String trust = "-Djavax.net.ssl.trustStore=" + tls.resolve("trust.p12") + " -Djavax.net.ssl.trustStorePassword=changeit"
                + " -Djavax.net.ssl.trustStoreType=PKCS12";
        gridcache = Standalone.start(Map.of("GRIDCACHE_JAVA_OPTS", trust), "000", tmp, "http://127.0.0.1:" + origin.port() + "/");
        door = gridcache.door();
        gridcache.admin("origins", "add", "second", "--prefix", "/second", "--url", "http://127.0.0.2:" + origin.port() + "/").assertOk();
        gridcache.admin("origins", "add", "secure", "--prefix", "/secure", "--url", "https://127.0.0.1:" + tlsPort + "/secure",
                "--credential", "none").assertOk();
        Tools.await("the door to mount /second and /secure", Duration.ofSeconds(30),
                () -> Tools.curl("-I", door + "/secure/down.bin").out().startsWith("HTTP/1.1 200")
                        && Tools.curl("-I", door + "/second/dir/target.bin").out().startsWith("HTTP/1.1 200"));
    }

    @AfterAll
    static void stop() throws Exception {
        Tools.closeAll(origin, gridcache);
    }

    /** A certificate for 127.0.0.1 and a PKCS#12 trust store holding it, in {@code dir}. */
    private static Path selfSignedLoopbackCertificate(Path dir) throws Exception {
        Files.createDirectories(dir);
        Tools.run(Duration.ofSeconds(60), "openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2",
                "-subj", "/CN=127.0.0.1", "-addext", "subjectAltName=IP:127.0.0.1",
                "-keyout", dir.resolve("key.pem").toString(), "-out", dir.resolve("cert.pem").toString()).assertOk();
        KeyStore store = KeyStore.getInstance("PKCS12");
        store.load(null, null);
        try (InputStream in = Files.newInputStream(dir.resolve("cert.pem"))) {
            store.setCertificateEntry("origin", CertificateFactory.getInstance("X.509").generateCertificate(in));
        }
        try (OutputStream out = Files.newOutputStream(dir.resolve("trust.p12"))) {
            store.store(out, "changeit".toCharArray());
        }
        return dir;
    }

    /** curl -L through door and pool: the HTTP status of the last answer, the body in {@code out}. */
    private static String read(String path, Path out) {
        return Tools.curl("-sL", "-o", out.toString(), "-w", "%{http_code}", door + path).assertOk().out();
    }

    private static long requestsTo(String address, String uri) throws Exception {
        Path log = tmp.resolve("nginx/hosts.log");
        return !Files.exists(log) ? 0 : Files.readAllLines(log).stream().filter(l -> l.startsWith(address + " GET " + uri + " ")).count();
    }

    @Test
    void aRedirectToAHostOfTheMountTableIsFollowed() throws Exception {
        Path out = tmp.resolve("listed.out");
        assertEquals("200", read("/hop/listed.bin", out), () -> Tools.curl("-s", door + "/hop/listed.bin").out());
        assertEquals(Tools.sha256(data.resolve("dir/target.bin")), Tools.sha256(out));
        assertEquals(1, requestsTo("127.0.0.2", "/dir/target.bin"));
        assertStoreIsPrivate();
    }

    @Test
    void aRedirectToAnotherHostIsRefusedUntilItIsListed() throws Exception {
        Path out = tmp.resolve("unlisted.out");
        assertEquals("502", read("/hop/unlisted.bin", out));
        assertEquals("origin http://127.0.0.1:" + origin.port() + " redirected to 127.0.0.3, which is neither an origin of the "
                + "mount table nor in pool.redirect-hosts", Files.readString(out).trim());
        assertEquals(0, requestsTo("127.0.0.3", "/dir/target.bin"));

        gridcache.admin("config", "set", "pool.redirect-hosts", "127.0.0.3").assertOk();
        Tools.await("the pool to follow a redirect to a listed host", Duration.ofSeconds(30), () -> read("/hop/unlisted.bin", out).equals("200"));
        assertEquals(Tools.sha256(data.resolve("dir/target.bin")), Tools.sha256(out));
        assertEquals(1, requestsTo("127.0.0.3", "/dir/target.bin"));
    }

    @Test
    void anHttpsOriginNeverRedirectsThePoolToHttp() throws Exception {
        Path out = tmp.resolve("down.out");
        assertEquals("502", read("/secure/down.bin", out));
        assertEquals("origin https://127.0.0.1:" + tlsPort + " redirected from https to http, which the pool never follows",
                Files.readString(out).trim());
        assertEquals(1, requestsTo("127.0.0.1", "/secure/down.bin"), "the pool asked the https origin");
        assertEquals(0, requestsTo("127.0.0.1", "/dir/target.bin"), "and never the http URL it was sent to");
    }

    /** Under umask 000 the store's files would be 0666 and its directories 0777 if the store did not set them. */
    private static void assertStoreIsPrivate() throws Exception {
        Path store = gridcache.home().resolve("pool/data");
        Tools.await("the fetch to be committed", Duration.ofSeconds(30)).until(() -> {
            try (var walk = Files.walk(store)) {
                return walk.anyMatch(p -> p.getFileName().toString().endsWith(".json"));
            }
        });
        List<Path> all;
        try (var walk = Files.walk(store)) {
            all = walk.toList();
        }
        for (Path p : all) {
            String mode = PosixFilePermissions.toString(Files.getPosixFilePermissions(p));
            assertEquals(Files.isDirectory(p) ? "rwx------" : "rw-------", mode, p.toString());
        }
    }
}
