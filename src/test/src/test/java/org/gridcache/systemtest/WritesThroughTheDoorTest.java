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
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code gridcache standalone} in front of a writable nginx WebDAV origin: curl and cadaver make a collection, upload
 * (checked byte-exact at the origin), move, delete and remove the collection through the door, and litmus runs its
 * {@code basic}, {@code copymove}, {@code props} (dead properties, kept by the doors in ZooKeeper: nginx keeps none),
 * {@code locks} (DAV class 2, the cluster's lock table) and {@code http} suites against the door.
 */
@Timeout(value = 10, unit = TimeUnit.MINUTES)
class WritesThroughTheDoorTest {
    @TempDir
    static Path tmp;
    static NginxOrigin origin;
    static Standalone gridcache;
    static String door;
    static Path data;

    @BeforeAll
    static void start() throws Exception {
        Tools.require("curl", "nginx", "cadaver", "litmus");
        data = Files.createDirectories(tmp.resolve("data"));
        origin = NginxOrigin.startWritable(tmp.resolve("nginx"), data);
        gridcache = Standalone.start(tmp, origin.url());
        door = gridcache.door();
    }

    @AfterAll
    static void stop() throws Exception {
        Tools.closeAll(origin, gridcache);
    }

    @Test
    void curlMakesPutsMovesAndDeletesThroughTheDoor() throws Exception {
        Path file = Tools.randomFile(tmp.resolve("up-curl.bin"), 5_000_000, 11);
        assertEquals("201", code("-X", "MKCOL", door + "/curl/"));
        assertTrue(Files.isDirectory(data.resolve("curl")));
        // no Expect (curl sends it by itself for a body this large, and the door would redirect it to a pool:
        // UploadsThroughAPoolTest): this test is of the door's own proxied PUT
        assertEquals("201", code("-H", "Expect:", "-T", file.toString(), door + "/curl/up.bin"));
        assertEquals(Tools.sha256(file), Tools.sha256(data.resolve("curl/up.bin")), "byte-exact at the origin");
        String moved = code("-X", "MOVE", "-H", "Destination: " + door + "/curl/moved.bin", door + "/curl/up.bin");
        assertTrue(moved.equals("201") || moved.equals("204"), moved);
        assertFalse(Files.exists(data.resolve("curl/up.bin")));
        assertEquals(Tools.sha256(file), Tools.sha256(data.resolve("curl/moved.bin")));
        Path back = tmp.resolve("back-curl.bin");
        Tools.curl("-L", "-o", back.toString(), door + "/curl/moved.bin").assertOk();
        assertEquals(Tools.sha256(file), Tools.sha256(back), "read back through the door and a pool");
        assertEquals("204", code("-X", "DELETE", door + "/curl/moved.bin"));
        assertFalse(Files.exists(data.resolve("curl/moved.bin")));
        assertEquals("204", code("-X", "DELETE", door + "/curl/"));
        assertFalse(Files.exists(data.resolve("curl")));
    }

    @Test
    void cadaverMakesPutsMovesAndDeletesThroughTheDoor() throws Exception {
        Path file = Tools.randomFile(tmp.resolve("up-cadaver.bin"), 3_000_000, 12);
        // cadaver reads its commands from stdin and always exits 0: judge it by the origin's directory
        Tools.Result r = Tools.runWithInput(Duration.ofSeconds(120), "mkcol cad\ncd cad\nput " + file + " up.bin\n",
                "cadaver", door + "/");
        assertTrue(Files.isDirectory(data.resolve("cad")), r.out() + r.err());
        assertEquals(Tools.sha256(file), Tools.sha256(data.resolve("cad/up.bin")), "byte-exact at the origin: " + r.out());
        r = Tools.runWithInput(Duration.ofSeconds(120), "cd cad\nmove up.bin moved.bin\n", "cadaver", door + "/");
        assertEquals(Tools.sha256(file), Tools.sha256(data.resolve("cad/moved.bin")), r.out() + r.err());
        assertFalse(Files.exists(data.resolve("cad/up.bin")));
        r = Tools.runWithInput(Duration.ofSeconds(120), "cd cad\ndelete moved.bin\ncd ..\nrmcol cad\n", "cadaver", door + "/");
        assertFalse(Files.exists(data.resolve("cad")), r.out() + r.err());
    }

    @Test
    void litmusBasicPassesAllSixteen() {
        assertEquals("16/16", litmus("basic"));
    }

    @Test
    void litmusCopymovePassesAllThirteen() {
        assertEquals("13/13", litmus("copymove"));
    }

    @Test
    void litmusPropsPassesAllThirty() {
        assertEquals("30/30", litmus("props"));
    }

    @Test
    void litmusHttpPassesAllFour() {
        assertEquals("4/4", litmus("http"));
    }

    /**
     * litmus' locks suite (DAV class 2) against the door, every step run: nothing skipped (its conditional PUTs need the
     * ETag the door makes for nginx's entries, whose PROPFIND has no getetag) and nothing failed.
     */
    @Test
    void litmusLocksPassesAllFortyOne() {
        String out = litmusOutput("locks");
        assertFalse(Pattern.compile("\\d+\\. \\w+\\.* (FAIL|SKIPPED)").matcher(out).find(), out);
        assertEquals("41/41", summary("locks", out));
    }

    /** "passed/run" of one litmus suite against the door, e.g. "16/16"; its output goes to the test's log. */
    private static String litmus(String suite) {
        return summary(suite, litmusOutput(suite));
    }

    private static String litmusOutput(String suite) {
        Tools.Result r = Tools.run(Duration.ofMinutes(3), "env", "TESTS=" + suite, "litmus", door + "/");
        System.out.println(r.out() + r.err());
        return r.out() + r.err();
    }

    private static String summary(String suite, String out) {
        Matcher m = Pattern.compile("<- summary for `" + suite + "': of (\\d+) tests run: (\\d+) passed").matcher(out);
        assertTrue(m.find(), out);
        return m.group(2) + "/" + m.group(1);
    }

    private static String code(String... args) {
        String[] all = new String[args.length + 4];
        all[0] = "-o";
        all[1] = "/dev/null";
        all[2] = "-w";
        all[3] = "%{http_code}";
        System.arraycopy(args, 0, all, 4, args.length);
        return Tools.curl(all).assertOk().out().trim();
    }
}
