package org.gridcache.systemtest;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Writes through the door to a real globus-gridftp-server origin (gridenv's, GSI, grid-mapfile: Alice is the local
 * account gridalice) as Alice, with her delegated VOMS proxy: curl's MKCOL, PUT (byte-exact in the server's
 * directory), MOVE, COPY (a third-party transfer from the server to itself), DELETE and the removal of the collection,
 * each checked on disk; the server's refusals (a directory gridalice cannot write, a non-empty collection) reach the
 * client with their status and the server's reason; an upload the client breaks off leaves no file. zk, the door
 * (HTTPS) and the server are started once for the class; no pool: nothing here is read through one. Each test
 * writes below a directory of its own.
 */
@Timeout(value = 10, unit = TimeUnit.MINUTES)
class GridFtpDoorWritesTest {
    static final String POLICY = """
            vo:atlas /atlas list,read,write
            vo:cms /atlas list,read,write
            """;
    @TempDir
    static Path tmp;
    static Path pkiParent;
    static Path pki;
    static Path data;
    /** The origin's directory behind /atlas, writable by gridalice. */
    static Path atlas;
    static GridEnv.GridFtpOrigin origin;
    static Gridcache zk;
    static Gridcache door;
    static String doorUrl;
    static int doorPort;

    @BeforeAll
    static void start() throws Exception {
        Tools.require("curl", "openssl", "grid-proxy-init", "voms-proxy-fake", "globus-gridftp-server");
        pkiParent = GridEnv.worldReadableDir("gridcache-test-pki");
        pki = GridEnv.pki(pkiParent.resolve("pki"));
        data = GridEnv.worldReadableDir("gridcache-gridftp-door-writes");
        atlas = writableDir(data.resolve("atlas"));
        Path readOnly = Files.createDirectory(atlas.resolve("readonly")); // this process's (root's): gridalice cannot write
        GridEnv.makeReadable(readOnly);
        origin = GridEnv.GridFtpOrigin.start(pki, data);

        int zkPort = Tools.freePort();
        String zkConnect = "127.0.0.1:" + zkPort;
        zk = Gridcache.start(tmp.resolve("zk.out"), "zk", "--home", tmp.resolve("zk").toString(), "--port", String.valueOf(zkPort))
                .awaitOutput("is up");
        Gridcache.admin("origins", "add", "atlas", "--prefix", "/atlas", "--url", origin.url("atlas"), "--zk", zkConnect).assertOk();
        Path policy = Files.writeString(tmp.resolve("authz.conf"), POLICY);
        Path conf = tmp.resolve("gridcache.properties");
        Files.writeString(conf, "zk=" + zkConnect
                + "\nhost-cert=" + pki.resolve("host/cert.pem") + "\nhost-key=" + pki.resolve("host/key.pem")
                + "\nca-dir=" + pki.resolve("certificates") + "\nvomsdir=" + pki.resolve("vomsdir") + "\n");
        doorPort = Tools.freePort();
        doorUrl = "https://localhost:" + doorPort;
        door = Gridcache.start(tmp.resolve("door.out"), "door", "--config", conf.toString(), "--log-dir", tmp.resolve("logs").toString(),
                "--port", String.valueOf(doorPort), "--public-url", doorUrl, "--authz", policy.toString()).awaitOutput("is up");
        GridEnv.delegated(pki, doorUrl, "alice-atlas");
    }

    /** A 1 MiB tmpfs inside the origin's directory, mounted by {@link #aFullOriginIsInsufficientStorageAndKeepsNoPart}. */
    static Path smallDisk;

    @AfterAll
    static void stop() throws Exception {
        if (smallDisk != null) {
            Tools.run(Duration.ofMinutes(1), "umount", smallDisk.toString());
        }
        Tools.closeAll(origin, zk, door);
        for (Path dir : new Path[] {data, pkiParent}) {
            if (dir != null) {
                Tools.run(Duration.ofMinutes(1), "rm", "-rf", dir.toString());
            }
        }
    }

