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

/** {@code gridcache standalone --origin DIR}: a local directory as origin, listed, read, and shown to browsers. */
@Timeout(value = 5, unit = TimeUnit.MINUTES)
class LocalOriginTest {
    @TempDir
    static Path tmp;
    static Standalone gridcache;
    static String door;
    static Path data;

    @BeforeAll
    static void start() throws Exception {
        Tools.require("curl");
        data = Files.createDirectories(tmp.resolve("data"));
        Tools.randomFile(data.resolve("dir/x.bin"), 5 << 20, 11);
        Files.writeString(data.resolve("a <b> & c.txt"), "escaped\n");
        // for the swaps: files the door resolves, and same-size secrets outside the origin root
        Tools.randomFile(data.resolve("swap/file.bin"), 100_000, 12);
        Tools.randomFile(data.resolve("swap/sub/file.bin"), 100_000, 13);
        Tools.randomFile(tmp.resolve("secret.bin"), 100_000, 14);
        Tools.randomFile(tmp.resolve("elsewhere/file.bin"), 100_000, 14);
        Files.writeString(Files.createDirectories(tmp.resolve("extra")).resolve("e.txt"), "extra\n");
        gridcache = Standalone.start(tmp, data.toString(), "--file-origin-root", tmp.resolve("extra").toString());
        door = gridcache.door();
    }

    @AfterAll
    static void stop() throws Exception {
        Tools.closeAll(gridcache);
    }

    @Test
    void listsAndReadsALocalDirectory() throws Exception {
        Tools.Result list = Tools.curl("-X", "PROPFIND", "-H", "Depth: 1", "-w", "\n%{http_code}", door + "/dir/").assertOk();
        assertTrue(list.out().endsWith("207") && list.out().contains("x.bin"), list.out());
        Path out = tmp.resolve("x.out");
        Tools.curl("-fL", "-o", out.toString(), door + "/dir/x.bin").assertOk();
        assertEquals(Tools.sha256(data.resolve("dir/x.bin")), Tools.sha256(out));
    }

    @Test
    void aBrowserGetsAReadableHtmlListing() {
        Tools.Result r = Tools.curl("-H", "Accept: text/html", "-D", "-", door + "/").assertOk();
        assertTrue(r.out().contains("200") && r.out().toLowerCase().contains("content-type: text/html"), r.out());
        assertTrue(r.out().contains("dir/") && r.out().contains("a &lt;b&gt; &amp; c.txt"), r.out());
    }

    /**
     * The door resolves the file and redirects; before the client follows, the file is swapped for a link of the same
     * size to a secret outside the root: the pool refuses with 403 and its reason, and never sends the secret's bytes.
     */
    @Test
    void aFileSwappedForALinkAfterTheRedirectIsRefused() throws Exception {
        String location = redirect("/swap/file.bin");
        Path file = data.resolve("swap/file.bin");
        Files.delete(file);
        Files.createSymbolicLink(file, tmp.resolve("secret.bin"));
        assertRefusedAsALink(location);
    }

    /** The same with a directory on the way replaced by a link to a directory outside holding a same-named file. */
    @Test
    void aDirectorySwappedForALinkAfterTheRedirectIsRefused() throws Exception {
        String location = redirect("/swap/sub/file.bin");
        Path sub = data.resolve("swap/sub");
        Files.move(sub, tmp.resolve("sub-moved"));
        Files.createSymbolicLink(sub, tmp.resolve("elsewhere"));
        assertRefusedAsALink(location);
        // the door's namespace hides the link too, once its cached entry expires (door.listing-cache-ttl)
        Tools.await("the door to stop showing a file behind a link", Duration.ofSeconds(30),
                () -> Tools.curl("-I", door + "/swap/sub/file.bin").assertOk().out().startsWith("HTTP/1.1 404"));
    }

    private static String redirect(String path) {
        Tools.Result r = Tools.curl("-s", "-o", "/dev/null", "-w", "%{http_code} %{redirect_url}", door + path).assertOk();
        assertTrue(r.out().startsWith("302 http"), r.out());
        return r.out().substring(4).trim();
    }

    private static void assertRefusedAsALink(String location) throws Exception {
        Path out = tmp.resolve("refused.out");
        Tools.Result r = Tools.curl("-s", "-o", out.toString(), "-w", "%{http_code}", location).assertOk();
        String body = Files.readString(out);
        assertEquals("403", r.out(), body);
        assertEquals("origin file not served: a symbolic link below the origin root is not followed", body.trim());
        assertNotEquals(Tools.sha256(tmp.resolve("secret.bin")), Tools.sha256(out));
    }

    /**
     * Standalone lets its door and pool read file:// origins only from its --origin directory: a mount added for a
     * sibling that shares the directory's name as a prefix ({@code data2} beside {@code data}) is refused by the door
     * with 403 and the setting, while the origin itself goes on serving. ({@code origins add} refuses such a mount
     * itself: {@code --no-check} writes it, as an older admin client would, to show the door's own refusal.)
     */
    @Test
    void aFileOriginBesideTheStandaloneOriginIsRefused() throws Exception {
        Path sibling = Files.createDirectories(tmp.resolve("data2"));
        Files.writeString(sibling.resolve("secret.txt"), "secret\n");
        gridcache.admin("origins", "add", "sibling", "--prefix", "/sibling", "--url", sibling.toUri().toString(), "--no-check").assertOk();
        Path out = tmp.resolve("sibling.out");
        Tools.await("the door to see the sibling mount", Duration.ofSeconds(30), () -> !Tools.curl("-s", "-o", out.toString(),
                "-w", "%{http_code}", door + "/sibling/secret.txt").assertOk().out().equals("404"));
        Tools.Result r = Tools.curl("-s", "-o", out.toString(), "-w", "%{http_code}", door + "/sibling/secret.txt").assertOk();
        assertEquals("403", r.out(), Files.readString(out));
        assertEquals("origin sibling is not served: the origin directory is not at or below a --file-origin-root of this node",
                Files.readString(out).trim());
        Path log = gridcache.home().resolve("logs/standalone.log");
        Tools.await("the refusal's log line", Duration.ofSeconds(10),
                () -> Tools.readLog(log).contains("origin sibling (file://" + sibling));
        Tools.curl("-f", "-o", "/dev/null", door + "/dir/x.bin", "-L").assertOk();
    }

    /** A directory allowed with --file-origin-root, mounted live: listed and read through door and pool. */
    @Test
    void aFileOriginInAnAllowedDirectoryIsServed() throws Exception {
        gridcache.admin("origins", "add", "extra", "--prefix", "/extra", "--url", tmp.resolve("extra").toUri().toString()).assertOk();
        Tools.await("the door to serve the extra mount", Duration.ofSeconds(30),
                () -> Tools.curl("-sL", door + "/extra/e.txt").assertOk().out().strip().equals("extra"));
    }

    @Test
    void headGivesTheSizeWithoutARedirect() {
        Tools.Result r = Tools.curl("-I", door + "/dir/x.bin").assertOk();
        assertTrue(r.out().startsWith("HTTP/1.1 200") && r.out().toLowerCase().contains("content-length: 5242880"), r.out());
    }
}
