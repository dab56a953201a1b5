package org.gridcache.systemtest;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

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
 * <p>Over HTTPS (a second standalone, in front of Apache + mod_gridsite with a {@code .gacl} that lets {@code /atlas}
 * write): curl, davix, gfal2, rclone and webdav4 with Alice's VOMS proxy, cadaver and a davfs2 mount with a PKCS#12
 * of it, each lists,
 * reads, uploads, moves and deletes; mod_gridsite has no MKCOL (the door passes its 405 on), so their collections are
 * made beforehand. gio is not in the HTTPS rows: it presents no client certificate (and trusts only the system's
 * CAs). Bob, whom the gacl does not let write, is refused with the origin's reason.
 *
 * <p>davfs2 is a kernel mount (with its locks); its steps are file operations on the mount.
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
    /** The HTTPS fixture: gridenv's PKI, Apache + mod_gridsite over {@link #httpsData}, a standalone over HTTPS. */
    static Path pkiParent;
    static Path pki;
    static Path httpsData;
    static GridEnv.Origin httpsOrigin;
    static Standalone secure;
    static String secureDoor;
    static final List<String> HTTPS_STEPS = List.of("ls", "get", "put", "move", "delete");
    /** Only the /atlas VO writes below w/: Bob's plain proxy is refused by the origin, not by the door. */
    static final String GACL = """
            <?xml version="1.0"?>
            <gacl version="0.0.1">
            <entry><voms><fqan>/atlas</fqan></voms><allow><read/><list/><write/></allow></entry>
            <entry><auth-user/><allow><read/><list/></allow></entry>
            </gacl>
            """;

    @BeforeAll
    static void start() throws Exception {
        Tools.require("curl", "nginx");
        data = Files.createDirectories(tmp.resolve("data"));
        long seed = 80;
        for (String client : List.of("curl", "davix", "gfal2", "rclone", "cadaver", "webdav4", "gio", "davfs2")) {
            Tools.randomFile(data.resolve(client + "-src.bin"), 1_000_000 + seed, seed++);
            Tools.randomFile(tmp.resolve(client + "-up.bin"), 2_000_000 + seed, seed++);
        }
        origin = NginxOrigin.startWritable(tmp.resolve("nginx"), data);
        gridcache = Standalone.start(tmp, origin.url());
        door = gridcache.door();
        startHttps();
    }

    /**
     * Alice's and Bob's delegations at a standalone over HTTPS in front of Apache + mod_gridsite, whose {@code w/}
     * lets {@code /atlas} write ({@link #GACL}). mod_gridsite has no MKCOL (nor PROPFIND: the door lists its HTML
     * index), so each client's collection is made here and the steps are ls, get, put, move and delete.
     */
    static void startHttps() throws Exception {
        Tools.require("openssl", "grid-proxy-init", "voms-proxy-fake", "apache2");
        pkiParent = GridEnv.worldReadableDir("gridcache-test-pki");
        pki = GridEnv.pki(pkiParent.resolve("pki"));
        httpsData = GridEnv.worldReadableDir("gridcache-writing-clients");
        Path w = Files.createDirectories(httpsData.resolve("w"));
        Files.writeString(w.resolve(".gacl"), GACL);
        long seed = 120;
        for (String client : List.of("curl", "davix", "gfal2", "rclone", "webdav4", "cadaver", "davfs2")) {
            Tools.randomFile(Files.createDirectories(w.resolve(client)).resolve(client + "-src.bin"), 500_000 + seed, seed++);
        }
        Tools.run(Duration.ofMinutes(1), "chmod", "-R", "a+rX", httpsData.toString()).assertOk();
        try (var dirs = Files.walk(w)) {
            for (Path dir : dirs.filter(Files::isDirectory).toList()) {
                Tools.run(Duration.ofMinutes(1), "chmod", "a+rwx", dir.toString()).assertOk(); // Apache's workers write there
            }
        }
        httpsOrigin = GridEnv.Origin.start(pki, httpsData);
        Path policy = Files.writeString(tmp.resolve("authz.conf"), "authenticated / list,read,write\n");
        secure = Standalone.startHttps(Files.createDirectories(tmp.resolve("https")), httpsOrigin.url() + "/", pki,
                "--authz", policy.toString());
        secureDoor = secure.door();
        GridEnv.delegated(pki, secureDoor, "alice-atlas");
        GridEnv.delegated(pki, secureDoor, "bob");
    }

    @AfterAll
    static void stop() throws Exception {
        StringBuilder table = new StringBuilder(String.format("%n%-16s", "client"));
        STEPS.forEach(s -> table.append(String.format(" %-7s", s)));
        TABLE.forEach((client, row) -> {
            table.append(String.format("%n%-16s", client));
            STEPS.forEach(s -> {
                String result = row.getOrDefault(s, "-");
                table.append(String.format(" %-7s", result.equals("-") || result.equals("ok") ? result : "FAIL"));
            });
        });
        System.out.println("clients x steps through the door (plain HTTP: nginx WebDAV origin; https: Alice's proxy,"
                + " Apache + mod_gridsite origin, which has no MKCOL):" + table);
        TABLE.forEach((client, row) -> row.forEach((step, result) -> {
            if (!result.equals("ok")) {
                System.out.println(client + " " + step + ": " + result);
            }
        }));
        Tools.closeAll(origin, gridcache, httpsOrigin, secure);
        for (Path dir : new Path[] {httpsData, pkiParent}) {
            if (dir != null) {
                Tools.run(Duration.ofMinutes(1), "rm", "-rf", dir.toString());
            }
        }
    }

    @Test
    void curl() {
        Steps s = new Steps("curl");
        String d = door + "/curl/";
        s.ls(() -> Tools.curl("-X", "PROPFIND", "-H", "Depth: 1", door + "/"));
        s.get(got -> Tools.curl("-L", "-o", got.toString(), door + "/curl-src.bin"));
        s.mkcol(() -> Tools.curl("-X", "MKCOL", d));
        // curl sends Expect: 100-continue with a body: the door answers 307 to a pool, which -L follows with the body
        s.put(up -> Tools.curl("-L", "-T", up.toString(), d + "up.bin"));
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

    // --- over HTTPS, with Alice's VOMS proxy, against Apache + mod_gridsite ---

    static String alice() {
        return pki.resolve("proxies/alice-atlas.pem").toString();
    }

    static String certificates() {
        return pki.resolve("certificates").toString();
    }

    /** {@code tool} with Alice's proxy and the test CA, as curl and davix take them. */
    static Command withProxy(String tool) {
        return asAlice(tool, "--capath", certificates(), "--cert", alice(), "--key", alice());
    }

    /** A command with its leading arguments (how it presents Alice's proxy); {@link Command#run} adds the step's. */
    static Command asAlice(String... head) {
        return tail -> {
            List<String> all = new ArrayList<>(List.of(head));
            all.addAll(List.of(tail));
            return run(all);
        };
    }

    @FunctionalInterface
    interface Command {
        Tools.Result run(String... tail);
    }

    static Steps httpsSteps(String client) {
        Path dir = httpsData.resolve("w/" + client);
        return new Steps(client + " (https)", client, dir.resolve(client + "-src.bin"), dir);
    }

    @Test
    void curlOverHttps() {
        Steps s = httpsSteps("curl");
        String d = secureDoor + "/w/curl/";
        s.ls(() -> withProxy("curl").run(d));
        s.get(got -> withProxy("curl").run("-L", "-o", got.toString(),
                d + "curl-src.bin"));
        s.put(up -> withProxy("curl").run("-L", "-T", up.toString(), d + "up.bin"));
        s.move(() -> withProxy("curl").run("-X", "MOVE", "-H",
                "Destination: " + d + "moved.bin", d + "up.bin"));
        s.delete(() -> withProxy("curl").run("-X", "DELETE", d + "moved.bin"));
        s.assertAllOk(HTTPS_STEPS);
    }

    @Test
    void davixOverHttps() {
        Tools.require("davix-ls", "davix-get", "davix-put", "davix-mv", "davix-rm");
        Steps s = httpsSteps("davix");
        String d = secureDoor + "/w/davix/";
        s.ls(() -> withProxy("davix-ls").run(d));
        s.get(got -> withProxy("davix-get").run(d + "davix-src.bin",
                got.toString()));
        s.put(up -> withProxy("davix-put").run(up.toString(), d + "up.bin"));
        s.move(() -> withProxy("davix-mv").run(d + "up.bin",
                d + "moved.bin"));
        s.delete(() -> withProxy("davix-rm").run(d + "moved.bin"));
        s.assertAllOk(HTTPS_STEPS);
    }

    @Test
    void gfal2OverHttps() {
        Tools.require("gfal-ls", "gfal-copy", "gfal-rename", "gfal-rm");
        Steps s = httpsSteps("gfal2");
        String d = secureDoor + "/w/gfal2/";
        Command gfal = asAlice("env", "GFAL_PYTHONBIN=/usr/bin/python3", "X509_CERT_DIR=" + certificates(), "X509_USER_PROXY=" + alice());
        s.ls(() -> gfal.run("gfal-ls", d));
        s.get(got -> gfal.run("gfal-copy", "-f", d + "gfal2-src.bin", "file://" + got));
        s.put(up -> gfal.run("gfal-copy", "file://" + up, d + "up.bin"));
        s.move(() -> gfal.run("gfal-rename", d + "up.bin", d + "moved.bin"));
        s.delete(() -> gfal.run("gfal-rm", d + "moved.bin"));
        s.assertAllOk(HTTPS_STEPS);
    }

    @Test
    void rcloneOverHttps() {
        Tools.require("rclone");
        Steps s = httpsSteps("rclone");
        Supplier<List<String>> base = () -> new ArrayList<>(List.of("rclone", "--config", "/dev/null", "--webdav-url",
                secureDoor + "/w/rclone/", "--ca-cert", pki.resolve("ca/ca.pem").toString(), "--client-cert", alice(),
                "--client-key", alice()));
        s.ls(() -> run(concat(base.get(), "lsf", ":webdav:")));
        s.get(got -> run(concat(base.get(), "copyto", ":webdav:rclone-src.bin", got.toString())));
        s.put(up -> run(concat(base.get(), "copyto", up.toString(), ":webdav:up.bin")));
        s.move(() -> run(concat(base.get(), "moveto", ":webdav:up.bin", ":webdav:moved.bin")));
        s.delete(() -> run(concat(base.get(), "deletefile", ":webdav:moved.bin")));
        s.assertAllOk(HTTPS_STEPS);
    }

    @Test
    void webdav4OverHttps() throws Exception {
        Tools.requireExecutable(WEBDAV4_PYTHON, "the webdav4 venv (.ci/run makes it)");
        String script = Path.of(WritingClientsTest.class.getResource("/webdav4-steps.py").toURI()).toString();
        Steps s = httpsSteps("webdav4");
        Supplier<List<String>> base = () -> new ArrayList<>(List.of("env", "CA_FILE=" + pki.resolve("ca/ca.pem"), "PROXY=" + alice(),
                WEBDAV4_PYTHON.toString(), script, secureDoor + "/w/webdav4/"));
        s.ls(() -> run(concat(base.get(), "ls")));
        s.get(got -> run(concat(base.get(), "get", "webdav4-src.bin", got.toString())));
        s.put(up -> run(concat(base.get(), "put", up.toString(), "up.bin")));
        s.move(() -> run(concat(base.get(), "move", "up.bin", "moved.bin")));
        s.delete(() -> run(concat(base.get(), "delete", "moved.bin")));
        s.assertAllOk(HTTPS_STEPS);
    }

    /**
     * cadaver (neon) takes a PKCS#12 file only, and sends only the proxy of it: the door completes the chain from
     * Alice's delegation (GridClientsTest). expect answers its password and certificate prompts.
     */
    @Test
    void cadaverOverHttpsWithAPkcs12OfTheProxy() throws Exception {
        Tools.require("cadaver", "expect", "openssl");
        Path p12 = tmp.resolve("alice-atlas.p12");
        Tools.run(Duration.ofMinutes(1), "openssl", "pkcs12", "-export", "-in", alice(), "-inkey", alice(), "-passout",
                "pass:test-only", "-out", p12.toString()).assertOk();
        Steps s = httpsSteps("cadaver");
        java.util.function.Function<String, Tools.Result> cadaver = command -> GridClientsTest.cadaverWithPkcs12(p12, "test-only",
                secureDoor + "/w/cadaver/", command);
        s.ls(() -> cadaver.apply("ls"));
        s.get(got -> cadaver.apply("get cadaver-src.bin " + got));
        s.put(up -> cadaver.apply("put " + up + " up.bin"));
        s.move(() -> cadaver.apply("move up.bin moved.bin"));
        s.delete(() -> cadaver.apply("delete moved.bin"));
        s.assertAllOk(HTTPS_STEPS);
    }

    /**
     * A davfs2 kernel mount (its default locks: a LOCK on each file it writes), every step a file operation on the
     * mount; davfs2 uploads a file a second after it is closed (delay_upload 1), so put waits for the origin's copy.
     */
    @Test
    void davfs2() throws Exception {
        Tools.require("mount.davfs", "umount");
        Path conf = Files.writeString(tmp.resolve("davfs2-plain.conf"), "buf_size 64\nask_auth 0\ndelay_upload 1\n");
        davfs2Steps(new Steps("davfs2"), door + "/", conf, STEPS);
    }

    /**
     * davfs2 over HTTPS with a PKCS#12 of Alice's proxy: neon sends only the proxy, and the door completes the chain
     * from her delegation (GridClientsTest).
     */
    @Test
    void davfs2OverHttpsWithAPkcs12OfTheProxy() throws Exception {
        Tools.require("mount.davfs", "umount", "openssl");
        Path p12 = tmp.resolve("alice-atlas-davfs2.p12");
        Tools.run(Duration.ofMinutes(1), "openssl", "pkcs12", "-export", "-in", alice(), "-inkey", alice(), "-passout",
                "pass:test-only", "-out", p12.toString()).assertOk();
        Path secrets = tmp.resolve("davfs2-https.secrets");
        Files.writeString(secrets, p12 + " test-only\n");
        Files.setPosixFilePermissions(secrets, java.nio.file.attribute.PosixFilePermissions.fromString("rw-------"));
        Path conf = Files.writeString(tmp.resolve("davfs2-https.conf"), "buf_size 64\nask_auth 0\ndelay_upload 1\ntrust_ca_cert "
                + pki.resolve("ca/ca.pem") + "\nclientcert " + p12 + "\nsecrets " + secrets + "\n");
        davfs2Steps(httpsSteps("davfs2"), secureDoor + "/w/", conf, HTTPS_STEPS);
    }

    /** Mounts {@code url} with davfs2 and runs {@code steps} in the client's collection {@code davfs2} below it. */
    private static void davfs2Steps(Steps s, String url, Path conf, List<String> steps) throws Exception {
        Path mnt = Files.createDirectories(tmp.resolve("mnt-" + s.client.replaceAll("\\W", "")));
        Tools.runWithInput(Duration.ofSeconds(60), "\n\n", "mount", "-t", "davfs", "-o", "conf=" + conf, url, mnt.toString())
                .assertOk();
        boolean https = steps == HTTPS_STEPS;
        Path col = mnt.resolve("davfs2");
        try {
            // over HTTPS the client's collection is made beforehand (mod_gridsite has no MKCOL); its file sits in it
            Path src = https ? col.resolve("davfs2-src.bin") : mnt.resolve("davfs2-src.bin");
            s.ls(() -> fileStep(() -> String.join("\n", list(https ? col : mnt))));
            s.get(got -> fileStep(() -> Files.copy(src, got, java.nio.file.StandardCopyOption.REPLACE_EXISTING).toString()));
            if (!https) {
                s.mkcol(() -> fileStep(() -> Files.createDirectory(col).toString()));
            }
            s.put(up -> fileStep(() -> {
                Files.copy(up, col.resolve("up.bin"));
                Tools.await("davfs2 to upload up.bin after close", Duration.ofSeconds(60), () -> s.landed(up, "up.bin"));
                return "copied";
            }));
            s.move(() -> fileStep(() -> Files.move(col.resolve("up.bin"), col.resolve("moved.bin")).toString()));
            s.delete(() -> fileStep(() -> {
                Files.delete(col.resolve("moved.bin"));
                return "deleted";
            }));
            if (!https) {
                s.rmcol(() -> fileStep(() -> {
                    Files.delete(col);
                    return "removed";
                }));
            }
        } finally {
            Tools.run(Duration.ofSeconds(120), "umount", mnt.toString()).assertOk(); // uploads what is still dirty first
        }
        s.assertAllOk(steps);
    }

    private static List<String> list(Path dir) throws java.io.IOException {
        try (var names = Files.list(dir)) {
            return names.map(p -> p.getFileName().toString()).toList();
        }
    }

    /** A step done with file operations: exit 0 with what it returned, or 1 with the failure. */
    private static Tools.Result fileStep(java.util.concurrent.Callable<String> operation) {
        try {
            return new Tools.Result(0, operation.call(), "");
        } catch (Exception | AssertionError e) {
            return new Tools.Result(1, "", e.toString());
        }
    }

    /** The gacl lets only /atlas write: Bob (delegated, no VOMS attributes) is refused by the origin, with its word. */
    @Test
    void bobsWritesAreRefusedByTheOriginsGaclWithItsReason() throws Exception {
        Path file = Tools.randomFile(tmp.resolve("bob.bin"), 10_000, 140);
        // through the pool the door redirects the upload to: the origin's refusal comes from there
        Tools.Result put = GridEnv.curlAs(pki, "bob", "-L", "-T", file.toString(), secureDoor + "/w/bob.bin");
        assertEquals(403, GridEnv.lastStatus(put), put.out() + put.err());
        assertTrue(put.out().contains("the origin refuses /DC=org/DC=example/CN=Bob PUT /w/bob.bin"), put.out());
        Tools.Result delete = GridEnv.curlAs(pki, "bob", "-X", "DELETE", secureDoor + "/w/curl/curl-src.bin");
        assertEquals(403, GridEnv.lastStatus(delete), delete.out());
        assertTrue(Files.exists(httpsData.resolve("w/curl/curl-src.bin")));
        assertFalse(Files.exists(httpsData.resolve("w/bob.bin")));
        Tools.Result mkcol = GridEnv.curlAs(pki, "alice-atlas", "-X", "MKCOL", secureDoor + "/w/new/");
        assertEquals(405, GridEnv.lastStatus(mkcol), "mod_gridsite has no MKCOL, and the door passes its answer on: " + mkcol.out());
    }

    // --- the steps, each judged by the origin's directory ---

    /** One client's row: each step runs a command, then the origin's directory is checked. */
    static final class Steps {
        private final String client;
        private final Map<String, String> row = new LinkedHashMap<>();
        private final Path dir;
        private final Path src;
        private final Path up;

        /** Over plain HTTP: the client's file {@code <client>-src.bin} in the origin's root, its collection {@code <client>}. */
        Steps(String client) {
            this(client, client, data.resolve(client + "-src.bin"), data.resolve(client));
        }

        /**
         * {@code row}: the table's row; {@code client}: names the local file it uploads; {@code src}: the origin's file
         * it reads; {@code dir}: where its writes land.
         */
        Steps(String row, String client, Path src, Path dir) {
            this.client = row;
            this.src = src;
            this.dir = dir;
            this.up = tmp.resolve(client + "-up.bin");
            synchronized (TABLE) {
                TABLE.put(row, this.row);
            }
        }

        void ls(Supplier<Tools.Result> command) {
            step("ls", command, r -> r.out().contains(src.getFileName().toString()));
        }

        void get(java.util.function.Function<Path, Tools.Result> command) {
            Path got = tmp.resolve(client.replace(' ', '-') + "-got.bin");
            step("get", () -> command.apply(got), r -> sameBytes(got, src));
        }

        void mkcol(Supplier<Tools.Result> command) {
            step("mkcol", command, r -> Files.isDirectory(dir));
        }

        /** Whether {@code name} in the client's collection at the origin holds exactly the bytes of {@code up}. */
        boolean landed(Path up, String name) {
            return sameBytes(up, dir.resolve(name));
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
            assertAllOk(STEPS);
        }

        void assertAllOk(List<String> steps) {
            row.forEach((step, result) -> assertEquals("ok", result, client + " " + step));
            assertEquals(steps, List.copyOf(row.keySet()), client + " ran every step");
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
