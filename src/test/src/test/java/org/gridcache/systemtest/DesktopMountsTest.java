package org.gridcache.systemtest;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Desktop mounts that write through a standalone gridcache (plain HTTP) in front of a writable nginx WebDAV origin:
 * a davfs2 kernel mount (with its default locks: it LOCKs every file it opens for writing and uploads on close or
 * unmount) and GNOME's gio (gvfsd-dav, on a private D-Bus session bus). Each step is checked in the origin's
 * directory. Two more mounts report RFC 4331 quota, which gio shows as free space: a SabreDAV origin (its numbers,
 * passed on by the door) and a {@code file://} origin (its file system's).
 */
@Timeout(value = 10, unit = TimeUnit.MINUTES)
class DesktopMountsTest {
    @TempDir
    static Path tmp;
    static NginxOrigin origin;
    static SabreDavOrigin sabre;
    static Path sabreData;
    static Standalone gridcache;
    static String door;
    static Path data;
    static Path local;

    @BeforeAll
    static void start() throws Exception {
        Tools.require("curl", "nginx");
        data = Files.createDirectories(tmp.resolve("data"));
        local = Files.createDirectories(tmp.resolve("local"));
        origin = NginxOrigin.startWritable(tmp.resolve("nginx"), data);
        sabreData = Files.createDirectories(tmp.resolve("sabre-data"));
        sabre = SabreDavOrigin.start(tmp.resolve("sabre"), sabreData);
        gridcache = Standalone.start(tmp, origin.url(), "--file-origin-root", local.toString());
        door = gridcache.door();
        mount("local", local.toUri().toString());
        mount("sabre", sabre.url());
    }

    private static void mount(String name, String url) {
        gridcache.admin("origins", "add", name, "--prefix", "/" + name, "--url", url).assertOk();
        Tools.await("the door to serve the " + name + " mount", Duration.ofSeconds(30),
                () -> Tools.curl("-o", "/dev/null", "-w", "%{http_code}", "-X", "PROPFIND", "-H", "Depth: 0", door + "/" + name + "/")
                        .out().equals("207"));
    }

    @AfterAll
    static void stop() throws Exception {
        Tools.closeAll(origin, sabre, gridcache);
    }

    /**
     * davfs2 with its defaults (use_locks 1): mkdir, a file copied in (uploaded after close under its own LOCK, then
     * UNLOCKed), mv, rm, rmdir; then a file copied in and an existing file rewritten just before umount, which
     * uploads both before it returns.
     */
    @Test
    void aDavfs2MountMakesCopiesMovesAndRemovesWithItsLocks() throws Exception {
        Tools.require("mount.davfs", "umount");
        Path file = Tools.randomFile(tmp.resolve("up-davfs2.bin"), 3_000_000, 21);
        Path late = Tools.randomFile(tmp.resolve("late-davfs2.bin"), 1_000_000, 22);
        Files.writeString(data.resolve("edit.txt"), "before\n");
        Path mnt = mountDavfs2("mnt");
        boolean mounted = true;
        try {
            Files.createDirectory(mnt.resolve("davfs"));
            assertTrue(Files.isDirectory(data.resolve("davfs")), "mkdir made the collection at the origin");

            Files.copy(file, mnt.resolve("davfs/up.bin"));
            Tools.await("davfs2 to upload up.bin after close", Duration.ofSeconds(60),
                    () -> sameContent(file, data.resolve("davfs/up.bin")));
            Tools.await("davfs2's LOCK and UNLOCK of up.bin in the door's log", Duration.ofSeconds(30), () -> {
                String log = doorLog();
                return log.contains("LOCK /davfs/up.bin by anonymous -> opaquelocktoken:")
                        && log.contains("UNLOCK /davfs/up.bin by anonymous -> opaquelocktoken:");
            });

            Files.move(mnt.resolve("davfs/up.bin"), mnt.resolve("davfs/moved.bin"));
            assertFalse(Files.exists(data.resolve("davfs/up.bin")));
            assertEquals(Tools.sha256(file), Tools.sha256(data.resolve("davfs/moved.bin")), "moved at the origin");

            Files.delete(mnt.resolve("davfs/moved.bin"));
            assertFalse(Files.exists(data.resolve("davfs/moved.bin")), "removed at the origin");
            Files.delete(mnt.resolve("davfs"));
            assertFalse(Files.exists(data.resolve("davfs")), "rmdir removed the collection at the origin");

            Files.copy(late, mnt.resolve("late.bin"));
            Files.writeString(mnt.resolve("edit.txt"), "after\n");
            umount(mnt);
            mounted = false;
            assertEquals(Tools.sha256(late), Tools.sha256(data.resolve("late.bin")), "uploaded by umount, byte-exact");
            assertEquals("after\n", Files.readString(data.resolve("edit.txt")), "the rewritten file, under davfs2's lock");
        } finally {
            if (mounted) {
                umount(mnt);
            }
        }
    }

    /**
     * While davfs2 holds a file open for writing it holds a LOCK on it at the door: another client's PUT is refused
     * with 423 and the reason, and davfs2's own mv of the open file (MOVE with its lock token in {@code If}) moves it;
     * what it wrote arrives under the new name when it closes.
     */
    @Test
    void aFileDavfs2HoldsOpenIsLockedForOthersAndMovesUnderItsLock() throws Exception {
        Tools.require("mount.davfs", "umount");
        Files.writeString(data.resolve("held.txt"), "first\n");
        Path mnt = mountDavfs2("mnt-held");
        try {
            try (var out = Files.newBufferedWriter(mnt.resolve("held.txt"), java.nio.file.StandardOpenOption.APPEND)) {
                out.write("second\n");
                out.flush();
                Tools.Result put = Tools.curl("-w", "\n%{http_code}", "-X", "PUT", "--data-binary", "other", door + "/held.txt");
                assertTrue(put.out().endsWith("\n423"), put.out());
                assertTrue(put.out().contains("is locked"), put.out());
                Files.move(mnt.resolve("held.txt"), mnt.resolve("moved-held.txt"));
                assertFalse(Files.exists(data.resolve("held.txt")), "moved at the origin while open");
                assertTrue(Files.exists(data.resolve("moved-held.txt")));
            }
            Tools.await("davfs2 to upload what it wrote under the new name", Duration.ofSeconds(60),
                    () -> contentIs(data.resolve("moved-held.txt"), "first\nsecond\n"));
        } finally {
            umount(mnt);
        }
    }

    /**
     * davfs2 answers statfs ({@code df}) with the quota of the mounted collection: through the door, the SabreDAV
     * origin's, whose free and used space together are its file system's size.
     */
    @Test
    void aDavfs2MountOfACollectionWithQuotaShowsItsSize() throws Exception {
        Tools.require("mount.davfs", "umount");
        Path mnt = mountDavfs2("mnt-sabre", "/sabre/");
        try {
            assertEquals(Files.getFileStore(sabreData).getTotalSpace(), Files.getFileStore(mnt).getTotalSpace());
            assertTrue(Files.getFileStore(mnt).getUsableSpace() > 0);
        } finally {
            umount(mnt);
        }
    }

    /**
     * gio (gvfsd-dav) on a D-Bus session bus of its own: mount, mkdir, copy in, move, remove (file and directory),
     * and {@code gio info -f} showing the free space of the collection where its origin reports quota (SabreDAV: the
     * size gio shows is its file system's, free and used together; the {@code file://} mount) and none where it
     * does not (nginx).
     */
    @Test
    void gioMakesCopiesMovesRemovesAndShowsFreeSpaceWhereTheOriginReportsQuota() throws Exception {
        Tools.require("gio", "dbus-daemon");
        Tools.requireExecutable(Path.of("/usr/libexec/gvfsd-dav"), "gvfsd-dav (apt-get install gvfs-backends)");
        Path file = Tools.randomFile(tmp.resolve("up-gio.bin"), 2_000_000, 23);
        String dav = door.replace("http://", "dav://");
        try (SessionBus bus = SessionBus.start()) {
            bus.gio("mount", dav + "/").assertOk();
            try {
                bus.gio("mkdir", dav + "/gio").assertOk();
                assertTrue(Files.isDirectory(data.resolve("gio")), "mkdir made the collection at the origin");
                bus.gio("copy", file.toString(), dav + "/gio/up.bin").assertOk();
                assertEquals(Tools.sha256(file), Tools.sha256(data.resolve("gio/up.bin")), "byte-exact at the origin");
                bus.gio("move", dav + "/gio/up.bin", dav + "/gio/moved.bin").assertOk();
                assertFalse(Files.exists(data.resolve("gio/up.bin")));
                assertEquals(Tools.sha256(file), Tools.sha256(data.resolve("gio/moved.bin")), "moved at the origin");
                bus.gio("remove", dav + "/gio/moved.bin").assertOk();
                assertFalse(Files.exists(data.resolve("gio/moved.bin")), "removed at the origin");
                bus.gio("remove", dav + "/gio").assertOk();
                assertFalse(Files.exists(data.resolve("gio")), "the directory removed at the origin");

                String sabreInfo = bus.gio("info", "-f", dav + "/sabre/").assertOk().out();
                assertTrue(sabreInfo.contains("filesystem::free: "), sabreInfo);
                assertTrue(sabreInfo.contains("filesystem::size: " + Files.getFileStore(sabreData).getTotalSpace() + "\n"),
                        sabreInfo);
                String localInfo = bus.gio("info", "-f", dav + "/local/").assertOk().out();
                assertTrue(localInfo.contains("filesystem::free: "), localInfo);
                String withoutQuota = bus.gio("info", "-f", dav + "/").assertOk().out();
                assertFalse(withoutQuota.contains("filesystem::free: "), withoutQuota);
            } finally {
                bus.gio("mount", "-u", dav + "/");
            }
        }
    }

    /** A davfs2 mount of the door's root at {@code tmp/name}, with davfs2's defaults (locks) but for the two below. */
    private static Path mountDavfs2(String name) throws java.io.IOException {
        return mountDavfs2(name, "/");
    }

    private static Path mountDavfs2(String name, String collection) throws java.io.IOException {
        Path mnt = Files.createDirectories(tmp.resolve(name));
        // buf_size 64: davfs2 1.6's readdir fails (EINVAL) on kernels from 6.16 with its default; delay_upload 1:
        // upload a second after close instead of ten (davfs2's default), so the test needs not wait long
        Path conf = Files.writeString(tmp.resolve(name + "-davfs2.conf"), "buf_size 64\nask_auth 0\ndelay_upload 1\n");
        Tools.runWithInput(Duration.ofSeconds(60), "\n\n", "mount", "-t", "davfs", "-o", "conf=" + conf, door + collection,
                mnt.toString()).assertOk();
        return mnt;
    }

    private static void umount(Path mnt) {
        // umount.davfs waits for mount.davfs to upload what is still dirty and to exit
        Tools.run(Duration.ofSeconds(120), "umount", mnt.toString()).assertOk();
    }

    private static boolean sameContent(Path expected, Path actual) {
        try {
            return Files.exists(actual) && Files.size(actual) == Files.size(expected)
                    && Tools.sha256(expected).equals(Tools.sha256(actual));
        } catch (java.io.IOException e) {
            return false; // still being written
        }
    }

    private static boolean contentIs(Path file, String expected) {
        try {
            return Files.readString(file).equals(expected);
        } catch (java.io.IOException e) {
            return false; // not there yet
        }
    }

    private static String doorLog() {
        return Tools.readLog(gridcache.home().resolve("logs/standalone.log"));
    }

    /**
     * A private D-Bus session bus (gvfsd and its gvfsd-dav are activated on it and leave with it), so that each gio
     * command can be checked against the origin before the next.
     */
    private record SessionBus(String address, String pid) implements AutoCloseable {
        static SessionBus start() {
            Tools.Result r = Tools.run(Duration.ofSeconds(30), "dbus-daemon", "--session", "--fork", "--nopidfile",
                    "--print-address=1", "--print-pid=1").assertOk();
            List<String> lines = r.out().lines().toList();
            return new SessionBus(lines.get(0).strip(), lines.get(1).strip());
        }

        Tools.Result gio(String... args) {
            List<String> cmd = new ArrayList<>(List.of("env", "DBUS_SESSION_BUS_ADDRESS=" + address,
                    "GIO_USE_VOLUME_MONITOR=unix", "gio"));
            cmd.addAll(List.of(args));
            return Tools.run(Duration.ofSeconds(120), cmd.toArray(String[]::new));
        }

        @Override
        public void close() {
            Tools.run(Duration.ofSeconds(30), "kill", pid);
        }
    }
}
