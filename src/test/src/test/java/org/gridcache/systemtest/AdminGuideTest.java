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
 * shell settings, run before every later block. Alice, the guide's admin, has her proxy where the guide says.
 */
@Timeout(value = 10, unit = TimeUnit.MINUTES)
class AdminGuideTest {
    private static final Path GUIDE = Path.of("../../docs/admin-guide.md");
    private static final Pattern BLOCK = Pattern.compile("(?s)```sh admin-guide-test([^\\n]*)\\n(.*?)```");
    private static final Map<String, String> HOSTS = new LinkedHashMap<>();
    private static final List<String> OWN_DIRS = List.of("etc/grid-security", "etc/gridcache", "var/lib/gridcache",
            "var/log/gridcache", "srv");
    private static final String BRIDGE = "gcag0";

    static {
        HOSTS.put("zk1", "10.231.0.11");
        HOSTS.put("zk2", "10.231.0.12");
        HOSTS.put("zk3", "10.231.0.13");
        HOSTS.put("pool1", "10.231.0.21");
        HOSTS.put("door", "10.231.0.31");
    }

    @TempDir
    static Path tmp;
    static Path pki;
    static final List<Process> services = new ArrayList<>();
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

        String expect() {
            Matcher m = Pattern.compile("expect=(.*)$").matcher(attributes.trim());
            return m.find() ? m.group(1) : null;
        }
    }

    @BeforeAll
    static void hosts() throws Exception {
        Tools.require("ip", "unshare", "openssl", "curl", "useradd", "tar");
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
        network();
        StringBuilder etcHosts = new StringBuilder("127.0.0.1 localhost\n");
        HOSTS.forEach((host, address) -> etcHosts.append(address).append(' ').append(host).append(".example.org ")
                .append(host).append('\n'));
        // the origins the guide mounts: `origins add` checks that their hosts resolve; nothing reads from them here
        etcHosts.append("10.231.0.250 se.example.org data.example.org\n");
        for (String dir : OWN_DIRS) {
            Path mountPoint = Path.of("/", dir);
            if (!Files.isDirectory(mountPoint)) {
                Files.createDirectories(mountPoint);
                mountPointsMade.add(mountPoint);
            }
        }
        for (String host : HOSTS.keySet()) {
            Path home = tmp.resolve("hosts/" + host);
            for (String dir : OWN_DIRS) {
                Files.createDirectories(home.resolve(dir));
            }
            Files.createDirectories(home.resolve("tmp"));
            Files.createDirectories(home.resolve("cwd"));
            Files.setPosixFilePermissions(home.resolve("tmp"), PosixFilePermissions.fromString("rwxrwxrwx"));
            Files.writeString(home.resolve("hosts"), etcHosts);
            Path gridSecurity = home.resolve("etc/grid-security");
            hostCertificate(host + ".example.org", gridSecurity);
            Tools.run(Duration.ofSeconds(30), "cp", "-a", pki.resolve("certificates").toString(), pki.resolve("vomsdir").toString(),
                    gridSecurity.toString()).assertOk();
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
                if (block.serve()) {
                    Path out = tmp.resolve("out/" + host + "-" + services.size() + ".out");
                    Files.createDirectories(out.getParent());
                    services.add(onHost(host, env + block.script()).redirectErrorStream(true).redirectOutput(out.toFile()).start());
                    outputs.add(out);
                } else {
                    List<String> command = onHostCommand(host, env + block.script());
                    Tools.Result r = Tools.run(Duration.ofSeconds(180), command.toArray(String[]::new));
                    assertEquals(0, r.exit(), () -> "on " + host + ":\n" + block.script() + "\nexit " + r.exit()
                            + "\nstdout: " + r.out() + "\nstderr: " + r.err());
                    if (block.expect() != null) {
                        assertTrue(r.out().contains(block.expect()), () -> "on " + host + ":\n" + block.script()
                                + "\ndid not print " + block.expect() + ": " + r.out());
                    }
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
        StringBuilder setup = new StringBuilder("set -e\ncd '" + home.resolve("cwd") + "'\nhostname " + host + ".example.org\n");
        for (String dir : OWN_DIRS) {
            setup.append("mount --bind '").append(home.resolve(dir)).append("' /").append(dir).append('\n');
        }
        setup.append("mount --bind '").append(home.resolve("hosts")).append("' /etc/hosts\n")
                .append("mount --bind '").append(home.resolve("tmp")).append("' /tmp\n")
                .append("export PATH='").append(Gridcache.DIST.toAbsolutePath().normalize().resolve("bin")).append("':$PATH\n");
        return List.of("ip", "netns", "exec", "gcag-" + host, "unshare", "--mount", "--uts", "--propagation", "private",
                "bash", "-e", "-c", setup + script);
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
        for (String host : HOSTS.keySet()) {
            signal(host, "-TERM");
        }
        for (Process service : services) {
            service.waitFor(30, TimeUnit.SECONDS);
        }
        if (networkMade) {
            for (String host : HOSTS.keySet()) {
                signal(host, "-KILL");
                Tools.run(Duration.ofSeconds(30), "ip", "netns", "del", "gcag-" + host);
            }
            Tools.run(Duration.ofSeconds(30), "ip", "link", "del", BRIDGE);
        }
        for (Path mountPoint : mountPointsMade) {
            Files.deleteIfExists(mountPoint);
        }
        if (userMade && Tools.run(Duration.ofSeconds(10), "id", "gridcache").exit() == 0) {
            Tools.run(Duration.ofSeconds(30), "userdel", "gridcache").assertOk();
        }
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
