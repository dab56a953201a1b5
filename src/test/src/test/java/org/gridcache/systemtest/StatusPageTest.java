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
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The door's status page in a real browser (headless Chromium: what it shows after rendering, and a screenshot kept
 * in target/screenshots/status-page.png), the nearest-first pools API, and a cluster setting changed live with
 * {@code gridcache config set} whose effect shows without a restart.
 */
@Timeout(value = 5, unit = TimeUnit.MINUTES)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
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
                "<td class=\"n\">0.00</td>", "GiB of 10.0 GiB", "<td class=\"n\">50.0%</td>", "http-equiv=\"refresh\"",
                "(1 hit, 1 miss)")) {
            assertTrue(dom.contains(shown), "'" + shown + "' in the rendered page:\n" + dom);
        }
        Path screenshots = Files.createDirectories(Path.of(System.getProperty("gridcache.target", "target"), "screenshots"));
        Path png = screenshots.resolve("status-page.png");
        Files.deleteIfExists(png);
        chromium("--screenshot=" + png, door + "/.gridcache/status").assertOk();
        assertTrue(Files.size(png) > 10_000, "a screenshot of the page at " + png.toAbsolutePath());
        assertTrue(java.util.regex.Pattern.compile("<td class=\"used\"><span class=\"bar\">.*</span> [0-9]+\\.[0-9]%</td>")
                .matcher(dom).find(), "the used-space bar shows its figure:\n" + dom);
        byte[] head = Files.readAllBytes(png);
        assertEquals((byte) 0x89, head[0]);
        assertEquals('P', head[1]);
    }

    /**
     * Issue 42 item 5: the pool's "Out" moves while a long plain-HTTP hit runs (a 20-second read at 8 MB/s), not only
     * after it ended: the bytes of a zero-copy send are counted as they go. Last: it adds reads the others count.
     */
    @Test
    @Order(Integer.MAX_VALUE)
    void outMovesWhileALongHitRuns() throws Exception {
        Path file = Tools.randomFile(tmp.resolve("origin/long.bin"), 160L << 20, 72);
        Tools.curl("-fL", "-o", "/dev/null", door + "/long.bin").assertOk(); // now a hit
        Tools.await("the first read's rate gone from the pool's record", Duration.ofSeconds(30), () -> outRate().equals("0 B"));
        Process slow = new ProcessBuilder("curl", "-sfL", "--limit-rate", "8M", "-o", "/dev/null", door + "/long.bin")
                .redirectErrorStream(true).start();
        try {
            Tools.await("Out to move during the hit", Duration.ofSeconds(15), () -> !outRate().equals("0 B"));
            assertTrue(slow.isAlive(), "the hit still runs while Out shows " + outRate());
        } finally {
            slow.destroy();
            slow.waitFor();
        }
        Files.delete(file);
    }

    /** The pool's "Out" cell without its {@code /s}. */
    private static String outRate() {
        java.util.regex.Matcher m = java.util.regex.Pattern.compile("<td class=\"n\">([^<]*)/s</td>")
                .matcher(Tools.curl(door + "/.gridcache/status").out());
        return m.find() ? m.group(1) : "?";
    }

    /** The status page wears the listing pages' stylesheet: linked, served as CSS, and taken by the browser. */
    @Test
    void theStatusPageLooksLikeTheListingPages() throws Exception {
        String page = Tools.curl("-f", door + "/.gridcache/status").assertOk().out();
        assertTrue(page.contains("<link rel=\"stylesheet\" href=\"/.gridcache/style.css\">"), page);
        assertTrue(page.contains("<meta http-equiv=\"refresh\" content=\"5\">"), "still refreshed live: " + page);
        assertTrue(page.contains("<nav class=\"top\"><a href=\"/\">Browse files</a></nav>"), page);
        Tools.Result css = Tools.curl("-sf", "-D", "-", "-o", "/dev/null", door + "/.gridcache/style.css").assertOk();
        assertTrue(css.out().toLowerCase().contains("content-type: text/css; charset=utf-8"), css.out());
        // Chromium applies a stylesheet of a standards-mode page only when it is served as text/css
        try (HeadlessChromium chromium = HeadlessChromium.start(tmp)) {
            chromium.open(door + "/.gridcache/status");
            assertEquals(door + "/.gridcache/style.css", chromium.evaluate("document.styleSheets[0].href").asText());
            assertTrue(chromium.evaluate("document.styleSheets[0].cssRules.length").asInt() > 10, "its rules were taken");
            assertEquals("rgb(31, 95, 168)", chromium.evaluate("getComputedStyle(document.querySelector('nav.top a')).color")
                    .asText(), "a link in the listing pages' blue");
        }
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