    static Path writableDir(Path dir) throws IOException {
        Files.createDirectory(dir);
        Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwxrwxrwx"));
        return dir;
    }

    /** curl as Alice (her atlas VOMS proxy) at the door: the head (-D-), and the body. */
    /**
     * curl as Alice, without {@code Expect: 100-continue} (curl sends it with a body): these are the door's own GridFTP
     * writes, and the door would redirect such a PUT to a pool (GridFtpUploadsThroughAPoolTest).
     */
    static Tools.Result curl(String... args) {
        List<String> all = new ArrayList<>(List.of("-H", "Expect:"));
        all.addAll(List.of(args));
        return GridEnv.curlAs(pki, "alice-atlas", all.toArray(String[]::new));
    }

    static int status(Tools.Result r) {
        return GridEnv.lastStatus(r);
    }

    @Test
    void curlMakesPutsMovesCopiesAndDeletesAtTheOriginAsAlice() throws Exception {
        Path dir = atlas.resolve("flow");
        assertEquals(201, status(curl("-X", "MKCOL", doorUrl + "/atlas/flow/")));
        assertTrue(Files.isDirectory(dir));
        Path file = Tools.randomFile(tmp.resolve("up.bin"), 3_000_001, 71);
        assertEquals(201, status(curl("-T", file.toString(), doorUrl + "/atlas/flow/up.bin")));
        assertEquals(Tools.sha256(file), Tools.sha256(dir.resolve("up.bin")), "byte-exact at the origin");
        Path smaller = Tools.randomFile(tmp.resolve("smaller.bin"), 1000, 72);
        assertEquals(204, status(curl("-T", smaller.toString(), doorUrl + "/atlas/flow/up.bin")), "replaced");
        assertEquals(Tools.sha256(smaller), Tools.sha256(dir.resolve("up.bin")));

        Tools.Result move = curl("-X", "MOVE", "-H", "Destination: " + doorUrl + "/atlas/flow/moved.bin", doorUrl + "/atlas/flow/up.bin");
        assertEquals(201, status(move), move.out());
        assertFalse(Files.exists(dir.resolve("up.bin")));
        assertEquals(Tools.sha256(smaller), Tools.sha256(dir.resolve("moved.bin")));
        Tools.Result copy = curl("-X", "COPY", "-H", "Destination: " + doorUrl + "/atlas/flow/copied.bin", doorUrl + "/atlas/flow/moved.bin");
        assertEquals(201, status(copy), copy.out());
        assertEquals(Tools.sha256(smaller), Tools.sha256(dir.resolve("copied.bin")), "a server-side copy");
        assertEquals(Tools.sha256(smaller), Tools.sha256(dir.resolve("moved.bin")));
        Tools.Result kept = curl("-X", "MOVE", "-H", "Overwrite: F", "-H", "Destination: " + doorUrl + "/atlas/flow/copied.bin",
                doorUrl + "/atlas/flow/moved.bin");
        assertEquals(412, status(kept), kept.out());
        assertTrue(Files.exists(dir.resolve("moved.bin")));
        Tools.Result listing = curl("-X", "PROPFIND", "-H", "Depth: 1", doorUrl + "/atlas/flow/");
        assertTrue(listing.out().contains("moved.bin") && listing.out().contains("copied.bin"), "shown at once: " + listing.out());

        Tools.Result notEmpty = curl("-X", "DELETE", doorUrl + "/atlas/flow/");
        assertEquals(409, status(notEmpty), "RMD of a non-empty directory: " + notEmpty.out());
        assertTrue(notEmpty.out().contains("conflict at origin atlas"), notEmpty.out());
        assertTrue(Files.exists(dir.resolve("moved.bin")));
        assertEquals(204, status(curl("-X", "DELETE", doorUrl + "/atlas/flow/moved.bin")));
        assertEquals(204, status(curl("-X", "DELETE", doorUrl + "/atlas/flow/copied.bin")));
        assertFalse(Files.exists(dir.resolve("moved.bin")));
        assertEquals(204, status(curl("-X", "DELETE", doorUrl + "/atlas/flow/")));
        assertFalse(Files.exists(dir));
        assertEquals(404, status(curl("-X", "DELETE", doorUrl + "/atlas/flow/")));
    }

