package org.gridcache.systemtest;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import eu.emi.security.authn.x509.X509Credential;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.MessageDigest;
import java.time.Duration;
import java.util.HexFormat;
import java.util.Random;
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

/**
 * The GridFTP client's writes (STOR, MKD, DELE, RMD, RNFR/RNTO, third-party copy) against a real globus-gridftp-server (gridenv's, GSI,
 * DCAU with protected data channels) as Alice, each result checked in the server's data directory on disk, and each
 * refusal with its status. The door's use of them is another test's. The PKI and the server are started once for the
 * class; each test works in a directory of its own.
 */
@Timeout(value = 2, unit = TimeUnit.MINUTES)
class GridFtpWritesTest {
    static Path pkiParent;
    static Path pki;
    static Path data;
    /** Writable by the server's account (gridalice). */
    static Path writable;
    /** Owned by root, not writable by the server's account. */
    static Path readOnly;
    static GridEnv.GridFtpOrigin origin;
    static X509Credential alice;
    static final GridFtpOptions OPTIONS = new GridFtpOptions(1, true, GridFtpOptions.Protection.SAFE, Duration.ofSeconds(30));

    @BeforeAll
    static void start() throws Exception {
        Tools.require("openssl", "grid-proxy-init", "voms-proxy-fake", "globus-gridftp-server");
        pkiParent = GridEnv.worldReadableDir("gridcache-test-pki");
        pki = GridEnv.pki(pkiParent.resolve("pki"));
        data = GridEnv.worldReadableDir("gridcache-gridftp-writes");
        writable = Files.createDirectory(data.resolve("w"));
        Files.setPosixFilePermissions(writable, PosixFilePermissions.fromString("rwxrwxrwx"));
        readOnly = Files.createDirectory(data.resolve("ro"));
        GridEnv.makeReadable(readOnly);
        origin = GridEnv.GridFtpOrigin.start(pki, data);
        GridFtp.configure(pki.resolve("certificates"));
        alice = GridCredentials.loadProxy(pki.resolve("proxies/alice.pem"));
    }

    /** A 1 MiB tmpfs inside the server's data directory, mounted by {@link #aFullDiskIsInsufficientStorage}. */
    static Path smallDisk;

    @AfterAll
    static void stop() throws Exception {
        if (smallDisk != null) {
            Tools.run(Duration.ofMinutes(1), "umount", smallDisk.toString());
        }
        Tools.closeAll(origin);
    }

    static GridFtpConnection connect() throws GridFtpException {
        return GridFtpConnection.open("localhost", origin.port(), alice.getKey(), alice.getCertificateChain(), OPTIONS);
    }

    static String remote(Path local) {
        return local.toAbsolutePath().toString();
    }

    static Path testDir(String name) throws IOException {
        Path dir = Files.createDirectory(writable.resolve(name));
        Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwxrwxrwx"));
        return dir;
    }

    @Test
    void aStoredFileIsByteExactOnDisk() throws Exception {
        Path dir = testDir("exact");
        Path source = Tools.randomFile(pkiParent.resolve("exact.bin"), 3_000_001, 61);
        try (GridFtpConnection c = connect(); InputStream in = Files.newInputStream(source)) {
            c.store(remote(dir.resolve("exact.bin")), in, Files.size(source));
            c.store(remote(dir.resolve("empty.bin")), InputStream.nullInputStream(), 0);
        }
        assertEquals(-1, Files.mismatch(source, dir.resolve("exact.bin")));
        assertEquals(0, Files.size(dir.resolve("empty.bin")));
    }

    @Test
    void aLargeStoreStreamsFromAGeneratedSource() throws Exception {
        Path dir = testDir("large");
        long size = 300L << 20;
        GeneratedStream in = new GeneratedStream(size, 62);
        try (GridFtpConnection c = connect()) {
            c.store(remote(dir.resolve("large.bin")), in, size);
        }
        assertEquals(size, Files.size(dir.resolve("large.bin")));
        assertEquals(in.sha256(), Tools.sha256(dir.resolve("large.bin")));
    }

    @Test
    void aStreamThatFailsHalfwayLeavesNoFile() throws Exception {
        Path dir = testDir("broken");
        GridFtpException e = assertThrows(GridFtpException.class, () -> storeOnce(dir.resolve("cut.bin"),
                new GeneratedStream(3_000_000, 63).failingAfter(1_000_000, new IOException("client went away")), 3_000_000));
        assertEquals(502, e.httpStatus());
        assertTrue(e.getMessage().contains("abandoned") && e.getMessage().contains("client went away"), e.getMessage());
        assertFalse(Files.exists(dir.resolve("cut.bin")), "the partial file is deleted");

        GridFtpException early = assertThrows(GridFtpException.class, () -> storeOnce(dir.resolve("short.bin"),
                new GeneratedStream(1_000_000, 64), 3_000_000));
        assertTrue(early.getMessage().contains("ended after 1000000 of 3000000 bytes"), early.getMessage());
        assertFalse(Files.exists(dir.resolve("short.bin")));

        GridFtpException longer = assertThrows(GridFtpException.class, () -> storeOnce(dir.resolve("long.bin"),
                new GeneratedStream(2_000_000, 65), 1_000_000));
        assertTrue(longer.getMessage().contains("more than the announced 1000000 bytes"), longer.getMessage());
        assertFalse(Files.exists(dir.resolve("long.bin")));
        try (var left = Files.list(dir)) {
            assertEquals(0, left.count());
        }
    }

