package org.gridcache.systemtest;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import org.junit.jupiter.api.Assertions;

/**
 * The real grid peers of {@code ../shared/gridenv} (beside the checkout, or beside a directory above it, as for a
 * worktree under {@code wt/}): the test PKI made by {@code mkpki.sh}
 * (CA, CRL, host and user certificates, RFC 3820 and VOMS proxies) and the Apache + mod_gridsite HTTPS origin.
 */
final class GridEnv {
    static final Path SCRIPTS = gridenv();

    private GridEnv() {
    }

    /** The nearest {@code shared/gridenv} beside the repository root or beside one of its parents. */
    private static Path gridenv() {
        Path root = repoRoot();
        for (Path dir = root.getParent(); dir != null; dir = dir.getParent()) {
            Path candidate = dir.resolve("shared/gridenv");
            if (Files.isExecutable(candidate.resolve("mkpki.sh"))) {
                return candidate;
            }
        }
        return root.getParent().resolve("shared/gridenv"); // absent: the first script run says where it looked
    }

    private static Path repoRoot() {
        Path dir = Path.of("").toAbsolutePath();
        while (dir != null && !Files.exists(dir.resolve(".ci/run"))) {
            dir = dir.getParent();
        }
        Assertions.assertNotNull(dir, "cannot find the repository root above " + Path.of("").toAbsolutePath());
        return dir;
    }

    /** Makes the PKI in {@code dir} (CA, CRL, certificates, proxies valid for a week). */
    static Path pki(Path dir) {
        Tools.run(Duration.ofMinutes(3), SCRIPTS.resolve("mkpki.sh").toString(), dir.toString()).assertOk();
        return dir;
    }

    /**
     * A directory the origin's workers (www-data) can read; not under JUnit's private temporary directories. It is
     * deleted, with what the origins wrote in it, when the test JVM exits (its origins are stopped by then): a
     * GridFtpWritesTest run alone used to leave 313 MB behind in /tmp.
     */
    static Path worldReadableDir(String prefix) throws IOException {
        Path dir = Files.createTempDirectory(prefix, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwxr-xr-x")));
        Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwxr-xr-x"));
        Runtime.getRuntime().addShutdownHook(new Thread(() -> deleteTree(dir), "delete " + dir));
        return dir;
    }

    /** Deletes {@code dir} and everything under it, as far as it can (a file still open or mounted stays). */
    private static void deleteTree(Path dir) {
        try (java.util.stream.Stream<Path> walk = Files.walk(dir)) {
            walk.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException | java.io.UncheckedIOException e) {
            System.err.println("cannot delete " + dir + ": " + e);
        }
    }

    static void makeReadable(Path file) throws IOException {
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString(Files.isDirectory(file) ? "rwxr-xr-x" : "rw-r--r--"));
    }

    /** Apache + mod_gridsite serving {@code data} on a free loopback port; stop with {@link Origin#close}. */
    record Origin(int port) implements AutoCloseable {
        static Origin start(Path pki, Path data) {
            int port = Tools.freePort();
            Tools.run(Duration.ofMinutes(1), SCRIPTS.resolve("start-https-origin.sh").toString(), pki.toString(), data.toString(),
                    String.valueOf(port)).assertOk();
            return new Origin(port);
        }

        String url() {
            return "https://localhost:" + port;
        }

        /** Apache's access log (gridenv's default run directory), "" before the first request. */
        String accessLog() throws IOException {
            Path log = Path.of("/tmp/gridenv-https-" + port, "access.log");
            return Files.exists(log) ? Files.readString(log) : "";
        }

        @Override
        public void close() {
            Tools.run(Duration.ofMinutes(1), SCRIPTS.resolve("stop-https-origin.sh").toString(), String.valueOf(port));
        }
    }

    /**
     * globus-gridftp-server with GSI on a free loopback port (data ports PORT+100…PORT+149), serving {@code data}:
     * URL paths are the real file system paths. Its grid-mapfile ({@link #gridMapFile}) is read at every connection.
     */
    record GridFtpOrigin(int port, Path data) implements AutoCloseable {
        static GridFtpOrigin start(Path pki, Path data) {
            int port = freePortWithDataPorts();
            Tools.run(Duration.ofMinutes(1), SCRIPTS.resolve("start-gridftp-origin.sh").toString(), pki.toString(), data.toString(),
                    String.valueOf(port)).assertOk();
            return new GridFtpOrigin(port, data);
        }

        /** A control port whose data ports (PORT+100…PORT+149) are free too. */
        private static int freePortWithDataPorts() {
            for (int attempt = 0; attempt < 50; attempt++) {
                int port = Tools.freePort();
                if (port + 149 > 65535) {
                    continue;
                }
                boolean free = true;
                for (int p = port + 100; p <= port + 149 && free; p++) {
                    try (java.net.ServerSocket s = new java.net.ServerSocket(p, 1, java.net.InetAddress.getLoopbackAddress())) {
                        free = s.getLocalPort() == p;
                    } catch (IOException e) {
                        free = false;
                    }
                }
                if (free) {
                    return port;
                }
            }
            throw new AssertionError("no free port with 50 free data ports above it");
        }

        /** {@code gsiftp://localhost:PORT<data>/<rel>}. */
        String url(String rel) {
            return "gsiftp://localhost:" + port + data.toAbsolutePath() + (rel.isEmpty() ? "" : "/" + rel);
        }

