package org.gridcache.systemtest;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
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
 * Issue 42 item 8: the door's listing page and its sign-in page in a real browser (headless Chromium against the
 * distribution; screenshots in target/screenshots/): readable sizes with the exact bytes on hover, breadcrumbs, a
 * mount point's origin and mount date, sorting, names escaped, the door's stylesheet; and at an HTTPS door a browser
 * without a certificate gets a page saying how to get in, while curl gets the 401 it always got.
 */
@Timeout(value = 8, unit = TimeUnit.MINUTES)
class ListingPageTest {
    /** A name an origin could hand out to attack the page: tags and both quotes. */
    static final String HOSTILE = "<img src=x onerror=\"document.title='pwned'\"> <script>.txt";
    @TempDir
    static Path tmp;
    static Standalone plain;
    static Standalone https;
    static String door;
    static Path pki;

    @BeforeAll
    static void start() throws Exception {
        Tools.require("curl", "chromium");
        Path data = Files.createDirectories(tmp.resolve("data"));
        Tools.randomFile(data.resolve("dir/sub/big.bin"), 16L << 20, 81);
        Tools.randomFile(data.resolve("dir/sub/small.bin"), 1_000, 82);
        Files.writeString(data.resolve("dir/sub/medium.txt"), "m".repeat(300_000));
        Files.writeString(data.resolve(HOSTILE), "escaped\n");
        sortable(data.resolve("sort"));
        Path extra = Files.createDirectories(tmp.resolve("extra"));
        Files.writeString(extra.resolve("e.txt"), "extra\n");
        plain = Standalone.start(Files.createDirectories(tmp.resolve("plain")), data.toString(), "--file-origin-root", extra.toString());
        door = plain.door();
        plain.admin("origins", "add", "extra", "--prefix", "/extra", "--url", extra.toUri().toString()).assertOk();
        Tools.await("the door to serve the /extra mount", Duration.ofSeconds(30),
                () -> Tools.curl("-o", "/dev/null", "-w", "%{http_code}", door + "/extra/e.txt").out().equals("302"));
        Path pkiParent = GridEnv.worldReadableDir("gridcache-listing-pki");
        pki = GridEnv.pki(pkiParent.resolve("pki"));
        https = Standalone.startHttps(Files.createDirectories(tmp.resolve("https")), data.toString(), pki);
    }

    /**
     * Three files whose orders by name, size and date all differ, sizes whose readable texts sort otherwise than their
     * bytes ("16.0 MiB" &lt; "2.0 KiB" &lt; "900 B" as text, 2.0 &lt; 16.0 &lt; 900 as numbers), and a collection.
     */
    private static void sortable(Path dir) throws Exception {
        Files.createDirectories(dir.resolve("delta"));
        Object[][] files = {{"alpha.bin", 2048L, "2021-03-01T00:00:00Z"}, {"beta.bin", 16L << 20, "2023-03-01T00:00:00Z"},
                {"gamma.bin", 900L, "2022-03-01T00:00:00Z"}};
        for (Object[] f : files) {
            Path file = Tools.randomFile(dir.resolve((String) f[0]), (Long) f[1], 90);
            Files.setLastModifiedTime(file, java.nio.file.attribute.FileTime.from(java.time.Instant.parse((String) f[2])));
        }
    }

    @AfterAll
    static void stop() throws Exception {
        Tools.closeAll(plain, https);
    }

    /** Headless Chromium with a fresh profile; {@code output} is --dump-dom or --screenshot=FILE. */
    static Tools.Result chromium(String output, String url) throws Exception {
        Path profile = Files.createTempDirectory(tmp, "chromium-profile");
        return Tools.run(Duration.ofSeconds(120), "chromium", "--headless", "--no-sandbox", "--disable-gpu",
                "--disable-background-networking", "--disable-component-update", "--no-first-run",
                "--ignore-certificate-errors", "--user-data-dir=" + profile, "--window-size=1100,600", output, url);
    }

    /** A screenshot of {@code url} in target/screenshots/{@code name}, its path logged. */
    static Path screenshot(String name, String url) throws Exception {
        Path screenshots = Files.createDirectories(Path.of(System.getProperty("gridcache.target", "target"), "screenshots"));
        Path png = screenshots.resolve(name);
        Files.deleteIfExists(png);
        chromium("--screenshot=" + png, url).assertOk();
        System.out.println("screenshot of " + url + ": " + png.toAbsolutePath());
        assertTrue(Files.size(png) > 10_000, "a screenshot of the page at " + png.toAbsolutePath());
        return png;
    }

    static void assertShows(String dom, String... shown) {
        for (String s : shown) {
            assertTrue(dom.contains(s), "'" + s + "' in the rendered page:\n" + dom);
        }
    }

    /** The names of the listing's rows, top to bottom. */
    static List<String> rowNames(String dom) {
        Matcher m = Pattern.compile("<td class=\"name\"><a href=\"[^\"]*\">([^<]*)</a>").matcher(dom);
        List<String> names = new java.util.ArrayList<>();
        while (m.find()) {
            names.add(m.group(1));
        }
        return names;
    }

