package org.gridcache.systemtest;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
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
    static Path data;

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
        Path key = tmp.resolve("ticket.key");
        // the settings file carries what both nodes share, as an admin would write it
        Path conf = tmp.resolve("gridcache.properties");
        Files.writeString(conf, "zk=" + zkConnect + "\nticket-key=" + key + "\nlog-dir=" + tmp.resolve("logs") + "\nplain-http=true\n");
        pool = Gridcache.start(tmp.resolve("pool.out"), "pool", "--config", conf.toString(), "--name", "p1",
                "--store", tmp.resolve("store").toString(), "--capacity", "1G", "--port", String.valueOf(Tools.freePort()))
                .awaitOutput("is up");
        int doorPort = Tools.freePort();
        door = Gridcache.start(tmp.resolve("door.out"), "door", "--config", conf.toString(), "--port", String.valueOf(doorPort))
                .awaitOutput("is up");
        doorUrl = "http://127.0.0.1:" + doorPort;
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

    @Test
    void noPoolMeans503() throws Exception {
        pool.close();
        try {
            Tools.await("the door to see no pool", Duration.ofSeconds(60), () ->
                    Tools.curl("-o", "/dev/null", "-w", "%{http_code}", doorUrl + "/atlas/data/one.bin").out().equals("503"));
            Tools.Result r = Tools.curl(doorUrl + "/atlas/data/one.bin").assertOk();
            assertTrue(r.out().contains("no pool"), r.out());
        } finally {
            pool = Gridcache.start(tmp.resolve("pool2.out"), "pool", "--config", tmp.resolve("gridcache.properties").toString(),
                    "--name", "p1", "--store", tmp.resolve("store").toString(), "--capacity", "1G",
                    "--port", String.valueOf(Tools.freePort())).awaitOutput("is up");
            Tools.await("the door to redirect to the restarted pool", Duration.ofSeconds(60), () ->
                    Tools.curl("-o", "/dev/null", "-w", "%{http_code}", doorUrl + "/atlas/data/one.bin").out().equals("302"));
        }
    }
}
