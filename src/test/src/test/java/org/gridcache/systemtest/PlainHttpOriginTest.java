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

/**
 * An origin that is a plain HTTP file server (nginx without WebDAV, with autoindex): files are statted with HEAD and
 * cached, directories listed from the HTML index.
 */
@Timeout(value = 5, unit = TimeUnit.MINUTES)
class PlainHttpOriginTest {
    @TempDir
    static Path tmp;
    static NginxOrigin origin;
    static Standalone gridcache;
    static String door;
    static Path data;

    @BeforeAll
    static void start() throws Exception {
        data = Files.createDirectories(tmp.resolve("data"));
        Tools.randomFile(data.resolve("dir/plain.bin"), 2 << 20, 41);
        origin = NginxOrigin.startPlain(tmp.resolve("nginx"), data);
        gridcache = Standalone.start(tmp, origin.url());
        door = gridcache.door();
    }

    @AfterAll
    static void stop() throws Exception {
        Tools.closeAll(origin, gridcache);
    }

    @Test
    void filesAreReadAndCachedDirectoriesAreListedFromTheIndex() throws Exception {
        for (int i = 0; i < 2; i++) {
            Path out = tmp.resolve("plain-" + i);
            Tools.curl("-fL", "-o", out.toString(), door + "/dir/plain.bin").assertOk();
            assertEquals(Tools.sha256(data.resolve("dir/plain.bin")), Tools.sha256(out));
        }
        assertEquals(1, origin.count("GET", "/dir/plain.bin"));
        Tools.Result head = Tools.curl("-I", door + "/dir/plain.bin").assertOk();
        assertTrue(head.out().toLowerCase().contains("content-length: 2097152"), head.out());
        Tools.Result list = Tools.curl("-X", "PROPFIND", "-H", "Depth: 1", "-w", "\n%{http_code}", door + "/dir/").assertOk();
        assertTrue(list.out().endsWith("207") && list.out().contains("plain.bin"), list.out());
        Tools.Result html = Tools.curl("-w", "\n%{http_code}", door + "/dir/").assertOk();
        assertTrue(html.out().endsWith("200") && html.out().contains(">plain.bin</a>"), html.out());
    }
}
