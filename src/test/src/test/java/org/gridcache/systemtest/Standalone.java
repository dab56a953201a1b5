package org.gridcache.systemtest;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Assertions;

/** {@code gridcache standalone} on free loopback ports in front of one origin: the fixture most system tests share. */
final class Standalone implements AutoCloseable {
    private final Gridcache process;
    private final Path home;
    private final String door;
    private final String zkConnect;

    private Standalone(Gridcache process, Path home, String door, String zkConnect) {
        this.process = process;
        this.home = home;
        this.door = door;
        this.zkConnect = zkConnect;
    }

    /** Starts it with its home under {@code dir} and waits until it is up; {@code extra} are more CLI options. */
    static Standalone start(Path dir, String origin, String... extra) throws IOException {
        return start(Map.of(), null, dir, origin, "http://127.0.0.1:", List.of(extra));
    }

    /** As {@link #start(Path, String, String...)}, with environment variables and a file mode creation mask (null: ours). */
    static Standalone start(Map<String, String> env, String umask, Path dir, String origin, String... extra) throws IOException {
        return start(env, umask, dir, origin, "http://127.0.0.1:", List.of(extra));
    }

    /**
     * As {@link #start(Path, String, String...)}, over HTTPS with grid security: gridenv's host certificate
     * ({@code CN=localhost}), its CA directory and vomsdir; the door is {@code https://localhost:PORT}.
     */
    static Standalone startHttps(Path dir, String origin, Path pki, String... extra) throws IOException {
        return startHttps(Map.of(), dir, origin, pki, extra);
    }

    /** As {@link #startHttps(Path, String, Path, String...)}, with environment variables (GRIDCACHE_JAVA_OPTS...). */
    static Standalone startHttps(Map<String, String> env, Path dir, String origin, Path pki, String... extra) throws IOException {
        List<String> args = new ArrayList<>(List.of("--host-cert", pki.resolve("host/cert.pem").toString(), "--host-key",
                pki.resolve("host/key.pem").toString(), "--ca-dir", pki.resolve("certificates").toString(), "--vomsdir",
                pki.resolve("vomsdir").toString()));
        args.addAll(List.of(extra));
        return start(env, null, dir, origin, "https://localhost:", args);
    }

    private static Standalone start(Map<String, String> env, String umask, Path dir, String origin, String doorBase,
                                    List<String> extra) throws IOException {
        int port = Tools.freePort();
        int zkPort = Tools.freePort();
        Path home = dir.resolve("gridcache-home"); // the default name: admin commands run in dir find it as a user's would
        List<String> args = new ArrayList<>(List.of("standalone", "--home", home.toString(), "--origin", origin,
                "--port", String.valueOf(port), "--zk-port", String.valueOf(zkPort)));
        args.addAll(extra);
        Gridcache process = Gridcache.start(env, umask, dir.resolve("gridcache.out"), args.toArray(String[]::new)).awaitOutput("is up");
        return new Standalone(process, home, doorBase + port, "127.0.0.1:" + zkPort);
    }

    /** The door's base URL, without a trailing slash. */
    String door() {
        return door;
    }

    /** Where the door redirects a GET of {@code path}: a pool URL with a ticket (asserted to be a 302). */
    String location(String path) {
        Tools.Result r = Tools.curl("-s", "-o", "/dev/null", "-w", "%{http_code} %{redirect_url}", door + path).assertOk();
        Assertions.assertTrue(r.out().startsWith("302 http"), r.out());
        return r.out().substring(4).trim();
    }

    Path home() {
        return home;
    }

    /**
     * Runs an admin command (origins, config) against this standalone to completion, as its user would: from the
     * directory holding its home, with {@code --zk} and no other option (it presents the home's ZooKeeper secret).
     */
    Tools.Result admin(String... args) {
        List<String> cmd = new ArrayList<>(List.of("sh", "-c", "cd \"$0\" && exec \"$@\"", home.getParent().toString(),
                Gridcache.DIST.resolve("bin/gridcache").toAbsolutePath().toString()));
        cmd.addAll(List.of(args));
        cmd.addAll(List.of("--zk", zkConnect));
        return Tools.run(Duration.ofSeconds(60), cmd.toArray(String[]::new));
    }

    /** The embedded ZooKeeper, for a client of the test's own ({@code --zk}). */
    String zkConnect() {
        return zkConnect;
    }

    /** What the process printed so far. */
    String output() {
        return process.output();
    }

    @Override
    public void close() throws InterruptedException {
        process.close();
    }
}
