package org.gridcache.systemtest;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
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
 * The parts as separate processes, as on a cluster: {@code gridcache zk}, {@code pool}, {@code door}, and the admin
 * commands {@code origins} and {@code config} that change the running cluster through ZooKeeper. The processes are
 * started once for the class; a test that changes the cluster puts it back, so the tests run in any order.
 */
@Timeout(value = 5, unit = TimeUnit.MINUTES)
class ClusterProcessesTest {
    @TempDir
    static Path tmp;
    static NginxOrigin origin;
    static Gridcache zk;
    static Gridcache pool;
    static Gridcache door;
    static String zkConnect;
    static String doorUrl;
    static int doorPort;
    static Path data;
    static Path conf;
    static Path doorKey;

    @BeforeAll
    static void start() throws Exception {
        Tools.require("curl", "nginx");
        data = Files.createDirectories(tmp.resolve("data"));
        Tools.randomFile(data.resolve("one.bin"), 2 << 20, 21);
        Tools.randomFile(data.resolve("two.bin"), 2 << 20, 22);
        origin = NginxOrigin.start(tmp.resolve("nginx"), data);
        int zkPort = Tools.freePort();
        zkConnect = "127.0.0.1:" + zkPort;
        zk = Gridcache.start(tmp.resolve("zk.out"), "zk", "--home", tmp.resolve("zk").toString(), "--port", String.valueOf(zkPort))
                .awaitOutput("is up");
        Gridcache.admin("origins", "add", "atlas", "--prefix", "/atlas/data", "--url", origin.url(), "--zk", zkConnect).assertOk();
        // the settings file carries what both nodes share, as an admin would write it
        conf = tmp.resolve("gridcache.properties");
        Files.writeString(conf, "zk=" + zkConnect + "\nlog-dir=" + tmp.resolve("logs") + "\nplain-http=true\n");
        pool = Gridcache.start(tmp.resolve("pool.out"), "pool", "--config", conf.toString(), "--name", "p1",
                "--store", tmp.resolve("store").toString(), "--capacity", "1G", "--port", String.valueOf(Tools.freePort()))
                .awaitOutput("is up");
        doorPort = Tools.freePort();
        doorKey = tmp.resolve("keys/door.jwk");
        door = startDoor("door.out");
        doorUrl = "http://127.0.0.1:" + doorPort;
    }

    private static Gridcache startDoor(String out, String... extra) throws Exception {
        List<String> args = new ArrayList<>(List.of("door", "--config", conf.toString(), "--port", String.valueOf(doorPort),
                "--signing-key", doorKey.toString()));
        args.addAll(List.of(extra));
        return Gridcache.start(tmp.resolve(out), args.toArray(String[]::new)).awaitOutput("is up");
    }

    @AfterAll
    static void stop() throws Exception {
        Tools.closeAll(origin, zk, pool, door);
    }

    @Test
    void aMountedOriginIsReadThroughTheSeparatePool() throws Exception {
        Tools.Result list = Tools.curl("-X", "PROPFIND", "-H", "Depth: 1", doorUrl + "/").assertOk();
        assertTrue(list.out().contains("atlas"), "mount point shown at the root: " + list.out());
        Path out = tmp.resolve("one.out");
        Tools.curl("-fL", "-o", out.toString(), doorUrl + "/atlas/data/one.bin").assertOk();
        assertEquals(Tools.sha256(data.resolve("one.bin")), Tools.sha256(out));
        String origins = Gridcache.admin("origins", "list", "--zk", zkConnect).assertOk().out();
        assertTrue(origins.contains("atlas") && origins.contains("/atlas/data") && origins.contains(origin.url().replaceAll("/$", "")), origins);
    }

    @Test
    void redirectOnReadFalseMakesTheDoorStreamTheDataLive() throws Exception {
        Gridcache.admin("config", "set", "redirect.on-read", "false", "--zk", zkConnect).assertOk();
        try {
            Tools.await("the door to apply redirect.on-read=false", Duration.ofSeconds(30), () ->
                    Tools.curl("-o", "/dev/null", "-w", "%{http_code}", doorUrl + "/atlas/data/two.bin").out().equals("200"));
            Path out = tmp.resolve("two.out");
            Tools.curl("-f", "-o", out.toString(), doorUrl + "/atlas/data/two.bin").assertOk();
            assertEquals(Tools.sha256(data.resolve("two.bin")), Tools.sha256(out));
            assertEquals("false", Gridcache.admin("config", "get", "redirect.on-read", "--zk", zkConnect).assertOk().out().trim());
        } finally {
            Gridcache.admin("config", "unset", "redirect.on-read", "--zk", zkConnect).assertOk();
        }
        Tools.await("the door to redirect again", Duration.ofSeconds(30), () ->
                Tools.curl("-o", "/dev/null", "-w", "%{http_code}", doorUrl + "/atlas/data/two.bin").out().equals("302"));
    }

