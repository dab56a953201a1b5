package org.gridcache.cli.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class PreStartChecksTest {
    @TempDir
    Path dir;

    /** A self-signed certificate and its key, as openssl makes them (the CA directory's layout is openssl's too). */
    private Path certificate(String name) throws Exception {
        Path d = Files.createDirectories(dir.resolve(name));
        run("openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2", "-subj", "/O=Test/CN=" + name,
                "-keyout", d.resolve("key.pem").toString(), "-out", d.resolve("cert.pem").toString());
        return d;
    }

    private static void run(String... command) throws Exception {
        Process p = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
        assertTrue(p.waitFor(60, TimeUnit.SECONDS) && p.exitValue() == 0, String.join(" ", command));
    }

    @Test
    void aCertificateMatchesItsOwnKeyOnly() throws Exception {
        Path a = certificate("a");
        Path b = certificate("b");
        PreStartChecks.Verdict good = PreStartChecks.credential(a.resolve("cert.pem"), a.resolve("key.pem"));
        assertTrue(good.ok(), good.toString());
        assertTrue(good.toString().startsWith("ok    host certificate " + a.resolve("cert.pem") + ": CN=a,O=Test, valid until "), good.toString());
        PreStartChecks.Verdict crossed = PreStartChecks.credential(a.resolve("cert.pem"), b.resolve("key.pem"));
        assertEquals("FAIL  host certificate " + a.resolve("cert.pem") + ": cannot load credential " + a.resolve("cert.pem")
                + ": Provided private key is not matching the certificate", crossed.toString());
        assertFalse(PreStartChecks.credential(dir.resolve("none.pem"), a.resolve("key.pem")).ok());
    }

    @Test
    void theCaDirectoryMustBeHashed() throws Exception {
        Path ca = certificate("ca");
        Path certificates = Files.createDirectories(dir.resolve("certificates"));
        assertEquals("FAIL  CA directory " + certificates + ": no <hash>.0 CA certificate (run openssl rehash)",
                PreStartChecks.caDirectory(certificates).toString());
        Files.copy(ca.resolve("cert.pem"), certificates.resolve("00000000.0"));
        assertFalse(PreStartChecks.caDirectory(certificates).ok());
        Files.delete(certificates.resolve("00000000.0"));
        Files.copy(ca.resolve("cert.pem"), certificates.resolve("ca.pem"));
        run("openssl", "rehash", certificates.toString());
        assertEquals("ok    CA directory " + certificates + ": 1 hashed CA certificate", PreStartChecks.caDirectory(certificates).toString());
        assertFalse(PreStartChecks.caDirectory(dir.resolve("nowhere")).ok());
    }

    @Test
    void aPortInUseFails() throws IOException {
        try (ServerSocket taken = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            assertFalse(PreStartChecks.port("port", "127.0.0.1", taken.getLocalPort()).ok());
            assertTrue(PreStartChecks.zooKeeper("127.0.0.1:" + taken.getLocalPort()).ok());
        }
        try (ServerSocket free = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            int port = free.getLocalPort();
            free.close();
            assertTrue(PreStartChecks.port("port", "127.0.0.1", port).ok());
            assertEquals("FAIL  ZooKeeper 127.0.0.1:" + port + ": 0 of 1 reachable; not 127.0.0.1:" + port + " (Connection refused)",
                    PreStartChecks.zooKeeper("127.0.0.1:" + port).toString());
        }
    }

    @Test
    void aDirectoryIsWritableOrCreatedInAWritableOne() throws IOException {
        assertEquals("ok    store " + dir + ": writable", PreStartChecks.writable("store", dir).toString());
        assertEquals("ok    store " + dir.resolve("a/b") + ": will be created in " + dir,
                PreStartChecks.writable("store", dir.resolve("a/b")).toString());
        Path file = Files.writeString(dir.resolve("f"), "");
        assertFalse(PreStartChecks.writable("store", file.resolve("x")).ok());
    }
}