    @Test
    void theServersRefusalReachesTheClientWithItsReason() throws Exception {
        Path file = Tools.randomFile(tmp.resolve("refused.bin"), 10_000, 73);
        Tools.Result put = curl("-T", file.toString(), doorUrl + "/atlas/readonly/refused.bin");
        assertEquals(403, status(put), put.out());
        assertTrue(put.out().contains("the origin refuses " + GridClientsTest.ALICE_DN + " access to /atlas/readonly/refused.bin"),
                put.out());
        assertTrue(put.out().toLowerCase().contains("permission denied"), "the server's reason: " + put.out());
        Tools.Result mkcol = curl("-X", "MKCOL", doorUrl + "/atlas/readonly/d");
        assertEquals(403, status(mkcol), mkcol.out());
        assertEquals(405, status(curl("-X", "MKCOL", doorUrl + "/atlas/readonly")), "exists already");
        assertEquals(409, status(curl("-T", file.toString(), doorUrl + "/atlas/nonesuch/x.bin")), "no parent collection");
        Tools.Result chunked = curl("-T", file.toString(), "-H", "Transfer-Encoding: chunked", doorUrl + "/atlas/chunked.bin");
        assertEquals(411, status(chunked), "STOR needs the length first: " + chunked.out());
        assertFalse(Files.exists(atlas.resolve("chunked.bin")));
        try (Stream<Path> s = Files.list(atlas.resolve("readonly"))) {
            assertEquals(0, s.count());
        }
    }

    @Test
    void aCopyOntoAFileWithOverwriteFIs412AndACollectionIsNotCopied() throws Exception {
        Path dir = writableDir(atlas.resolve("copies"));
        Files.writeString(dir.resolve("a"), "a");
        Files.writeString(dir.resolve("b"), "b");
        Files.createDirectory(dir.resolve("sub"));
        Tools.Result kept = curl("-X", "COPY", "-H", "Overwrite: F", "-H", "Destination: " + doorUrl + "/atlas/copies/b",
                doorUrl + "/atlas/copies/a");
        assertEquals(412, status(kept), kept.out());
        assertEquals("b", Files.readString(dir.resolve("b")));
        // unreadable to the server's account: the server refuses to send it, and the destination stays as it was
        Files.writeString(dir.resolve("secret"), "s");
        Files.setPosixFilePermissions(dir.resolve("secret"), PosixFilePermissions.fromString("rw-------"));
        Tools.Result refused = curl("-X", "COPY", "-H", "Destination: " + doorUrl + "/atlas/copies/b", doorUrl + "/atlas/copies/secret");
        assertEquals(403, status(refused), refused.out());
        assertTrue(refused.out().contains("Permission denied"), "the server's reason: " + refused.out());
        assertEquals("b", Files.readString(dir.resolve("b")), "a refused copy leaves the destination as it was");
        try (Stream<Path> s = Files.list(dir)) {
            assertEquals(List.of("a", "b", "secret", "sub"), s.map(p -> p.getFileName().toString()).sorted().toList(),
                    "no temporary file left");
        }
        // b is root's and 0644, in a directory anyone writes: the complete copy replaces the entry (rename)
        Tools.Result replaced = curl("-X", "COPY", "-H", "Destination: " + doorUrl + "/atlas/copies/b", doorUrl + "/atlas/copies/a");
        assertEquals(204, status(replaced), replaced.out());
        assertEquals("a", Files.readString(dir.resolve("b")));
        Tools.Result collection = curl("-X", "COPY", "-H", "Destination: " + doorUrl + "/atlas/copies/sub2/", doorUrl + "/atlas/copies/sub/");
        assertEquals(502, status(collection), collection.out());
        assertTrue(collection.out().contains("GridFTP copies files only"), collection.out());
        assertFalse(Files.exists(dir.resolve("sub2")));
    }