    @Test
    void theCliRefusesAnInvalidSettingWithAReason() {
        Tools.Result r = Gridcache.admin("config", "set", "ticket.lifetime", "soon", "--zk", zkConnect);
        assertNotEquals(0, r.exit());
        assertTrue(r.err().contains("ticket.lifetime"), r.err());
        Tools.Result unknown = Gridcache.admin("config", "set", "no.such.key", "1", "--zk", zkConnect);
        assertNotEquals(0, unknown.exit());
        assertTrue(unknown.err().contains("unknown setting"), unknown.err());
    }

    /**
     * docs/admin-guide.md, "A door's ticket key": restarted with a new key and the old one as previous, the door signs
     * with the new key while tickets signed with the old stay valid at the pool; restarted without it, they are refused.
     */
    @Test
    void aDoorKeyRollOverKeepsOldTicketsValidUntilThePreviousKeyIsRetired() throws Exception {
        String before = redirect("/atlas/data/one.bin");
        assertEquals("200", status(before), "a fresh ticket is served");
        door.close();
        Path previous = tmp.resolve("keys/door.previous.jwk");
        Files.move(doorKey, previous);
        door = startDoor("door-rolling.out", "--previous-signing-key", previous.toString());
        Tools.await("the pool to trust the door's keys again", Duration.ofSeconds(30), () -> status(before).equals("200"));
        String after = redirect("/atlas/data/one.bin");
        assertNotEquals(kid(before), kid(after), "signed with the new key");
        Path out = tmp.resolve("rolled.out");
        Tools.curl("-f", "-o", out.toString(), before).assertOk();
        assertEquals(Tools.sha256(data.resolve("one.bin")), Tools.sha256(out), "the old ticket still reads the file");

        door.close();
        door = startDoor("door-rolled.out");
        Tools.await("the pool to trust the door's new key", Duration.ofSeconds(30), () -> status(after).equals("200"));
        Tools.Result refused = Tools.curl("-s", "-w", "\n%{http_code}", before);
        assertTrue(refused.out().endsWith("403"), refused.out());
        assertTrue(refused.out().contains("does not publish (unknown or retired key)"), refused.out());
    }

    private static String redirect(String path) {
        String location = Tools.curl("-s", "-o", "/dev/null", "-w", "%{redirect_url}", doorUrl + path).assertOk().out().trim();
        assertTrue(location.contains("gridcache-ticket="), location);
        return location;
    }

    private static String status(String url) {
        return Tools.curl("-s", "-o", "/dev/null", "-w", "%{http_code}", url).out().trim();
    }

    /** The {@code kid} of the JWS header of a pool URL's ticket. */
    private static String kid(String poolUrl) {
        String jws = poolUrl.substring(poolUrl.indexOf("gridcache-ticket=") + "gridcache-ticket=".length());
        String header = new String(Base64.getUrlDecoder().decode(jws.substring(0, jws.indexOf('.'))), StandardCharsets.UTF_8);
        Matcher kid = Pattern.compile("\"kid\"\\s*:\\s*\"([^\"]+)\"").matcher(header);
        assertTrue(kid.find(), header);
        return kid.group(1);
    }

    @Test
    void noPoolMeans503() throws Exception {
        pool.close();
        try {
            Tools.await("the door to see no pool", Duration.ofSeconds(60), () ->
                    Tools.curl("-o", "/dev/null", "-w", "%{http_code}", doorUrl + "/atlas/data/one.bin").out().equals("503"));
            Tools.Result r = Tools.curl(doorUrl + "/atlas/data/one.bin").assertOk();
            assertTrue(r.out().contains("no pool"), r.out());
            // a plain-HTTP door authenticates no one, and a third-party copy is for authenticated clients only
            Tools.Result copy = Tools.curl("-w", "\n%{http_code}", "-X", "COPY", "-H", "Destination: http://remote.example/one.bin",
                    doorUrl + "/atlas/data/one.bin").assertOk();
            assertTrue(copy.out().strip().endsWith("401") && copy.out().contains("a third-party copy needs an X.509 certificate"),
                    "an anonymous third-party copy is refused before a pool is chosen: " + copy.out());
        } finally {
            pool = Gridcache.start(tmp.resolve("pool2.out"), "pool", "--config", tmp.resolve("gridcache.properties").toString(),
                    "--name", "p1", "--store", tmp.resolve("store").toString(), "--capacity", "1G",
                    "--port", String.valueOf(Tools.freePort())).awaitOutput("is up");
            Tools.await("the door to redirect to the restarted pool", Duration.ofSeconds(60), () ->
                    Tools.curl("-o", "/dev/null", "-w", "%{http_code}", doorUrl + "/atlas/data/one.bin").out().equals("302"));
        }
    }
}
