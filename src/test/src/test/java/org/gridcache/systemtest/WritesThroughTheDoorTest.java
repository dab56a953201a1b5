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
 * {@code basic}, {@code copymove} and {@code locks} suites against the door.
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
        assertEquals("201", code("-T", file.toString(), door + "/curl/up.bin"));
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

    /**
     * litmus' locks suite (DAV class 2) against the door. Its three {@code owner_modify} steps (after the exclusive,
     * shared and collection locks) end in a PROPPATCH by the lock's owner, which this door does not answer yet (405):
     * those three, and nothing else, fail until PROPPATCH exists; every other step that runs, the refusals of
     * PROPPATCH to a client without the token included, passes.
     */
    @Test
    void litmusLocksPassesAllButThePropPatchOfTheOwner() {
        String out = litmusOutput("locks");
        List<String> failed = new ArrayList<>();
        Matcher fail = Pattern.compile("\\d+\\. (\\w+)\\.* FAIL \\(([^\\n]*)\\)").matcher(out);
        while (fail.find()) {
            failed.add(fail.group(1));
            // litmus' own words ("locked resouce"): after the owner's PUT with the token passed
            assertTrue(fail.group(2).startsWith("PROPPATCH on locked") && fail.group(2).endsWith("405 Method Not Allowed"), out);
        }
        assertEquals(List.of("owner_modify", "owner_modify", "owner_modify"), failed, out);
        // nginx's PROPFIND (dav-ext) has no getetag, so the door's HEAD shows no ETag and litmus skips its four
        // conditional PUTs on an entity tag (DoorLockTest.conditionsOnEntityTagsAreEvaluated covers them)
        List<String> skipped = new ArrayList<>();
        Matcher skip = Pattern.compile("\\d+\\. (\\w+)\\.* SKIPPED").matcher(out);
        while (skip.find()) {
            skipped.add(skip.group(1));
        }
        assertEquals(List.of("cond_put", "fail_cond_put", "complex_cond_put", "fail_complex_cond_put"), skipped, out);
        assertEquals("34/37", summary("locks", out));
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
