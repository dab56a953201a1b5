package org.gridcache.systemtest;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assertions;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The packages {@code mvn package} builds, as a site installs them (CI is root on a fresh Debian 12): the .deb is
 * installed with apt-get (over a state directory the admin made first, as a disk's mount point), ZooKeeper, a pool
 * and a door are started with their units' ExecStart lines as the gridcache user (systemd is not PID 1 here), a file
 * is read through them, the package is upgraded to a rebuilt one of a higher version with the site's configuration
 * kept, and purged. The .rpm's files, scripts and dependencies are
 * read with rpm -qp. The machine is left as found: the package purged, and the gridcache user removed when this test
 * made it.
 */
class PackagesTest {
    private static final Path TARGET = Gridcache.DIST.toAbsolutePath().getParent();
    private static final Path UNITS = Path.of("/lib/systemd/system");
    private static final Duration APT = Duration.ofMinutes(5);

    @TempDir
    Path tmp;

    @Test
    void theDebInstallsRunsUpgradesKeepingTheConfigurationAndPurges() throws Exception {
        requireRootWith("dpkg-deb", "apt-get", "setpriv", "curl", "nginx");
        Path deb = newest(TARGET, "gridcache_", ".deb");
        Assertions.assertFalse(Tools.run(APT, "dpkg-query", "-W", "gridcache").exit() == 0,
                "gridcache is installed on this machine already: this test installs and purges its own");
        AdminGuideTest.clearLeftovers(); // a killed run of it leaves mount points at the package's paths
        boolean userThere = Tools.run(APT, "id", "gridcache").exit() == 0;
        List<Process> units = new ArrayList<>();
        try {
            // the mount point of the store's disk, made by the admin before the package: root's until the package owns it
            Files.createDirectories(Path.of("/var/lib/gridcache"));
            apt("install", "--no-install-recommends", deb.toString());
            assertTrue(Files.isExecutable(Path.of("/usr/bin/gridcache")));
            assertEquals("gridcache gridcache 750", run("stat", "-c", "%U %G %a", "/var/lib/gridcache").strip());
            assertEquals("gridcache gridcache 700", run("stat", "-c", "%U %G %a", "/etc/gridcache/keys").strip());
            assertTrue(run("dpkg-query", "-W", "-f=${Conffiles}", "gridcache").contains("/etc/gridcache/door.conf"));
            for (String monitoring : List.of("gridcache-dashboard.json", "gridcache-alerts.yml")) {
                assertTrue(Files.isRegularFile(Path.of("/usr/share/gridcache/monitoring", monitoring)), monitoring);
            }

            Path data = Files.createDirectories(tmp.resolve("data"));
            byte[] file = Files.readAllBytes(Tools.randomFile(data.resolve("one.bin"), 1 << 20, 41));
            try (NginxOrigin origin = NginxOrigin.start(tmp.resolve("nginx"), data)) {
                int zkPort = Tools.freePort();
                int doorPort = Tools.freePort();
                String zk = "127.0.0.1:" + zkPort;
                // the site's configuration, as an admin edits the packaged files
                edit("/etc/gridcache/zk.conf", "port", String.valueOf(zkPort));
                for (String role : List.of("pool", "door")) {
                    edit("/etc/gridcache/" + role + ".conf", "zk", zk);
                    edit("/etc/gridcache/" + role + ".conf", "plain-http", "true");
                }
                edit("/etc/gridcache/pool.conf", "port", String.valueOf(Tools.freePort()));
                edit("/etc/gridcache/pool.conf", "capacity", "1G");
                edit("/etc/gridcache/door.conf", "port", String.valueOf(doorPort));
                String doorConf = Files.readString(Path.of("/etc/gridcache/door.conf"));

                units.add(await(start("gridcache-zk.service", null, "zk.out"), "zk.out"));
                assertEquals("gridcache", run("ps", "-o", "user=", "-p", String.valueOf(units.get(0).pid())).strip());
                asGridcache("/usr/bin/gridcache", "origins", "add", "atlas", "--prefix", "/atlas/data", "--url", origin.url(),
                        "--zk", zk);
                units.add(await(start("gridcache-pool@.service", "p1", "pool.out"), "pool.out"));
                units.add(await(start("gridcache-door.service", null, "door.out"), "door.out"));
                Path got = tmp.resolve("got.bin");
                Tools.curl("-fL", "-o", got.toString(), "http://127.0.0.1:" + doorPort + "/atlas/data/one.bin").assertOk();
                assertArrayEquals(file, Files.readAllBytes(got));
                assertTrue(Files.exists(Path.of("/var/log/gridcache/door-" + doorPort + ".log")));
                assertEquals("gridcache", run("stat", "-c", "%U", "/var/lib/gridcache/pool").strip());
                stop(units);

                Path upgrade = rebuiltWithHigherVersion(deb);
                apt("install", "--no-install-recommends", "-o", "Dpkg::Options::=--force-confold", upgrade.toString());
                assertTrue(run("dpkg-query", "-W", "-f=${Version}", "gridcache").endsWith("+upgrade1"));
                assertEquals(doorConf, Files.readString(Path.of("/etc/gridcache/door.conf")), "the site's door.conf is kept");
                assertTrue(Files.readString(Path.of("/etc/gridcache/zk.conf")).contains("\nport=" + zkPort + "\n"));
                assertTrue(Files.exists(Path.of("/etc/gridcache/zk.conf.dpkg-dist")), "the package's new zk.conf is beside");
                Tools.Result check = Tools.run(APT, "setpriv", "--reuid", "gridcache", "--regid", "gridcache", "--init-groups",
                        "--reset-env", "/usr/bin/gridcache", "check-config", "door");
                assertTrue(check.out().lines().anyMatch(l -> l.matches("port=" + doorPort + " +# /etc/gridcache/door.conf:\\d+")),
                        check.out());
            }
            apt("purge");
            for (String gone : List.of("/usr/bin/gridcache", "/usr/share/gridcache", "/etc/gridcache", "/var/lib/gridcache",
                    "/var/log/gridcache", UNITS.resolve("gridcache-door.service").toString(), "/etc/logrotate.d/gridcache")) {
                assertFalse(Files.exists(Path.of(gone)), gone + " is left after purge");
            }
        } finally {
            stop(units);
            Tools.run(APT, "dpkg", "--purge", "gridcache");
            if (!userThere) {
                Tools.run(APT, "userdel", "gridcache");
                Tools.run(APT, "groupdel", "gridcache");
            }
        }
        assertEquals(userThere, Tools.run(APT, "id", "gridcache").exit() == 0, "the gridcache user is as it was");
    }

    @Test
    void theRpmHasTheLayoutTheScriptsAndTheDependencies() throws Exception {
        Tools.require("rpm");
        Path rpm = newest(TARGET.resolve("rpm/gridcache/RPMS/noarch"), "gridcache-", ".noarch.rpm");
        List<String> files = run("rpm", "-qlp", rpm.toString()).lines().toList();
        for (String f : List.of("/usr/bin/gridcache", "/usr/share/gridcache/bin/gridcache", "/etc/gridcache/zk.conf",
                "/etc/gridcache/door.conf", "/etc/gridcache/pool.conf", "/etc/logrotate.d/gridcache",
                "/usr/lib/systemd/system/gridcache-zk.service", "/usr/lib/systemd/system/gridcache-door.service",
                "/usr/lib/systemd/system/gridcache-pool@.service", "/usr/share/gridcache/monitoring/gridcache-dashboard.json",
                "/usr/share/gridcache/monitoring/gridcache-alerts.yml")) {
            assertTrue(files.contains(f), f + " in " + files);
        }
        assertTrue(files.stream().anyMatch(f -> f.matches("/usr/share/gridcache/lib/gridcache-door-.*\\.jar")), files.toString());
        List<String> config = run("rpm", "-qp", "--configfiles", rpm.toString()).lines().toList();
        assertTrue(config.containsAll(List.of("/etc/gridcache/zk.conf", "/etc/gridcache/door.conf", "/etc/gridcache/pool.conf")),
                config.toString());
        assertTrue(run("rpm", "-qp", "--requires", rpm.toString()).lines().anyMatch("java-17-openjdk-headless"::equals));
        String scripts = run("rpm", "-qp", "--scripts", rpm.toString());
        assertTrue(scripts.contains("postinstall scriptlet") && scripts.contains("/usr/share/gridcache/setup-host.sh"), scripts);
        assertTrue(scripts.contains("preuninstall scriptlet") && scripts.contains("/usr/share/gridcache/stop-services.sh"), scripts);
    }

    /** Root with the tools (CI); a developer who is not root is told why the test does not run, CI fails. */
    private static void requireRootWith(String... tools) {
        Tools.require(tools);
        if (!"root".equals(System.getProperty("user.name"))) {
            String message = "PackagesTest installs a package: it runs as root (as CI does)";
            if ("true".equals(System.getenv("CI"))) {
                Assertions.fail(message);
            }
            Assumptions.abort(message);
        }
    }

    private static Path newest(Path dir, String prefix, String suffix) throws IOException {
        Assertions.assertTrue(Files.isDirectory(dir), dir + " is missing (run mvn package first)");
        try (Stream<Path> files = Files.list(dir)) {
            return files.filter(f -> f.getFileName().toString().startsWith(prefix) && f.getFileName().toString().endsWith(suffix))
                    .max(Comparator.comparingLong(f -> f.toFile().lastModified()))
                    .orElseThrow(() -> new AssertionError("no " + prefix + "*" + suffix + " in " + dir + " (run mvn package first)"));
        }
    }

    private static String run(String... command) {
        return Tools.run(APT, command).assertOk().out();
    }

    private static void apt(String action, String... args) {
        List<String> command = new ArrayList<>(List.of("env", "DEBIAN_FRONTEND=noninteractive", "apt-get", "-y", action));
        command.addAll(List.of(args));
        if (action.equals("purge")) {
            command.add("gridcache");
        }
        run(command.toArray(String[]::new));
    }

    /** Sets {@code key} in a packaged file: its line replaced, else one added (a key set twice is refused). */
    private static void edit(String file, String key, String value) throws IOException {
        String text = Files.readString(Path.of(file));
        String line = key + "=" + value;
        String edited = text.replaceFirst("(?m)^" + key + "=.*$", line);
        Files.writeString(Path.of(file), edited.equals(text) && !text.contains("\n" + line + "\n") ? text + line + "\n" : edited);
    }

    private static void asGridcache(String... command) {
        List<String> c = new ArrayList<>(List.of("setpriv", "--reuid", "gridcache", "--regid", "gridcache", "--init-groups", "--reset-env"));
        c.addAll(List.of(command));
        run(c.toArray(String[]::new));
    }

    /** A unit as systemd would run it: its User, WorkingDirectory, Environment and ExecStart (%i: {@code instance}). */
    private Process start(String unit, String instance, String out) throws IOException {
        List<String> lines = Files.readAllLines(UNITS.resolve(unit));
        String exec = setting(lines, "ExecStart").replace("%i", instance == null ? "" : instance);
        String user = setting(lines, "User");
        return new ProcessBuilder("setpriv", "--reuid", user, "--regid", setting(lines, "Group"), "--init-groups", "--reset-env",
                "env", setting(lines, "Environment"), "sh", "-c", "exec " + exec)
                .directory(Path.of(setting(lines, "WorkingDirectory")).toFile())
                .redirectErrorStream(true).redirectOutput(tmp.resolve(out).toFile()).start();
    }

    private static String setting(List<String> unit, String key) {
        return unit.stream().filter(l -> l.startsWith(key + "=")).findFirst()
                .orElseThrow(() -> new AssertionError("no " + key + "= in the unit")).substring(key.length() + 1);
    }

    private Process await(Process unit, String out) {
        Tools.await(out + " says it is up", Duration.ofSeconds(90), () -> {
            Assertions.assertTrue(unit.isAlive(), () -> out + ": the unit exited: " + read(out));
            return read(out).contains("is up");
        });
        return unit;
    }

    private String read(String out) {
        try {
            return Files.readString(tmp.resolve(out));
        } catch (IOException e) {
            return "";
        }
    }

    private static void stop(List<Process> units) throws InterruptedException {
        for (int i = units.size() - 1; i >= 0; i--) {
            units.get(i).destroy();
            units.get(i).waitFor();
        }
        units.clear();
    }

    /** The .deb again with a higher version and a changed zk.conf, as the next release would be. */
    private Path rebuiltWithHigherVersion(Path deb) throws IOException {
        Path tree = tmp.resolve("upgrade");
        run("dpkg-deb", "-R", deb.toString(), tree.toString());
        Path control = tree.resolve("DEBIAN/control");
        Files.writeString(control, Files.readString(control).replaceFirst("(?m)^(Version: .*)$", "$1+upgrade1"));
        Path zkConf = tree.resolve("etc/gridcache/zk.conf");
        Files.writeString(zkConf, Files.readString(zkConf) + "# changed in the next release\n");
        Path md5sums = tree.resolve("DEBIAN/md5sums");
        Files.writeString(md5sums, Tools.run(APT, "sh", "-c", "cd '" + tree + "' && find etc usr lib -type f -exec md5sum {} +")
                .assertOk().out());
        Path upgraded = tmp.resolve("gridcache-upgrade.deb");
        run("dpkg-deb", "-b", tree.toString(), upgraded.toString());
        return upgraded;
    }
}
