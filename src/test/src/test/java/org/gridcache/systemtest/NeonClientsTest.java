package org.gridcache.systemtest;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Clients built on neon never follow a 302 (notes/clients.md): cadaver and a real davfs2 kernel mount must list and
 * read through the door, which recognises their User-Agent and streams the data itself.
 */
@Timeout(value = 5, unit = TimeUnit.MINUTES)
class NeonClientsTest {
    @TempDir
    static Path tmp;
    static NginxOrigin origin;
    static Standalone gridcache;
    static String door;
    static Path data;

    @BeforeAll
    static void start() throws Exception {
        Tools.require("curl", "nginx");
        data = Files.createDirectories(tmp.resolve("data"));
        Tools.randomFile(data.resolve("big.bin"), 3 << 20, 31);
        Files.writeString(data.resolve("note.txt"), "read through a neon client\n");
        Files.createDirectories(data.resolve("folder"));
        origin = NginxOrigin.start(tmp.resolve("nginx"), data);
        gridcache = Standalone.start(tmp, origin.url());
        door = gridcache.door();
    }

    @AfterAll
    static void stop() throws Exception {
        Tools.closeAll(origin, gridcache);
    }

    @Test
    void cadaverListsAndGetsThroughTheDoor() throws Exception {
        Tools.require("cadaver");
        Path got = tmp.resolve("cadaver-big.bin");
        // cadaver reads its commands from stdin and always exits 0: judge it by its output and the file it wrote
        Tools.Result r = Tools.runWithInput(Duration.ofSeconds(60), "ls\nget big.bin " + got + "\nquit\n", "cadaver", door + "/");
        assertTrue(r.out().contains("note.txt") && r.out().contains("folder"), r.out() + r.err());
        assertEquals(Tools.sha256(data.resolve("big.bin")), Tools.sha256(got), r.out() + r.err());
    }

    @Test
    void aDavfs2MountListsAndReads() throws Exception {
        Tools.require("mount.davfs", "umount");
        Path mnt = Files.createDirectories(tmp.resolve("mnt"));
        Path conf = tmp.resolve("davfs2.conf");
        // buf_size 64: on this kernel davfs2 otherwise fails every ls with EINVAL (notes/clients.md); the default
        // cache directory is kept because davfs2 drops to its own user, who cannot write into a test's temp dir
        Files.writeString(conf, "buf_size 64\nuse_locks 0\nask_auth 0\n");
        Tools.runWithInput(Duration.ofSeconds(60), "\n\n", "mount", "-t", "davfs", "-o", "ro,conf=" + conf, door + "/", mnt.toString())
                .assertOk();
        try {
            Tools.Result ls = Tools.run(Duration.ofSeconds(60), "ls", mnt.toString()).assertOk();
            assertTrue(ls.out().contains("big.bin") && ls.out().contains("note.txt") && ls.out().contains("folder"), ls.out());
            assertEquals(Tools.sha256(data.resolve("big.bin")), Tools.sha256(mnt.resolve("big.bin")));
            assertEquals("read through a neon client\n", Files.readString(mnt.resolve("note.txt")));
        } finally {
            Tools.run(Duration.ofSeconds(60), "umount", mnt.toString());
        }
    }
}