        Path runDir() {
            return Path.of("/tmp/gridenv-gridftp-" + port);
        }

        Path gridMapFile() {
            return runDir().resolve("grid-mapfile");
        }

        /** The server's master process id (it forks one child per connection). */
        long pid() throws IOException {
            return Long.parseLong(Files.readString(runDir().resolve("pid")).trim());
        }

        void restart(Path pki) {
            close();
            Tools.run(Duration.ofMinutes(1), SCRIPTS.resolve("start-gridftp-origin.sh").toString(), pki.toString(), data.toString(),
                    String.valueOf(port)).assertOk();
        }

        @Override
        public void close() {
            Tools.run(Duration.ofMinutes(1), SCRIPTS.resolve("stop-gridftp-origin.sh").toString(), String.valueOf(port));
        }
    }

    /** curl as the holder of {@code proxy} (a file in the PKI's proxies/), trusting the test CA; -D- prints the head. */
    static Tools.Result curlAs(Path pki, String proxy, String... args) {
        String file = pki.resolve("proxies/" + proxy + ".pem").toString();
        java.util.List<String> cmd = new java.util.ArrayList<>(java.util.List.of("--capath", pki.resolve("certificates").toString(),
                "--cert", file, "--key", file, "-D", "-"));
        cmd.addAll(java.util.List.of(args));
        return Tools.curl(cmd.toArray(String[]::new));
    }

    /**
     * Fixture, idempotent: the holder of {@code proxy} has a valid delegation of it with the default id (derived from
     * DN and VOMS attributes) at the door {@code doorUrl}, made with {@code gridcache delegate} only when the door has
     * none.
     */
    static void delegated(Path pki, String doorUrl, String proxy) {
        String[] as = {"--proxy", pki.resolve("proxies/" + proxy + ".pem").toString(), "--capath", pki.resolve("certificates").toString()};
        if (Gridcache.admin(concat(new String[] {"delegate", "--info"}, as, doorUrl)).exit() != 0) {
            Gridcache.admin(concat(new String[] {"delegate"}, as, doorUrl)).assertOk();
        }
    }

    private static String[] concat(String[] head, String[] middle, String last) {
        java.util.List<String> all = new java.util.ArrayList<>(java.util.List.of(head));
        all.addAll(java.util.List.of(middle));
        all.add(last);
        return all.toArray(String[]::new);
    }

    /**
     * Fixture, idempotent: the DN of {@code proxy}'s holder has no valid delegation at the door {@code doorUrl}, of
     * any VOMS attributes: destroys every one the door lists for it ({@code moreIds} too, which it then lists anyway),
     * then checks the door lists none.
     */
    static void withoutDelegation(Path pki, String doorUrl, String proxy, String... moreIds) {
        Tools.Result before = curlAs(pki, proxy, doorUrl + "/.gridcache/delegation");
        Assertions.assertEquals(200, lastStatus(before), before.out());
        java.util.Set<String> ids = new java.util.LinkedHashSet<>(java.util.List.of(moreIds));
        java.util.regex.Matcher m = java.util.regex.Pattern.compile("\"delegationId\"\\s*:\\s*\"([^\"]+)\"").matcher(before.out());
        while (m.find()) {
            ids.add(m.group(1));
        }
        for (String id : ids) {
            Tools.Result r = curlAs(pki, proxy, "-X", "DELETE", doorUrl + "/.gridcache/delegation/" + id);
            int status = lastStatus(r);
            Assertions.assertTrue(status == 204 || status == 404, () -> "destroying delegation " + id + ": " + r.out());
        }
        Tools.Result list = curlAs(pki, proxy, doorUrl + "/.gridcache/delegation");
        Assertions.assertEquals(200, lastStatus(list), list.out());
        Assertions.assertTrue(list.out().strip().endsWith("[]"), () -> "no delegation left: " + list.out());
    }

    /**
     * Delegates the proxy {@code proxy} to the door with GridSite's htproxyput and returns the delegation id once the
     * door holds it: htproxyput exits once it has sent putProxy, without waiting for the answer, so the door may still
     * be checking the chain when it returns.
     */
    static String htproxyput(Path pki, String doorUrl, String proxy) {
        String pem = pki.resolve("proxies/" + proxy + ".pem").toString();
        Tools.Result put = Tools.run(Duration.ofMinutes(1), "htproxyput", "--cert", pem, "--key", pem, "--capath",
                pki.resolve("certificates").toString(), doorUrl + "/.gridcache/delegation").assertOk();
        String id = put.out().trim();
        Assertions.assertTrue(id.matches("[0-9a-f]{16}"), "delegation id printed: " + put.out());
        Tools.await("the door to hold delegation " + id, Duration.ofSeconds(30),
                () -> lastStatus(curlAs(pki, proxy, doorUrl + "/.gridcache/delegation/" + id)) == 200);
        return id;
    }

    /** The last HTTP status curl printed: with -L the pool's, not the door's 302. */
    static int lastStatus(Tools.Result r) {
        String last = null;
        for (String line : r.out().split("\r?\n")) {
            if (line.startsWith("HTTP/")) {
                last = line;
            }
        }
        org.junit.jupiter.api.Assertions.assertNotNull(last, () -> "no HTTP status in: " + r.out() + r.err());
        return Integer.parseInt(last.split(" ")[1]);
    }
}
