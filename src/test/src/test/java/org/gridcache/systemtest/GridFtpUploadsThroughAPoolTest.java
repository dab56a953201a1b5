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
 * PUT through a pool to a GridFTP origin (issue 12 item 2): gridenv's globus-gridftp-server (GSI, Alice mapped to
 * {@code gridalice}), the distribution's zk, pool and door as HTTPS processes, curl with Alice's VOMS proxy and
 * {@code Expect: 100-continue -L}. The door redirects the PUT; the pool gets Alice's delegated credential from the
 * door and STORs the body as she arrives with it (jGlobus, one block in memory), then keeps its copy as a hit. A wrong
 * {@code Digest} and a client that breaks off leave no file at the origin (the partial file deleted with DELE).
 */
@Timeout(value = 10, unit = TimeUnit.MINUTES)
class GridFtpUploadsThroughAPoolTest {
    @TempDir
    static Path tmp;
    static Path pkiParent;
    static Path pki;
    static Path data;
    /** Writable by the server's account (gridalice). */
    static Path up;
    static GridEnv.GridFtpOrigin origin;
    static HttpsCluster cluster;
    static Gridcache pool;
    static String doorUrl;

    @BeforeAll
    static void start() throws Exception {
        Tools.require("curl", "openssl", "grid-proxy-init", "voms-proxy-fake", "globus-gridftp-server");
        pkiParent = GridEnv.worldReadableDir("gridcache-test-pki");
        pki = GridEnv.pki(pkiParent.resolve("pki"));
        data = GridEnv.worldReadableDir("gridcache-gridftp-uploads");
        Path atlas = Files.createDirectory(data.resolve("atlas"));
        GridEnv.makeReadable(atlas);
        up = Files.createDirectory(atlas.resolve("up"));
        Files.setPosixFilePermissions(up, PosixFilePermissions.fromString("rwxrwxrwx"));
        origin = GridEnv.GridFtpOrigin.start(pki, data);

        cluster = HttpsCluster.start(tmp, pki, "vo:atlas /atlas list,read,write\n", "atlas", "--prefix", "/atlas", "--url",
                origin.url("atlas"));
        pool = cluster.pool();
        doorUrl = cluster.doorUrl();
        GridEnv.delegated(pki, doorUrl, "alice-atlas");
    }

    @AfterAll
    static void stop() throws Exception {
        Tools.closeAll(origin, cluster);
        for (Path dir : new Path[] {data, pkiParent}) {
            if (dir != null) {
                Tools.run(Duration.ofMinutes(1), "rm", "-rf", dir.toString());
            }
        }
    }

    /** curl as Alice (her /atlas VOMS proxy) PUTting {@code file} with Expect: 100-continue, following the 307. */
    static Tools.Result putAsAlice(Path file, String path, String... more) {
        List<String> args = new ArrayList<>(List.of("-T", file.toString(), "-H", "Expect: 100-continue", "-L"));
        args.addAll(List.of(more));
        args.add(doorUrl + path);
        return GridEnv.curlAs(pki, "alice-atlas", args.toArray(String[]::new));
    }

    @Test
    void aliceUploadsThroughThePoolByteExactAtTheOriginAndReadsItBackAsAHit() throws Exception {
        Path file = Tools.randomFile(tmp.resolve("a.bin"), 5_000_000, 81);
        Tools.Result put = putAsAlice(file, "/atlas/up/a.bin");
        assertTrue(put.out().contains("HTTP/1.1 307"), put.out());
        assertEquals(201, GridEnv.lastStatus(put), put.out() + put.err());
        assertEquals(Tools.sha256(file), Tools.sha256(up.resolve("a.bin")), "byte-exact at the origin");
        assertTrue(pool.output().lines().anyMatch(l -> l.contains("PUT /atlas/up/a.bin by ") && l.contains("Alice")
                && l.contains(": 5000000 bytes, origin 201, kept as a hit")), pool.output());

        Path back = tmp.resolve("a.back");
        Tools.Result get = GridEnv.curlAs(pki, "alice-atlas", "-L", "-o", back.toString(), doorUrl + "/atlas/up/a.bin");
        assertEquals(200, GridEnv.lastStatus(get), get.out());
        assertTrue(get.out().contains("X-Cache: HIT"), "the pool kept the upload: " + get.out());
        assertEquals(Tools.sha256(file), Tools.sha256(back));

        Path second = Tools.randomFile(tmp.resolve("a2.bin"), 1_000_000, 82);
        Tools.Result again = putAsAlice(second, "/atlas/up/a.bin");
        assertEquals(204, GridEnv.lastStatus(again), "an existing file replaced: " + again.out());
        assertEquals(Tools.sha256(second), Tools.sha256(up.resolve("a.bin")));
    }

    @Test
    void aWrongDigestIs400AndLeavesNoFileAtTheOrigin() throws Exception {
        Path file = Tools.randomFile(tmp.resolve("bad.bin"), 2_000_000, 83);
        Tools.Result put = putAsAlice(file, "/atlas/up/bad.bin", "-H", "Digest: adler32=00000001");
        assertEquals(400, GridEnv.lastStatus(put), put.out());
        assertTrue(put.out().contains("checksum mismatch"), put.out());
        Tools.await("the partial file deleted at the origin", Duration.ofSeconds(60), () -> !Files.exists(up.resolve("bad.bin")));
    }

    @Test
    void aClientThatBreaksOffLeavesNoFileAtTheOrigin() throws Exception {
        Path file = Tools.randomFile(tmp.resolve("gone.bin"), 5_000_000, 84);
        String proxy = pki.resolve("proxies/alice-atlas.pem").toString();
        Process curl = new ProcessBuilder("curl", "-sS", "--max-time", "120", "--capath", pki.resolve("certificates").toString(),
                "--cert", proxy, "--key", proxy, "--limit-rate", "500K", "-T", file.toString(), "-H", "Expect: 100-continue",
                "-L", doorUrl + "/atlas/up/gone.bin")
                .redirectOutput(ProcessBuilder.Redirect.DISCARD).redirectError(ProcessBuilder.Redirect.DISCARD).start();
        try {
            Tools.await("part of the body at the origin", Duration.ofSeconds(60),
                    () -> Files.exists(up.resolve("gone.bin")) && up.resolve("gone.bin").toFile().length() > 0);
        } finally {
            curl.destroyForcibly().waitFor();
        }
        Tools.await("the partial file deleted at the origin", Duration.ofSeconds(60), () -> !Files.exists(up.resolve("gone.bin")));
        Tools.await("the pool's copy dropped", Duration.ofSeconds(30), () -> uploadsInTheStore() == 0);
        assertTrue(pool.output().contains("PUT /atlas/up/gone.bin: the client left after"), pool.output());
        assertFalse(Files.exists(up.resolve("gone.bin")));
    }

    private static long uploadsInTheStore() {
        try (Stream<Path> files = Files.walk(tmp.resolve("store"))) {
            return files.filter(p -> p.toString().endsWith(".upload")).count();
        } catch (IOException | java.io.UncheckedIOException e) {
            return -1; // a directory vanished under the walk: ask again
        }
    }
}
