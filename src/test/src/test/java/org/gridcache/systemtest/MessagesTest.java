package org.gridcache.systemtest;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.InetAddress;
import java.net.ServerSocket;
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
 * Issue 42 item 6: what the commands say when something is wrong, as a user or admin meets it. An admin command that
 * cannot reach ZooKeeper says so in one line, not a stack trace per retry; a port already in use is named with the
 * option that chose it; {@code origins add} refuses at once a {@code file://} origin no door would serve and a host
 * that does not resolve, writing nothing; {@code standalone --help} states its real default and leaves no directory.
 */
@Timeout(value = 5, unit = TimeUnit.MINUTES)
class MessagesTest {
    @TempDir
    static Path tmp;
    static Standalone gridcache;

    @BeforeAll
    static void start() throws Exception {
        Path origin = Files.createDirectories(tmp.resolve("origin"));
        Files.writeString(origin.resolve("a.txt"), "a\n");
        gridcache = Standalone.start(tmp, origin.toString());
    }

    @AfterAll
    static void stop() throws Exception {
        Tools.closeAll(gridcache);
    }

    /** No line of a Java stack trace in {@code text}. */
    static void assertNoTrace(String text) {
        assertFalse(text.lines().anyMatch(l -> l.strip().startsWith("at ") || l.contains("Exception:")), text);
    }

    @Test
    void anAdminCommandThatCannotReachZooKeeperSaysSoInOneLine() {
        Tools.Result r = Gridcache.admin("origins", "list", "--zk", "127.0.0.1:" + Tools.freePort());
        assertEquals(1, r.exit(), r.out() + r.err());
        assertTrue(r.err().contains("cannot reach ZooKeeper at 127.0.0.1:"), r.err());
        // said at once, not after the door's and pool's start-up wait for an ensemble coming up
        assertTrue(r.err().contains("no server accepts connections"), r.err());
        assertNoTrace(r.err());
        assertEquals(1, r.err().strip().lines().count(), r.err());
    }

    @Test
    void aPortInUseIsNamedWithItsOption() throws Exception {
        try (ServerSocket taken = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            Path dir = Files.createDirectories(tmp.resolve("taken"));
            Gridcache process = Gridcache.start(dir.resolve("out"), "standalone", "--home", dir.resolve("home").toString(),
                    "--origin", tmp.resolve("origin").toString(), "--port", String.valueOf(taken.getLocalPort()),
                    "--zk-port", String.valueOf(Tools.freePort()));
            try (process) {
                Tools.await("the standalone to stop", Duration.ofMinutes(2), () -> !process.isAlive());
                assertTrue(process.output().contains("gridcache: the door cannot listen on 127.0.0.1:" + taken.getLocalPort()
                        + ": another process uses the port (choose another with --port)"), process.output());
            }
        }
    }

    @Test
    void originsAddRefusesAFileOriginNoDoorServesAndAHostThatDoesNotResolve() {
        Tools.Result etc = gridcache.admin("origins", "add", "etc", "--prefix", "/etc", "--url", "file:///etc");
        assertEquals(1, etc.exit(), etc.out() + etc.err());
        assertTrue(etc.err().contains("file:///etc is not at or below a --file-origin-root of any door (theirs: "
                + tmp.resolve("origin").toAbsolutePath()), etc.err());
        assertNoTrace(etc.err());
        Tools.Result nowhere = gridcache.admin("origins", "add", "nowhere", "--prefix", "/nowhere", "--url",
                "https://no-such-host.invalid/data");
        assertEquals(1, nowhere.exit(), nowhere.out() + nowhere.err());
        assertTrue(nowhere.err().contains("origin host no-such-host.invalid does not resolve"), nowhere.err());
        String table = gridcache.admin("origins", "list").assertOk().out();
        assertFalse(table.contains("etc") || table.contains("nowhere"), table);
        gridcache.admin("origins", "add", "nowhere", "--prefix", "/nowhere", "--url", "https://no-such-host.invalid/data",
                "--no-check").assertOk(); // a host this machine cannot resolve, for doors that can
        assertTrue(gridcache.admin("origins", "list").assertOk().out().contains("no-such-host.invalid"));
        gridcache.admin("origins", "remove", "nowhere").assertOk();

        Tools.Result below = gridcache.admin("origins", "add", "sub", "--prefix", "/sub", "--url",
                tmp.resolve("origin").toUri().toString());
        below.assertOk();
        gridcache.admin("origins", "remove", "sub").assertOk();
    }

    @Test
    void standaloneHelpStatesItsDefaultAndLeavesNoDirectory() throws Exception {
        Path empty = Files.createDirectories(tmp.resolve("empty"));
        Tools.Result help = Tools.run(Duration.ofSeconds(60), "sh", "-c", "cd \"$0\" && exec \"$@\"", empty.toString(),
                Gridcache.DIST.resolve("bin/gridcache").toAbsolutePath().toString(), "standalone", "--help").assertOk();
        String text = help.out().replaceAll("\\s+", " ");
        assertTrue(text.contains("standalone: plain HTTP unless --host-cert, --host-key, --ca-dir or --vomsdir is given"), help.out());
        try (var left = Files.list(empty)) {
            assertEquals(0, left.count(), "nothing created by --help");
        }
    }
}
