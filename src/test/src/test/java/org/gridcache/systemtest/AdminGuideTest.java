package org.gridcache.systemtest;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assertions;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The admin guide's commands, taken from docs/admin-guide.md, run against the built distribution so that the guide
 * cannot drift. Blocks fenced as {@code ```sh admin-guide-test on=HOST,…} run in document order on each host named,
 * as root: a network namespace per host on a bridge of its own, and in it a mount and UTS namespace whose
 * /etc/grid-security (a host certificate of the host's name from gridenv's CA), /etc/hosts, /etc/gridcache,
 * /var/lib/gridcache, /var/log/gridcache, /srv and /tmp are the host's own. {@code serve} blocks start a service and
 * are awaited until it says it is up; {@code expect=TEXT} blocks must print TEXT; {@code env} blocks are the admin's
 * shell settings, run before every later block; {@code ctrl-c} blocks first stop what the host's serve blocks started,
 * as the admin would. {@code systemctl} and {@code journalctl} run the packaged units without systemd
 * ({@link UnitsWithoutSystemd}); blocks run in the host's /tmp, where the jmxterm jar the guide names is. Alice, the guide's
 * admin, has her proxy where the guide says. The site's public mirror, {@code data.example.org}, is a plain HTTP file
 * server on a host of its own.
 */
@Timeout(value = 10, unit = TimeUnit.MINUTES)
class AdminGuideTest {
    private static final Path GUIDE = Path.of("../../docs/admin-guide.md");
    private static final Pattern BLOCK = Pattern.compile("(?s)```sh admin-guide-test([^\\n]*)\\n(.*?)```");
    private static final Map<String, String> HOSTS = new LinkedHashMap<>();
    private static final List<String> OWN_DIRS = List.of("etc/grid-security", "etc/gridcache", "var/lib/gridcache",
            "var/log/gridcache", "srv");
    private static final String BRIDGE = "gcag0";
    /** The origins' host: data.example.org (the public mirror) and se.example.org, which nothing reads. */
    private static final String ORIGIN_HOST = "data";
    private static final String ORIGIN_ADDRESS = "10.231.0.250";
    private static final Duration EXPECT_WAIT = Duration.ofSeconds(60);
    /** In each mount point this test makes on the machine: so that a run killed before its clean-up is cleaned after. */
    private static final String MADE_HERE = ".made-by-admin-guide-test";

    static {
        HOSTS.put("zk1", "10.231.0.11");
        HOSTS.put("zk2", "10.231.0.12");
        HOSTS.put("zk3", "10.231.0.13");
        HOSTS.put("pool1", "10.231.0.21");
        HOSTS.put("pool2", "10.231.0.22");
        HOSTS.put("door", "10.231.0.31");
    }

    @TempDir
    static Path tmp;
    static Path pki;
    static final List<Process> services = new ArrayList<>();
    static final Map<String, List<Process>> servedBy = new LinkedHashMap<>();
    static final List<Path> mountPointsMade = new ArrayList<>();
    static boolean userMade;
    static boolean networkMade;

    record Block(String attributes, String script) {
        List<String> hosts() {
            Matcher m = Pattern.compile("on=(\\S+)").matcher(attributes);
            return m.find() ? List.of(m.group(1).split(",")) : List.of();
        }

        boolean env() {
            return attributes.trim().equals("env");
        }

        boolean serve() {
            return attributes.matches(".*\\bserve\\b.*");
        }

        boolean ctrlC() {
            return attributes.matches(".*\\bctrl-c\\b.*");
        }

        String expect() {
            Matcher m = Pattern.compile("expect=(.*)$").matcher(attributes.trim());
            return m.find() ? m.group(1) : null;
        }
    }

    @BeforeAll
    static void hosts() throws Exception {
        Tools.require("ip", "unshare", "openssl", "curl", "useradd", "tar", "setpriv", "python3");
        boolean root = Tools.run(Duration.ofSeconds(10), "id", "-u").out().trim().equals("0");
        if (!root) {
            String message = "SYSTEM TEST NEEDS ROOT (network namespaces): AdminGuideTest";
            System.err.println("!!! " + message);
            if ("true".equals(System.getenv("CI"))) {
                Assertions.fail(message);
            }
            Assumptions.abort(message);
        }
        userMade = Tools.run(Duration.ofSeconds(10), "id", "gridcache").exit() != 0;
        pki = GridEnv.pki(tmp.resolve("pki"));
        clearLeftovers();
        network();
        StringBuilder etcHosts = new StringBuilder("127.0.0.1 localhost\n");
        HOSTS.forEach((host, address) -> etcHosts.append(address).append(' ').append(host).append(".example.org ")
                .append(host).append('\n'));
        // the origins the guide mounts: `origins add` checks that their hosts resolve; the public mirror is read
        etcHosts.append(ORIGIN_ADDRESS + " se.example.org data.example.org\n");
        publicMirror();
        for (String dir : OWN_DIRS) {
            Path mountPoint = Path.of("/", dir);
            if (!Files.isDirectory(mountPoint)) {
                Files.createDirectories(mountPoint);
                Files.createFile(mountPoint.resolve(MADE_HERE));
                mountPointsMade.add(mountPoint);
            }
        }
        for (String host : HOSTS.keySet()) {
            Path home = tmp.resolve("hosts/" + host);
            for (String dir : OWN_DIRS) {
                Files.createDirectories(home.resolve(dir));
            }
            Files.createDirectories(home.resolve("tmp"));
            Files.setPosixFilePermissions(home.resolve("tmp"), PosixFilePermissions.fromString("rwxrwxrwx"));
            Files.writeString(home.resolve("hosts"), etcHosts);
            Path gridSecurity = home.resolve("etc/grid-security");
            hostCertificate(host + ".example.org", gridSecurity);
            Tools.run(Duration.ofSeconds(30), "cp", "-a", pki.resolve("certificates").toString(), pki.resolve("vomsdir").toString(),
                    gridSecurity.toString()).assertOk();
            Files.copy(Jmxterm.JAR, home.resolve("tmp/jmxterm-1.0.4-uber.jar"));
            Path proxy = Files.copy(pki.resolve("proxies/alice.pem"), home.resolve("tmp/x509up_u0"));
            Files.setPosixFilePermissions(proxy, PosixFilePermissions.fromString("rw-------"));
        }
    }

    @Test
    void theGuidesCommandsWorkInTheirOrder() throws Exception {
        List<Block> blocks = blocks();
        assertTrue(blocks.stream().anyMatch(Block::serve), "the guide marks no service to start");
        StringBuilder env = new StringBuilder();
        for (Block block : blocks) {
            if (block.env()) {
                env.append(block.script());
                continue;
            }
            assertFalse(block.hosts().isEmpty(), "a tested block names no host (on=…): " + block.script());
            List<Path> outputs = new ArrayList<>();
            for (String host : block.hosts()) {
                assertTrue(HOSTS.containsKey(host), "the guide names a host this test does not make: " + host);
                if (block.ctrlC()) {
                    stopServed(host);
                }
                if (block.serve()) {
                    Path out = tmp.resolve("out/" + host + "-" + services.size() + ".out");
                    Files.createDirectories(out.getParent());
                    Process service = onHost(host, env + block.script()).redirectErrorStream(true).redirectOutput(out.toFile())
                            .start();
                    services.add(service);
                    servedBy.computeIfAbsent(host, h -> new ArrayList<>()).add(service);
                    outputs.add(out);
                } else if (block.expect() != null) { // a look at what the cluster does now: asked again until it shows
                    Tools.await("'" + block.expect() + "' on " + host + " from " + block.script(), EXPECT_WAIT)
                            .untilAsserted(() -> assertTrue(run(host, env, block).out().contains(block.expect())));
                } else {
                    run(host, env, block);
                }
            }
            for (Path out : outputs) { // members of an ensemble start together, and are up once they all are
                Process service = services.get(services.size() - outputs.size() + outputs.indexOf(out));
                Tools.await("'is up' in " + out, Duration.ofSeconds(180), () -> {
                    String text = Tools.readOrEmpty(out);
                    if (!service.isAlive()) {
                        Assertions.fail("the service exited with " + service.exitValue() + ":\n" + block.script() + "\n" + text);
                    }
                    return text.contains(" is up");
                });
            }
        }
    }

    /** Runs {@code block} on {@code host}, which must succeed. */
    private static Tools.Result run(String host, CharSequence env, Block block) {
        List<String> command = onHostCommand(host, env + UnitsWithoutSystemd.functions(Gridcache.DIST) + block.script());
        Tools.Result r = Tools.run(Duration.ofSeconds(240), command.toArray(String[]::new));
        assertEquals(0, r.exit(), () -> "on " + host + ":\n" + block.script() + "\nexit " + r.exit()
                + "\nstdout: " + r.out() + "\nstderr: " + r.err());
        return r;
    }

    /** Stops the services {@code host}'s serve blocks started (their processes get SIGTERM), as Ctrl-C would. */
    private static void stopServed(String host) throws InterruptedException {
        for (Process served : servedBy.getOrDefault(host, List.of())) {
            List<ProcessHandle> all = new ArrayList<>(served.descendants().toList());
            all.add(served.toHandle());
            all.forEach(ProcessHandle::destroy);
            for (ProcessHandle p : all) {
                try {
                    p.onExit().get(60, TimeUnit.SECONDS);
                } catch (java.util.concurrent.ExecutionException | java.util.concurrent.TimeoutException e) {
                    Assertions.fail("a service on " + host + " did not stop: " + p.info().commandLine().orElse("?"));
                }
            }
        }
        servedBy.remove(host);
    }

    private static List<Block> blocks() throws IOException {
        List<Block> blocks = new ArrayList<>();
        Matcher m = BLOCK.matcher(Files.readString(GUIDE));
        while (m.find()) {
            blocks.add(new Block(m.group(1), m.group(2)));
        }
        return blocks;
    }

    private static ProcessBuilder onHost(String host, String script) {
        return new ProcessBuilder(onHostCommand(host, script));
    }

    /** {@code script} as root on {@code host}: its network namespace, and mounts and host name of its own. */
    private static List<String> onHostCommand(String host, String script) {
        Path home = tmp.resolve("hosts/" + host).toAbsolutePath();
        StringBuilder setup = new StringBuilder("set -e\nhostname " + host + ".example.org\n");
        for (String dir : OWN_DIRS) {
            setup.append("mount --bind '").append(home.resolve(dir)).append("' /").append(dir).append('\n');
        }
        setup.append("mount --bind '").append(home.resolve("hosts")).append("' /etc/hosts\n")
                .append("mount --bind '").append(home.resolve("tmp")).append("' /tmp\n")
                .append("cd /tmp\n") // the admin's working directory: a path that resolves inside the host's mounts
                .append("export PATH='").append(Gridcache.DIST.toAbsolutePath().normalize().resolve("bin")).append("':$PATH\n");
        return List.of("ip", "netns", "exec", "gcag-" + host, "unshare", "--mount", "--uts", "--propagation", "private",
                "bash", "-e", "-c", setup + script);
    }

    /**
     * What a run of this test killed before its clean-up left on the machine: its namespaces and bridge, and the mount
     * points it made, known by the mark in them while they hold nothing else.
     */
    static void clearLeftovers() throws IOException {
        for (String host : allHosts()) {
            Tools.run(Duration.ofSeconds(30), "ip", "netns", "del", "gcag-" + host);
            Tools.run(Duration.ofSeconds(30), "ip", "link", "del", "gcag-" + host);
        }
        Tools.run(Duration.ofSeconds(30), "ip", "link", "del", BRIDGE);
        for (String dir : OWN_DIRS) {
            Path mountPoint = Path.of("/", dir);
            if (Files.isRegularFile(mountPoint.resolve(MADE_HERE))) {
                try (Stream<Path> inside = Files.list(mountPoint)) {
                    if (inside.count() == 1) {
                        Files.delete(mountPoint.resolve(MADE_HERE));
                        Files.delete(mountPoint);
                    }
                }
            }
        }
    }

    private static void network() {
        networkMade = true;
        ip("link", "add", BRIDGE, "type", "bridge");
        ip("addr", "add", "10.231.0.1/24", "dev", BRIDGE);
        ip("link", "set", BRIDGE, "up");
        HOSTS.forEach((host, address) -> {
            String ns = "gcag-" + host;
            ip("netns", "add", ns);
            ip("link", "add", ns, "type", "veth", "peer", "name", "eth0", "netns", ns);
            ip("link", "set", ns, "master", BRIDGE, "up");
            ip("-n", ns, "addr", "add", address + "/24", "dev", "eth0");
            ip("-n", ns, "link", "set", "eth0", "up");
            ip("-n", ns, "link", "set", "lo", "up");
        });
    }

    /** data.example.org: a plain HTTP server of /pub/hello.txt in a network namespace of its own. */
    private static void publicMirror() throws IOException {
        Path root = Files.createDirectories(tmp.resolve("mirror/pub"));
        Files.writeString(root.resolve("hello.txt"), "hello from the public mirror\n");
        String ns = "gcag-" + ORIGIN_HOST;
        ip("netns", "add", ns);
        ip("link", "add", ns, "type", "veth", "peer", "name", "eth0", "netns", ns);
        ip("link", "set", ns, "master", BRIDGE, "up");
        ip("-n", ns, "addr", "add", ORIGIN_ADDRESS + "/24", "dev", "eth0");
        ip("-n", ns, "link", "set", "eth0", "up");
        services.add(new ProcessBuilder("ip", "netns", "exec", ns, "python3", "-m", "http.server", "80", "--bind",
                ORIGIN_ADDRESS, "--directory", root.getParent().toString()).redirectErrorStream(true)
                .redirectOutput(tmp.resolve("mirror.out").toFile()).start());
    }

    private static void ip(String... args) {
        List<String> command = new ArrayList<>(List.of("ip"));
        command.addAll(List.of(args));
        Tools.run(Duration.ofSeconds(30), command.toArray(String[]::new)).assertOk();
    }

    /** A host certificate for {@code name} (DNS name in subjectAltName) from gridenv's CA, as the guide's files. */
    private static void hostCertificate(String name, Path gridSecurity) throws IOException {
        Path ext = gridSecurity.resolve("host.ext");
        Files.writeString(ext, "basicConstraints=critical,CA:FALSE\nkeyUsage=critical,digitalSignature,keyEncipherment\n"
                + "extendedKeyUsage=serverAuth,clientAuth\nsubjectAltName=DNS:" + name + "\n");
        Path key = gridSecurity.resolve("hostkey.pem");
        Path request = gridSecurity.resolve("host.req");
        Tools.run(Duration.ofSeconds(30), "openssl", "req", "-new", "-newkey", "rsa:2048", "-nodes",
                "-subj", "/DC=org/DC=example/OU=hosts/CN=" + name, "-keyout", key.toString(), "-out", request.toString()).assertOk();
        Tools.run(Duration.ofSeconds(30), "openssl", "x509", "-req", "-in", request.toString(),
                "-CA", pki.resolve("ca/ca.pem").toString(), "-CAkey", pki.resolve("ca/ca.key").toString(),
                "-set_serial", String.valueOf(System.nanoTime()), "-days", "2", "-sha256", "-extfile", ext.toString(),
                "-out", gridSecurity.resolve("hostcert.pem").toString()).assertOk();
        Files.delete(ext);
        Files.delete(request);
    }

    @AfterAll
    static void stop() throws Exception {
        for (String host : allHosts()) {
            signal(host, "-TERM");
        }
        for (Process service : services) {
            service.waitFor(30, TimeUnit.SECONDS);
        }
        if (networkMade) {
            for (String host : allHosts()) {
                signal(host, "-KILL");
                Tools.run(Duration.ofSeconds(30), "ip", "netns", "del", "gcag-" + host);
            }
            Tools.run(Duration.ofSeconds(30), "ip", "link", "del", BRIDGE);
        }
        for (Path mountPoint : mountPointsMade) {
            Files.deleteIfExists(mountPoint.resolve(MADE_HERE));
            Files.deleteIfExists(mountPoint);
        }
        if (userMade && Tools.run(Duration.ofSeconds(10), "id", "gridcache").exit() == 0) {
            Tools.run(Duration.ofSeconds(30), "userdel", "gridcache").assertOk();
        }
    }

    private static List<String> allHosts() {
        List<String> all = new ArrayList<>(HOSTS.keySet());
        all.add(ORIGIN_HOST);
        return all;
    }

    /** Sends {@code signal} to the processes this test started in {@code host}'s namespace. */
    private static void signal(String host, String signal) {
        Tools.Result pids = Tools.run(Duration.ofSeconds(10), "ip", "netns", "pids", "gcag-" + host);
        for (String pid : pids.out().trim().split("\\s+")) {
            if (!pid.isEmpty()) {
                Tools.run(Duration.ofSeconds(10), "kill", signal, pid);
            }
        }
    }
}
