package org.gridcache.systemtest;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The clients × steps matrix of issue 12: each real client lists, reads, makes a collection, uploads (checked
 * byte-exact in the origin's directory), moves, deletes and removes the collection through the door of one
 * {@code gridcache standalone} in front of one writable nginx WebDAV origin (plain HTTP), every step judged by what
 * the origin's directory holds afterwards, not by the client's exit code (cadaver always exits 0, davix-mv 255 after a
 * good MOVE). Each client works in a collection named after it. The table (client × step → ok / FAIL and why) is
 * printed after the class; each client's test asserts its own row.
 *
 * <p>gio runs under a private D-Bus session ({@code dbus-run-session}), where gvfsd-dav mounts {@code dav://}; all of
 * its steps run in that one session, each checked by the shell against the origin's directory before the next.
 */
@Timeout(value = 10, unit = TimeUnit.MINUTES)
class WritingClientsTest {
    static final List<String> STEPS = List.of("ls", "get", "mkcol", "put", "move", "delete", "rmcol");
    static final Path WEBDAV4_PYTHON = GridClientsTest.WEBDAV4_PYTHON;
    static final Duration STEP_TIMEOUT = Duration.ofMinutes(2);
    static final Map<String, Map<String, String>> TABLE = new TreeMap<>();
    @TempDir
    static Path tmp;
    static Path data;
    static NginxOrigin origin;
    static Standalone gridcache;
    static String door;

    @BeforeAll
    static void start() throws Exception {
        Tools.require("curl", "nginx");
        data = Files.createDirectories(tmp.resolve("data"));
        long seed = 80;
        for (String client : List.of("curl", "davix", "gfal2", "rclone", "cadaver", "webdav4", "gio")) {
            Tools.randomFile(data.resolve(client + "-src.bin"), 1_000_000 + seed, seed++);
            Tools.randomFile(tmp.resolve(client + "-up.bin"), 2_000_000 + seed, seed++);
        }
        origin = NginxOrigin.startWritable(tmp.resolve("nginx"), data);
        gridcache = Standalone.start(tmp, origin.url());
        door = gridcache.door();
    }

    @AfterAll
    static void stop() throws Exception {
        StringBuilder table = new StringBuilder(String.format("%n%-9s", "client"));
        STEPS.forEach(s -> table.append(String.format(" %-7s", s)));
        TABLE.forEach((client, row) -> {
            table.append(String.format("%n%-9s", client));
            STEPS.forEach(s -> table.append(String.format(" %-7s", row.getOrDefault(s, "-").startsWith("ok") ? "ok" : "FAIL")));
        });
        System.out.println("clients x steps through the door (plain HTTP, nginx WebDAV origin):" + table);
        TABLE.forEach((client, row) -> row.forEach((step, result) -> {
            if (!result.equals("ok")) {
                System.out.println(client + " " + step + ": " + result);
            }
        }));
        Tools.closeAll(origin, gridcache);
    }

    @Test
    void curl() {
        Steps s = new Steps("curl");
        String d = door + "/curl/";
        s.ls(() -> Tools.curl("-X", "PROPFIND", "-H", "Depth: 1", door + "/"));
        s.get(got -> Tools.curl("-L", "-o", got.toString(), door + "/curl-src.bin"));
        s.mkcol(() -> Tools.curl("-X", "MKCOL", d));
        s.put(up -> Tools.curl("-T", up.toString(), d + "up.bin"));
        s.move(() -> Tools.curl("-X", "MOVE", "-H", "Destination: " + d + "moved.bin", d + "up.bin"));
        s.delete(() -> Tools.curl("-X", "DELETE", d + "moved.bin"));
        s.rmcol(() -> Tools.curl("-X", "DELETE", d));
        s.assertAllOk();
    }

    @Test
    void davix() {
        Tools.require("davix-ls", "davix-get", "davix-mkdir", "davix-put", "davix-mv", "davix-rm");
        Steps s = new Steps("davix");
        String d = door + "/davix/";
        s.ls(() -> run("davix-ls", door + "/"));
        s.get(got -> run("davix-get", door + "/davix-src.bin", got.toString()));
        s.mkcol(() -> run("davix-mkdir", d));
        s.put(up -> run("davix-put", up.toString(), d + "up.bin"));
        s.move(() -> run("davix-mv", d + "up.bin", d + "moved.bin"));
        s.delete(() -> run("davix-rm", d + "moved.bin"));
        s.rmcol(() -> run("davix-rm", d));
        s.assertAllOk();
    }

    @Test
    void gfal2() {
        Tools.require("gfal-ls", "gfal-copy", "gfal-mkdir", "gfal-rename", "gfal-rm");
        Steps s = new Steps("gfal2");
        String d = door + "/gfal2/";
        s.ls(() -> gfal("gfal-ls", door + "/"));
        s.get(got -> gfal("gfal-copy", "-f", door + "/gfal2-src.bin", "file://" + got));
        s.mkcol(() -> gfal("gfal-mkdir", d));
        s.put(up -> gfal("gfal-copy", "file://" + up, d + "up.bin"));
        s.move(() -> gfal("gfal-rename", d + "up.bin", d + "moved.bin"));
        s.delete(() -> gfal("gfal-rm", d + "moved.bin"));
        s.rmcol(() -> gfal("gfal-rm", "-r", d));
        s.assertAllOk();
    }

    @Test
    void rclone() {
        Tools.require("rclone");
        Steps s = new Steps("rclone");
        s.ls(() -> rclone("lsf", ":webdav:"));
        s.get(got -> rclone("copyto", ":webdav:rclone-src.bin", got.toString()));
        s.mkcol(() -> rclone("mkdir", ":webdav:rclone"));
        s.put(up -> rclone("copyto", up.toString(), ":webdav:rclone/up.bin"));
        s.move(() -> rclone("moveto", ":webdav:rclone/up.bin", ":webdav:rclone/moved.bin"));
        s.delete(() -> rclone("deletefile", ":webdav:rclone/moved.bin"));
        s.rmcol(() -> rclone("rmdir", ":webdav:rclone"));
        s.assertAllOk();
    }

    @Test
    void cadaver() {
        Tools.require("cadaver");
        Steps s = new Steps("cadaver");
        s.ls(() -> cadaver("ls"));
        s.get(got -> cadaver("get cadaver-src.bin " + got));
        s.mkcol(() -> cadaver("mkcol cadaver"));
        s.put(up -> cadaver("put " + up + " cadaver/up.bin"));
        s.move(() -> cadaver("move cadaver/up.bin cadaver/moved.bin"));
        s.delete(() -> cadaver("delete cadaver/moved.bin"));
        s.rmcol(() -> cadaver("rmcol cadaver"));
        s.assertAllOk();
    }

    @Test
    void webdav4() throws Exception {
        Tools.requireExecutable(WEBDAV4_PYTHON, "the webdav4 venv (.ci/run makes it: python3 -m venv target/webdav4-venv;"
                + " target/webdav4-venv/bin/pip install webdav4==0.11.0)");
        String script = Path.of(WritingClientsTest.class.getResource("/webdav4-steps.py").toURI()).toString();
        Steps s = new Steps("webdav4");
        Supplier<List<String>> base = () -> new ArrayList<>(List.of(WEBDAV4_PYTHON.toString(), script, door + "/"));
        s.ls(() -> run(concat(base.get(), "ls")));
        s.get(got -> run(concat(base.get(), "get", "webdav4-src.bin", got.toString())));
        s.mkcol(() -> run(concat(base.get(), "mkcol", "webdav4")));
        s.put(up -> run(concat(base.get(), "put", up.toString(), "webdav4/up.bin")));
        s.move(() -> run(concat(base.get(), "move", "webdav4/up.bin", "webdav4/moved.bin")));
        s.delete(() -> run(concat(base.get(), "delete", "webdav4/moved.bin")));
        s.rmcol(() -> run(concat(base.get(), "rmcol", "webdav4")));
        s.assertAllOk();
    }

    /**
     * gio in one private D-Bus session (the mount lives as long as gvfsd): the shell runs each step and checks it
     * against the origin's directory at once, printing {@code STEP <name> ok} or {@code STEP <name> FAIL}.
     */
    @Test
    void gio() throws Exception {
        Tools.require("gio", "dbus-run-session", "sha256sum");
        Steps s = new Steps("gio");
        String dav = door.replaceFirst("^http", "dav") + "/";
        Path up = tmp.resolve("gio-up.bin");
        Path got = tmp.resolve("gio-got.bin");
        String script = """
                step() { name=$1; shift; if "$@"; then echo "STEP $name ok"; else echo "STEP $name FAIL"; fi; }
                gio mount "$DAV" || exit 1
                step ls sh -c 'gio list "$DAV" | grep -qx gio-src.bin'
                step get sh -c 'gio copy "$DAV/gio-src.bin" "$GOT" && [ "$(sha256sum < "$GOT")" = "$(sha256sum < "$DATA/gio-src.bin")" ]'
                step mkcol sh -c 'gio mkdir "$DAV/gio" && [ -d "$DATA/gio" ]'
                step put sh -c 'gio copy "$UP" "$DAV/gio/up.bin" && [ "$(sha256sum < "$UP")" = "$(sha256sum < "$DATA/gio/up.bin")" ]'
                step move sh -c 'gio move "$DAV/gio/up.bin" "$DAV/gio/moved.bin" && [ ! -e "$DATA/gio/up.bin" ] && [ "$(sha256sum < "$UP")" = "$(sha256sum < "$DATA/gio/moved.bin")" ]'
                step delete sh -c 'gio remove "$DAV/gio/moved.bin" && [ ! -e "$DATA/gio/moved.bin" ]'
                step rmcol sh -c 'gio remove "$DAV/gio" && [ ! -e "$DATA/gio" ]'
                gio mount -u "$DAV"
                """;
        Tools.Result r = Tools.run(Duration.ofMinutes(3), "env", "DAV=" + dav, "DATA=" + data, "UP=" + up, "GOT=" + got,
                "dbus-run-session", "--", "bash", "-c", script);
        for (String step : STEPS) {
            s.record(step, r.out().contains("STEP " + step + " ok") ? "ok"
                    : "FAIL (" + firstLine(r.out().contains("STEP " + step) ? "gio refused or the origin disagrees" : "not run") + "): "
                    + firstLine(r.err().lines().filter(l -> l.startsWith("gio:")).findFirst().orElse(r.err())));
        }
        s.assertAllOk();
    }

    // --- the steps, each judged by the origin's directory ---

    /** One client's row: each step runs a command, then the origin's directory is checked. */
    static final class Steps {
        private final String client;
        private final Map<String, String> row = new LinkedHashMap<>();
        private final Path dir;
        private final Path up;

        Steps(String client) {
            this.client = client;
            this.dir = data.resolve(client);
            this.up = tmp.resolve(client + "-up.bin");
            synchronized (TABLE) {
                TABLE.put(client, row);
            }
        }

        void ls(Supplier<Tools.Result> command) {
            step("ls", command, r -> r.out().contains(client + "-src.bin"));
        }

        void get(java.util.function.Function<Path, Tools.Result> command) {
            Path got = tmp.resolve(client + "-got.bin");
            step("get", () -> command.apply(got), r -> sameBytes(got, data.resolve(client + "-src.bin")));
        }

        void mkcol(Supplier<Tools.Result> command) {
            step("mkcol", command, r -> Files.isDirectory(dir));
        }

        void put(java.util.function.Function<Path, Tools.Result> command) {
            step("put", () -> command.apply(up), r -> sameBytes(up, dir.resolve("up.bin")));
        }

        void move(Supplier<Tools.Result> command) {
            step("move", command, r -> !Files.exists(dir.resolve("up.bin")) && sameBytes(up, dir.resolve("moved.bin")));
        }

        void delete(Supplier<Tools.Result> command) {
            step("delete", command, r -> !Files.exists(dir.resolve("moved.bin")));
        }

        void rmcol(Supplier<Tools.Result> command) {
            step("rmcol", command, r -> !Files.exists(dir));
        }

        void record(String step, String result) {
            row.put(step, result);
            System.out.println(client + " " + step + ": " + result);
        }

        private void step(String step, Supplier<Tools.Result> command, java.util.function.Predicate<Tools.Result> check) {
            Tools.Result r;
            try {
                r = command.get();
            } catch (RuntimeException | AssertionError e) {
                record(step, "FAIL (did not run: " + firstLine(String.valueOf(e.getMessage())) + ")");
                return;
            }
            boolean ok;
            try {
                ok = check.test(r);
            } catch (RuntimeException e) {
                ok = false;
            }
            record(step, ok ? "ok" : "FAIL (exit " + r.exit() + "): " + firstLine(r.err().isBlank() ? r.out() : r.err()));
        }

        void assertAllOk() {
            row.forEach((step, result) -> assertEquals("ok", result, client + " " + step));
            assertEquals(STEPS, List.copyOf(row.keySet()), client + " ran every step");
        }
    }

    static boolean sameBytes(Path a, Path b) {
        try {
            return Files.exists(a) && Files.exists(b) && Tools.sha256(a).equals(Tools.sha256(b));
        } catch (Exception e) {
            return false;
        }
    }

    static String firstLine(String text) {
        return text.strip().lines().findFirst().orElse("");
    }

    static Tools.Result run(String... command) {
        return Tools.run(STEP_TIMEOUT, command);
    }

    static Tools.Result run(List<String> command) {
        return run(command.toArray(String[]::new));
    }

    static List<String> concat(List<String> head, String... tail) {
        head.addAll(List.of(tail));
        return head;
    }

    /** gfal's wrapper runs the first python3 on PATH (notes/clients.md). */
    static Tools.Result gfal(String... args) {
        List<String> cmd = new ArrayList<>(List.of("env", "GFAL_PYTHONBIN=/usr/bin/python3"));
        cmd.addAll(List.of(args));
        return run(cmd);
    }

    static Tools.Result rclone(String... args) {
        List<String> cmd = new ArrayList<>(List.of("rclone", "--config", "/dev/null", "--webdav-url", door + "/"));
        cmd.addAll(List.of(args));
        return run(cmd);
    }

    /** cadaver reads its commands from stdin and always exits 0. */
    static Tools.Result cadaver(String command) {
        return Tools.runWithInput(STEP_TIMEOUT, command + "\n", "cadaver", door + "/");
    }
}