    @Test
    void aCollectionRendersWithReadableSizesBreadcrumbsAndTheStatusLink() throws Exception {
        String dom = chromium("--dump-dom", door + "/dir/sub/").assertOk().out();
        assertShows(dom, "<title>Index of /dir/sub/</title>",
                "<h1 id=\"crumbs\">Index of <a href=\"/\">/</a><a href=\"/dir/\">dir</a>/<span aria-current=\"page\">sub</span>/</h1>",
                "<td class=\"n\" title=\"16777216 bytes\">16.0 MiB</td>", "<td class=\"n\" title=\"300000 bytes\">293.0 KiB</td>",
                "<td class=\"n\" title=\"1000 bytes\">1000 B</td>", "<a href=\"/.gridcache/status\">Cache status</a>",
                "<a href=\"/dir/\">../</a>", "0 collections, 3 files");
        assertEquals(List.of("../", "big.bin", "medium.txt", "small.bin"), rowNames(dom));
        screenshot("listing-page.png", door + "/dir/sub/");
    }

    @Test
    void theRootShowsEachMountPointsOriginAndMountDate() throws Exception {
        String dom = chromium("--dump-dom", door + "/").assertOk().out();
        assertShows(dom, "<th>Origin</th>", "<tr class=\"mount\"", "<a href=\"/extra/\">extra/</a>",
                "<td class=\"origin\"><b>extra</b> <span class=\"local\">(a directory of the cache's hosts)</span></td>",
                "<p class=\"served\">From origin <b>");
        Matcher mounted = Pattern.compile("<tr class=\"mount\"[^>]*>.*?<td>mounted <time datetime=\"(\\d{4}-\\d\\d-\\d\\dT[^\"]+)\">")
                .matcher(dom);
        assertTrue(mounted.find(), "the mount date of /extra:\n" + dom);
        assertFalse(dom.contains(tmp.toString()), "no directory of the cache's host in the page:\n" + dom);
        screenshot("listing-root.png", door + "/");
    }

    @Test
    void theColumnsSortWithoutTheScript() throws Exception {
        String bySize = chromium("--dump-dom", door + "/dir/sub/?sort=size&order=desc").assertOk().out();
        assertEquals(List.of("../", "big.bin", "medium.txt", "small.bin"), rowNames(bySize));
        assertShows(bySize, "<th data-key=\"size\" aria-sort=\"descending\" class=\"n\"><a href=\"?sort=size\">Size</a></th>");
        String bySizeUp = chromium("--dump-dom", door + "/dir/sub/?sort=size").assertOk().out();
        assertEquals(List.of("../", "small.bin", "medium.txt", "big.bin"), rowNames(bySizeUp));
    }

    /**
     * The page's script sorts in place when a header is clicked (the page is not reloaded: the links' server-side
     * sorting is not what the test sees): ascending, then descending on a second click; collections stay first; sizes
     * by their exact bytes, not by the readable text.
     */
    @Test
    void clickingAColumnHeaderSortsTheRowsInThePage() throws Exception {
        try (HeadlessChromium chromium = HeadlessChromium.start(tmp)) {
            String page = door + "/sort/";
            chromium.open(page);
            chromium.evaluate("window.notReloaded = true");
            assertEquals(List.of("delta", "alpha.bin", "beta.bin", "gamma.bin"), rowNames(chromium));
            assertShows(chromium.evaluate("document.querySelector('#listing tbody').innerHTML").asText(),
                    "<td class=\"n\" title=\"900 bytes\">900 B</td>", "<td class=\"n\" title=\"2048 bytes\">2.0 KiB</td>",
                    "<td class=\"n\" title=\"16777216 bytes\">16.0 MiB</td>");

            // the page came sorted by name ascending: name's first click turns it round
            sortBy(chromium, "name", "descending", "delta", "gamma.bin", "beta.bin", "alpha.bin");
            sortBy(chromium, "name", "ascending", "delta", "alpha.bin", "beta.bin", "gamma.bin");
            sortBy(chromium, "size", "ascending", "delta", "gamma.bin", "alpha.bin", "beta.bin");
            sortBy(chromium, "size", "descending", "delta", "beta.bin", "alpha.bin", "gamma.bin");
            sortBy(chromium, "modified", "ascending", "delta", "alpha.bin", "gamma.bin", "beta.bin");
            sortBy(chromium, "modified", "descending", "delta", "beta.bin", "gamma.bin", "alpha.bin");
            // a column sorted by another before starts ascending again
            sortBy(chromium, "name", "ascending", "delta", "alpha.bin", "beta.bin", "gamma.bin");
            sortBy(chromium, "size", "ascending", "delta", "gamma.bin", "alpha.bin", "beta.bin");

            assertEquals(page, chromium.evaluate("location.href").asText(), "sorted in the page, not by a link");
            assertTrue(chromium.evaluate("window.notReloaded === true").asBoolean(), "the same document, not reloaded");
            assertEquals("up", chromium.evaluate("document.querySelector('#listing tbody tr').className").asText(),
                    "../ stays the first row");
            Path png = Files.createDirectories(Path.of(System.getProperty("gridcache.target", "target"), "screenshots"))
                    .resolve("listing-sorted-by-size.png");
            chromium.screenshot(png);
            System.out.println("screenshot of " + page + " sorted by size: " + png.toAbsolutePath());
        }
    }

