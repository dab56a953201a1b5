package org.gridcache.systemtest;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A pool killed with SIGKILL while it fetches a file and takes an upload, and started again on the same store
 * (issue 15, R4): the fetch's part file and the upload's copy are gone, the index holds exactly the complete files on
 * disk, they are hits byte-exact, and a file damaged while the pool was down is fetched anew rather than served. The
 * parts run as separate processes ({@code zk}, {@code door}, {@code pool}), so only the pool restarts.
 */
@Timeout(value = 5, unit = TimeUnit.MINUTES)
class PoolRestartTest {
    /** Small files filled through the pool before the kill: enough that the index is more than a handful. */
    static final int FILES = 1500;
    @TempDir
    static Path tmp;
    static NginxOrigin origin;
    static PoolProcesses cluster;
    static Path data;

    @BeforeAll
    static void start() throws Exception {
        Tools.require("curl", "nginx");
        data = Files.createDirectories(tmp.resolve("data"));
        for (int i = 0; i < FILES; i++) {
            Tools.randomFile(data.resolve("many/f" + i + ".bin"), 1000 + i, i);
        }
        Tools.randomFile(data.resolve("slow/big.bin"), 16 << 20, 7);
        Files.createDirectories(data.resolve("up"));
        origin = NginxOrigin.startWritable(tmp.resolve("nginx"), data, PoolProcesses.SLOW_LOCATION);
        cluster = PoolProcesses.start(tmp, origin, tmp.resolve("store"), "1G", List.of());
    }

    @AfterAll
    static void stop() throws Exception {
        Tools.closeAll(origin, cluster);
    }

    @Test
    void aPoolKilledMidFetchAndMidUploadRestartsWithOnlyProvenFilesAndServesThemAsHits() throws Exception {
        List<String> paths = java.util.stream.IntStream.range(0, FILES).mapToObj(i -> "/many/f" + i + ".bin").toList();
        assertEquals(FILES, cluster.readAll(paths), "every small file read through the pool");
        // a commit (fsync, sidecar, rename) follows the last byte to the client; a kill before it loses only that copy
        Tools.await("every small file committed", Duration.ofSeconds(120), () -> cluster.metric("gridcache_pool_files") == FILES);

        Process fetch = new ProcessBuilder("curl", "-sS", "-L", "-o", tmp.resolve("big.partial").toString(),
                cluster.door() + "/slow/big.bin").redirectErrorStream(true).start();
        Path upload = Tools.randomFile(tmp.resolve("upload.bin"), 16 << 20, 8);
        Process put = new ProcessBuilder("curl", "-sS", "-L", "--limit-rate", "1M", "-H", "Expect: 100-continue", "-T",
                upload.toString(), cluster.door() + "/up/new.bin").redirectErrorStream(true).start();
        Tools.await("a fetch and an upload under way in the store", Duration.ofSeconds(60), () ->
                cluster.storeFiles(n -> n.endsWith(".part")).size() == 1 && cluster.storeFiles(n -> n.endsWith(".upload")).size() == 1);

        cluster.killPool();
        assertTrue(fetch.waitFor(60, TimeUnit.SECONDS) && put.waitFor(60, TimeUnit.SECONDS));
        assertNotEquals(0, fetch.exitValue(), "the reader sees the fetch break off, never a short file that looks complete");
        assertNotEquals(0, put.exitValue(), "the writer sees the upload break off");
        assertFalse(Files.exists(data.resolve("up/new.bin")), "nginx keeps no part of an upload broken off");

        // damaged while the pool is down: its sidecar no longer proves it
        Path damaged = cluster.dataFileOf("/many/f5.bin");
        try (FileChannel ch = FileChannel.open(damaged, StandardOpenOption.WRITE)) {
            ch.truncate(100);
        }
        long onDisk = cluster.storeFiles(PoolProcesses::isDataFile).size();

        String log = cluster.restartPool();
        Matcher ready = Pattern.compile("index ready in (\\d+) ms: (\\d+) files").matcher(log);
        assertTrue(ready.find(), log);
        assertEquals(onDisk, Long.parseLong(ready.group(2)), "every data file with a sidecar enters the index");
        assertEquals(List.of(), cluster.storeFiles(n -> n.endsWith(".part") || n.endsWith(".upload") || n.endsWith(".tmp")),
                "part files, upload copies and temporary files are dropped");

        for (int i = 0; i < FILES; i += 50) {
            String path = "/many/f" + i + ".bin";
            cluster.assertRead(path, data.resolve(path.substring(1)), "HIT");
            assertEquals(1, origin.count("GET", path), path + " was fetched once, before the restart");
        }
        cluster.assertRead("/many/f5.bin", data.resolve("many/f5.bin"), "MISS"); // unproven: never served
        assertEquals(2, origin.count("GET", "/many/f5.bin"), "the damaged copy was fetched anew");
        // its commit follows the last byte to the client: a read before it joins the fill (MISS, collapsed)
        Tools.await("/many/f5.bin committed anew", Duration.ofSeconds(60), () -> cluster.isIndexed("/many/f5.bin"));
        cluster.assertRead("/many/f5.bin", data.resolve("many/f5.bin"), "HIT");
        cluster.assertRead("/slow/big.bin", data.resolve("slow/big.bin"), "MISS");

        Tools.await("the verifier to prove every file found at start-up", Duration.ofSeconds(60),
                () -> cluster.metric("gridcache_pool_unverified_files") == 0);
        // big.bin's commit (fsync, sidecar, rename) follows its last byte to the client, as the small files' did before
        // the kill: counted before it, the disk may still hold a part file where the index a moment later holds big.bin
        Tools.await("the small files and big.bin committed", Duration.ofSeconds(120),
                () -> cluster.metric("gridcache_pool_files") == FILES + 1);
        assertEquals(cluster.storeFiles(PoolProcesses::isDataFile).size(), (long) cluster.metric("gridcache_pool_files"),
                "the index counts exactly the data files on disk");
        assertEquals(List.of(), cluster.storeFiles(n -> n.endsWith(".part") || n.endsWith(".upload") || n.endsWith(".tmp")),
                "no part file, upload copy or temporary file left once nothing is in flight");
    }
}