    @Test
    void aFullOriginIsInsufficientStorageAndKeepsNoPart() throws Exception {
        Path dir = Files.createDirectory(atlas.resolve("small"));
        Tools.Result mounted = Tools.run(Duration.ofMinutes(1), "mount", "-t", "tmpfs", "-o", "size=1m,mode=1777", "tmpfs", dir.toString());
        assertEquals(0, mounted.exit(), "SYSTEM TEST NEEDS ROOT TO MOUNT A SMALL TMPFS: " + mounted.err());
        smallDisk = dir;
        Path big = Tools.randomFile(tmp.resolve("big.bin"), 4_000_000, 75);
        Tools.Result put = curl("-T", big.toString(), doorUrl + "/atlas/small/big.bin");
        assertEquals(507, status(put), put.out());
        assertTrue(put.out().contains("origin atlas is out of space"), put.out());
        try (Stream<Path> s = Files.list(dir)) {
            assertEquals(0, s.count(), "the partial file is deleted");
        }
    }

    @Test
    void anUploadTheClientBreaksOffLeavesNoFileAtTheOriginAndKeepsTheOldOne() throws Exception {
        Path dir = writableDir(atlas.resolve("broken"));
        Files.writeString(dir.resolve("kept.bin"), "old");
        Tools.Result cut = curl("--max-time", "5", "-X", "PUT", "-H", "Content-Length: 1000000", "--data-binary",
                "@" + Tools.randomFile(tmp.resolve("cut.bin"), 100_000, 76), doorUrl + "/atlas/broken/kept.bin");
        assertTrue(cut.exit() != 0, "curl gave up: " + cut.out());
        Tools.await("the partial upload deleted", Duration.ofSeconds(60)).until(() -> {
            try (Stream<Path> s = Files.list(dir)) {
                return s.count() == 1;
            }
        });
        assertEquals("old", Files.readString(dir.resolve("kept.bin")), "the file that was there is kept");
        Files.delete(dir.resolve("kept.bin"));
        Path part = Tools.randomFile(tmp.resolve("part.bin"), 100_000, 74);
        // announces a million bytes, sends 100,000 and gives up waiting: the door's read of the body fails
        Tools.Result r = curl("--max-time", "5", "-X", "PUT", "-H", "Content-Length: 1000000", "--data-binary", "@" + part,
                doorUrl + "/atlas/broken/part.bin");
        assertTrue(r.exit() != 0, "curl gave up: " + r.out());
        Tools.await("the partial file deleted", Duration.ofSeconds(60)).until(() -> {
            try (Stream<Path> s = Files.list(dir)) {
                return s.findAny().isEmpty();
            }
        });
        Tools.await("the door's log of the broken-off upload", Duration.ofSeconds(30)).until(() -> Tools.readLog(
                tmp.resolve("logs/door-" + doorPort + ".log")).contains("-> 400 the client broke off the upload of /atlas/broken/part.bin"));
    }

    @Test
    void aWriteWithoutADelegationIsAskedToDelegateFirst() {
        // Alice's cms session: the policy lets it write, but she delegated only her atlas proxy
        Tools.Result r = GridEnv.curlAs(pki, "alice-cms", "-X", "MKCOL", doorUrl + "/atlas/cms/");
        assertEquals(401, status(r), r.out());
        assertTrue(r.out().contains("X-Delegate-To: " + doorUrl + "/.gridcache/delegation"), r.out());
        assertFalse(Files.exists(atlas.resolve("cms")));
    }
}
