package org.gridcache.systemtest;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The door's status page in a real browser (headless Chromium: what it shows after rendering, and a screenshot kept
 * in target/screenshots/status-page.png), the nearest-first pools API, and a cluster setting changed live with
 * {@code gridcache config set} whose effect shows without a restart.
 */
@Timeout(value = 5, unit = TimeUnit.MINUTES)
class StatusPageTest {
    @TempDir
    static Path tmp;
    static Standalone gridcache;
    static String door;

    @BeforeAll
    static void start() throws Exception {
        Tools.require("curl", "chromium");
        Path origin = Files.createDirectories(tmp.resolve("origin"));
        Tools.randomFile(origin.resolve("f.bin"), 100_000, 71);
        gridcache = Standalone.start(tmp, origin.toString());
        door = gridcache.door();
        Tools.curl("-fL", "-o", "/dev/null", door + "/f.bin").assertOk();
        Tools.curl("-fL", "-o", "/dev/null", door + "/f.bin").assertOk();
    }

    @AfterAll
    static void stop() throws Exception {
        Tools.closeAll(gridcache);
    }

    /** Headless Chromium as the issue prescribes, with a fresh profile; {@code output} is --dump-dom or --screenshot=FILE. */
    static Tools.Result chromium(String output, String url) throws Exception {
        Path profile = Files.createTempDirectory(tmp, "chromium-profile");
        return Tools.run(Duration.ofSeconds(120), "chromium", "--headless", "--no-sandbox", "--disable-gpu",
                "--disable-background-networking", "--disable-component-update", "--no-first-run",
                "--user-data-dir=" + profile, "--window-size=1200,700", output, url);
    }

    @Test
    void theStatusPageRendersInChromiumWithPoolsLoadFreeSpaceHitRateAndPolicy() throws Exception {
        Tools.await("both reads counted in the pool's record", Duration.ofSeconds(30),
                () -> Tools.curl(door + "/.gridcache/status").out().contains("50.0%"));
        String dom = chromium("--dump-dom", door + "/.gridcache/status").assertOk().out();
        for (String shown : List.of("<title>gridcache status</title>", "<b id=\"policy\">affinity</b>",
                "<b id=\"live\">1</b> live", "data-pool=\"pool1\"", "<td>local</td>", "<td class=\"enabled\">enabled</td>",
                "<td class=\"n\">0.00</td>", "GiB of 10.0 GiB", "<td class=\"n\">50.0%</td>", "http-equiv=\"refresh\"")) {
            assertTrue(dom.contains(shown), "'" + shown + "' in the rendered page:\n" + dom);
        }
        Path screenshots = Files.createDirectories(Path.of(System.getProperty("gridcache.target", "target"), "screenshots"));
        Path png = screenshots.resolve("status-page.png");
        Files.deleteIfExists(png);
        chromium("--screenshot=" + png, door + "/.gridcache/status").assertOk();
        assertTrue(Files.size(png) > 10_000, "a screenshot of the page at " + png.toAbsolutePath());
        byte[] head = Files.readAllBytes(png);
        assertEquals((byte) 0x89, head[0]);
        assertEquals('P', head[1]);
    }

    @Test
    void aSiteMapSetLiveMakesThePoolsApiNearestFirstAndABadOneIsRefused() {
        String before = Tools.curl("-f", door + "/.gridcache/api/v1/pools").assertOk().out();
        assertTrue(before.contains("\"site\":null") && before.contains("\"nearest\":false"), before);

        Tools.Result bad = gridcache.admin("config", "set", "door.site-map", "127.0.0.0/33=local");
        assertNotEquals(0, bad.exit());
        assertTrue(bad.err().contains("door.site-map") && bad.err().contains("prefix length must be 0 to 32"), bad.err());

        gridcache.admin("config", "set", "door.site-map", "10.0.0.0/8=cern,127.0.0.0/8=local").assertOk();
        try {
            Tools.await("the door to apply the site map without a restart", Duration.ofSeconds(30),
                    () -> Tools.curl(door + "/.gridcache/api/v1/pools").out().contains("\"site\":\"local\""));
            String after = Tools.curl("-f", door + "/.gridcache/api/v1/pools").assertOk().out();
            assertTrue(after.startsWith("{\"client\":\"127.0.0.1\",\"site\":\"local\",\"policy\":\"affinity\",\"pools\":[{\"id\":\"pool1\""), after);
            assertTrue(after.contains("\"nearest\":true"), after);
        } finally {
            gridcache.admin("config", "unset", "door.site-map").assertOk();
        }
    }
}
