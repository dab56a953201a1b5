package org.gridcache.systemtest;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
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
        gridcache = Standalone.start(tmp, data.toString());
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

    @Test
    void headGivesTheSizeWithoutARedirect() {
        Tools.Result r = Tools.curl("-I", door + "/dir/x.bin").assertOk();
        assertTrue(r.out().startsWith("HTTP/1.1 200") && r.out().toLowerCase().contains("content-length: 5242880"), r.out());
    }
}