    /** Clicks the header of {@code key}, then asserts its {@code aria-sort} and the rows' names top to bottom. */
    private static void sortBy(HeadlessChromium chromium, String key, String ariaSort, String... names) {
        String header = "#listing th[data-key=\"" + key + "\"]";
        chromium.click(header + " a");
        Tools.await("the " + key + " header to show " + ariaSort, Duration.ofSeconds(10),
                () -> ariaSort.equals(chromium.evaluate("document.querySelector('" + header + "').getAttribute('aria-sort')").asText()));
        assertEquals(List.of(names), rowNames(chromium), "sorted by " + key + ", " + ariaSort);
        assertEquals(1, chromium.evaluate("document.querySelectorAll('#listing th[data-key]:not([aria-sort=\"none\"])').length")
                .asInt(), "one header shows the order");
    }

    /** The names of the rows in the page now ({@code data-name}: without a collection's slash), top to bottom. */
    private static List<String> rowNames(HeadlessChromium chromium) {
        List<String> names = new java.util.ArrayList<>();
        chromium.evaluate("Array.prototype.map.call(document.querySelectorAll('#listing tbody tr[data-name]'),"
                + " function (r) { return r.dataset.name; })").forEach(n -> names.add(n.asText()));
        return names;
    }

    @Test
    void aHostileNameIsShownAsTextAndRunsNothing() throws Exception {
        String dom = chromium("--dump-dom", door + "/").assertOk().out();
        assertShows(dom, "<title>Index of /</title>",
                ">&lt;img src=x onerror=\"document.title='pwned'\"&gt; &lt;script&gt;.txt</a>");
        assertFalse(dom.contains("pwned</title>") || dom.contains("<img src=\"x\""), dom);
        assertFalse(dom.contains("<script>.txt"), dom);
        Tools.Result read = Tools.curl("-sfL", door + "/" + org.gridcache.common.UrlCodec.encodePath("/" + HOSTILE).substring(1));
        assertEquals("escaped\n", read.assertOk().out(), "its link leads to the file");
    }

    @Test
    void theStylesheetIsOneCacheableResource() {
        Tools.Result css = Tools.curl("-sf", "-D", "-", door + "/.gridcache/style.css").assertOk();
        String lower = css.out().toLowerCase();
        assertTrue(lower.contains("content-type: text/css") && lower.contains("cache-control: public, max-age=86400"), css.out());
        Matcher etag = Pattern.compile("(?i)etag: (\"[0-9a-f]+\")").matcher(css.out());
        assertTrue(etag.find(), css.out());
        Tools.Result again = Tools.curl("-s", "-o", "/dev/null", "-w", "%{http_code}", "-H", "If-None-Match: " + etag.group(1),
                door + "/.gridcache/style.css");
        assertEquals("304", again.out());
    }

    @Test
    void aBrowserWithoutACertificateAtAnHttpsDoorIsToldHowToGetIn() throws Exception {
        String root = https.door() + "/dir/";
        String dom = chromium("--dump-dom", root).assertOk().out();
        assertShows(dom, "<h1 id=\"sign-in\">Sign in to read this</h1>", "authentication required", "id=\"certificate\"",
                "openssl pkcs12 -export", "Authorization: Bearer", "gridcache delegate --proxy /tmp/x509up_u$(id -u) "
                        + https.door() + "</pre>", "curl -L --capath /etc/grid-security/certificates");
        screenshot("sign-in-page.png", root);
    }

    /** curl, davix, gfal2, cadaver, davfs2: no text/html in their Accept, so the 401 is the one they always got. */
    @Test
    void otherClientsKeepTheirPlainAnswerAndTheBrowserTheSameStatusAndHeaders() {
        String capath = pki.resolve("certificates").toString();
        Tools.Result client = Tools.curl("-s", "-D", "-", "--capath", capath, https.door() + "/dir/");
        assertTrue(client.out().startsWith("HTTP/1.1 401"), client.out());
        assertTrue(client.out().toLowerCase().contains("content-type: text/plain"), client.out());
        assertTrue(client.out().strip().endsWith("authentication required: present an X.509 certificate, a proxy or a bearer token"
                + " to list /dir"), client.out());
        Tools.Result browser = Tools.curl("-s", "-D", "-", "--capath", capath, "-H", "Accept: text/html,application/xhtml+xml",
                https.door() + "/dir/");
        assertTrue(browser.out().startsWith("HTTP/1.1 401"), browser.out());
        assertTrue(browser.out().toLowerCase().contains("content-type: text/html"), browser.out());
        assertEquals(headerNames(client.out()), headerNames(browser.out()), "the same headers but for the body's");
    }

    private static List<String> headerNames(String response) {
        return response.substring(0, response.indexOf("\r\n\r\n")).lines().skip(1).map(l -> l.substring(0, l.indexOf(':')).toLowerCase())
                .filter(h -> !h.equals("content-type") && !h.equals("content-length") && !h.equals("date")).sorted().toList();
    }
}