    @Test
    void anUploadThatStallsIsGivenUpAndLeavesNoFile() throws Exception {
        Path dir = testDir("stalled");
        GridFtpOptions impatient = new GridFtpOptions(1, true, GridFtpOptions.Protection.SAFE, Duration.ofSeconds(2));
        java.util.concurrent.CountDownLatch resume = new java.util.concurrent.CountDownLatch(1);
        InputStream stalling = new java.io.SequenceInputStream(new GeneratedStream(1_000_000, 73), new InputStream() {
            @Override
            public int read() throws IOException {
                try {
                    resume.await(); // a client that stops sending without going away
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
                throw new IOException("the client's idle timeout");
            }
        });
        try (GridFtpConnection c = GridFtpConnection.open("localhost", origin.port(), alice.getKey(), alice.getCertificateChain(), impatient)) {
            GridFtpException e = assertThrows(GridFtpException.class, () -> c.store(remote(dir.resolve("stalled.bin")), stalling, 3_000_000));
            assertEquals(502, e.httpStatus());
            assertTrue(e.getMessage().contains("moved no data for 2 s (gridftp.timeout)"), e.getMessage());
        } finally {
            resume.countDown();
        }
        assertFalse(Files.exists(dir.resolve("stalled.bin")), "the partial file is deleted over a new connection");
    }

    @Test
    void aFailedStoreClosesTheConnection() throws Exception {
        Path dir = testDir("closed");
        try (GridFtpConnection c = connect()) {
            assertTrue(c.alive());
            assertThrows(GridFtpException.class, () -> c.store(remote(dir.resolve("f.bin")),
                    new GeneratedStream(500_000, 70).failingAfter(200_000, new IOException("gone")), 500_000));
            assertFalse(c.alive(), "jGlobus cannot start another transfer on it: closed");
        }
    }

    /** A store on a connection of its own (a failed store closes its connection). */
    static void storeOnce(Path file, InputStream in, long length) throws Exception {
        try (GridFtpConnection c = connect()) {
            c.store(remote(file), in, length);
        }
    }

    @Test
    void directoriesAreMadeRenamedAndRemoved() throws Exception {
        Path dir = testDir("ops");
        try (GridFtpConnection c = connect()) {
            c.mkdir(remote(dir.resolve("d")));
            assertTrue(Files.isDirectory(dir.resolve("d")));
            c.store(remote(dir.resolve("d/f.bin")), new GeneratedStream(10_000, 67), 10_000);
            c.rename(remote(dir.resolve("d/f.bin")), remote(dir.resolve("d/g.bin")));
            assertFalse(Files.exists(dir.resolve("d/f.bin")));
            assertEquals(10_000, Files.size(dir.resolve("d/g.bin")));
            c.rename(remote(dir.resolve("d")), remote(dir.resolve("e")));
            assertTrue(Files.isRegularFile(dir.resolve("e/g.bin")));
            c.delete(remote(dir.resolve("e/g.bin")));
            assertFalse(Files.exists(dir.resolve("e/g.bin")));
            c.rmdir(remote(dir.resolve("e")));
            assertFalse(Files.exists(dir.resolve("e")));
        }
    }

    @Test
    void aCopyWithinOneServerGoesFromServerToServer() throws Exception {
        Path dir = testDir("copy");
        Path source = Tools.randomFile(dir.resolve("source.bin"), 5_000_000, 72);
        GridEnv.makeReadable(source);
        try (GridFtpConnection from = connect(); GridFtpConnection to = connect()) {
            from.copyTo(remote(source), to, remote(dir.resolve("copy.bin")));
            assertTrue(from.alive() && to.alive());
        }
        assertEquals(-1, Files.mismatch(source, dir.resolve("copy.bin")));
        try (GridFtpConnection from = connect(); GridFtpConnection to = connect()) {
            assertStatus(404, "copy of a missing file", () -> from.copyTo(remote(dir.resolve("missing.bin")), to, remote(dir.resolve("x.bin"))));
        }
        assertFalse(Files.exists(dir.resolve("x.bin")));
        try (GridFtpConnection from = connect(); GridFtpConnection to = connect()) {
            assertStatus(403, "copy to where the server's account may not write", () -> from.copyTo(remote(source), to,
                    remote(readOnly.resolve("x.bin"))));
        }
    }

    @Test
    void refusalsCarryTheirStatus() throws Exception {
        Path dir = testDir("refusals");
        Files.createDirectories(dir.resolve("full/sub"));
        Files.writeString(dir.resolve("file.txt"), "x");
        try (GridFtpConnection c = connect()) {
            assertStatus(404, "missing parent", () -> c.mkdir(remote(dir.resolve("missing/d"))));
            assertStatus(404, "delete a missing file", () -> c.delete(remote(dir.resolve("nothing.bin"))));
            assertStatus(404, "rename a missing file", () -> c.rename(remote(dir.resolve("nothing.bin")), remote(dir.resolve("x.bin"))));
            assertStatus(409, "rmdir a directory not empty", () -> c.rmdir(remote(dir.resolve("full"))));
            assertStatus(412, "mkdir where a directory exists", () -> c.mkdir(remote(dir.resolve("full"))));
            assertStatus(403, "mkdir where the server's account may not write", () -> c.mkdir(remote(readOnly.resolve("d"))));
            // outside its root the server answers "Path not allowed": 404, as for reads (what is outside is not shown)
            assertStatus(404, "a path outside the server's root", () -> c.mkdir("/etc/gridcache-test"));
            // the connection still answers after refusals
            c.mkdir(remote(dir.resolve("fine")));
        }
        // a refused store closes its connection, as every failed store
        assertStatus(404, "store below a missing parent", () -> storeOnce(dir.resolve("missing/f.bin"), new GeneratedStream(10, 68), 10));
        assertStatus(403, "store where the server's account may not write", () -> storeOnce(readOnly.resolve("f.bin"),
                new GeneratedStream(10, 69), 10));
        assertTrue(Files.isDirectory(dir.resolve("full/sub")), "a refused rmdir leaves the directory");
        assertFalse(Files.exists(readOnly.resolve("d")));
        assertFalse(Files.exists(readOnly.resolve("f.bin")));
    }

    @Test
    void aFullDiskIsInsufficientStorage() throws Exception {
        Path dir = testDir("full-disk");
        Tools.require("mount", "umount");
        Tools.Result mounted = Tools.run(Duration.ofMinutes(1), "mount", "-t", "tmpfs", "-o", "size=1m,mode=1777", "tmpfs", dir.toString());
        if (mounted.exit() != 0) {
            String message = "SYSTEM TEST NEEDS ROOT TO MOUNT A SMALL TMPFS: " + mounted.err().strip();
            System.err.println("!!! " + message);
            org.junit.jupiter.api.Assertions.assertNotEquals("true", System.getenv("CI"), message);
            org.junit.jupiter.api.Assumptions.abort(message);
        }
        smallDisk = dir;
        assertStatus(507, "a store larger than the disk", () -> storeOnce(dir.resolve("big.bin"), new GeneratedStream(4_000_000, 71), 4_000_000));
        assertFalse(Files.exists(dir.resolve("big.bin")), "the partial file is deleted");
    }

    interface Operation {
        void run() throws Exception;
    }

    static void assertStatus(int status, String what, Operation op) {
        GridFtpException e = assertThrows(GridFtpException.class, op::run, what);
        System.out.println("[GridFtpWritesTest] " + what + ": " + e.httpStatus() + " " + e.getMessage());
        assertEquals(status, e.httpStatus(), () -> what + ": " + e.getMessage());
        assertFalse(e.getMessage().contains("\n"), "one line: " + e.getMessage());
    }

    /** {@code size} pseudo-random bytes made as they are read (never held whole), with their SHA-256. */
    static final class GeneratedStream extends InputStream {
        private final long size;
        private final Random random;
        private final MessageDigest sha;
        private final byte[] block = new byte[1 << 16];
        private int blockPos = block.length;
        private long position;
        private long failAt = -1;
        private IOException failure;

        GeneratedStream(long size, long seed) throws Exception {
            this.size = size;
            this.random = new Random(seed);
            this.sha = MessageDigest.getInstance("SHA-256");
        }

        GeneratedStream failingAfter(long bytes, IOException e) {
            failAt = bytes;
            failure = e;
            return this;
        }

        @Override
        public int read() throws IOException {
            byte[] one = new byte[1];
            return read(one, 0, 1) < 0 ? -1 : one[0] & 0xff;
        }

        @Override
        public int read(byte[] b, int off, int len) throws IOException {
            if (failAt >= 0 && position >= failAt) {
                throw failure;
            }
            if (position >= size) {
                return -1;
            }
            if (blockPos == block.length) {
                random.nextBytes(block);
                blockPos = 0;
            }
            long limit = failAt >= 0 ? Math.min(size, failAt) : size;
            int n = (int) Math.min(Math.min(len, block.length - blockPos), limit - position);
            System.arraycopy(block, blockPos, b, off, n);
            sha.update(block, blockPos, n);
            blockPos += n;
            position += n;
            return n;
        }

        String sha256() {
            return HexFormat.of().formatHex(sha.digest());
        }
    }
}
