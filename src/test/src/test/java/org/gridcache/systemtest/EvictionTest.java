package org.gridcache.systemtest;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** A store over capacity evicts its least recently used files; what was evicted is fetched again. */
@Timeout(value = 5, unit = TimeUnit.MINUTES)
class EvictionTest {
    @TempDir
    static Path tmp;
    static NginxOrigin origin;
    static Standalone gridcache;
    static String door;
    static Path data;

    @BeforeAll
    static void start() throws Exception {
        Tools.require("curl", "nginx");
        data = Files.createDirectories(tmp.resolve("data"));
        for (String name : new String[] {"a", "b", "c"}) {
            Tools.randomFile(data.resolve(name + ".bin"), 4 << 20, name.charAt(0));
        }
        origin = NginxOrigin.start(tmp.resolve("nginx"), data);
        gridcache = Standalone.start(tmp, origin.url(), "--capacity", "10M");
        door = gridcache.door();
    }

    @AfterAll
    static void stop() throws Exception {
        Tools.closeAll(origin, gridcache);
    }

    private static void read(String name) throws Exception {
        Path out = tmp.resolve("out-" + name);
        Tools.curl("-fL", "-o", out.toString(), door + "/" + name + ".bin").assertOk();
        assertEquals(Tools.sha256(data.resolve(name + ".bin")), Tools.sha256(out), name);
    }

    @Test
    void theLeastRecentlyUsedFileIsEvicted() throws Exception {
        read("a");
        read("b");
        read("c"); // 12 MiB > 10 MiB: a, the least recently used, goes
        read("b");
        assertEquals(1, origin.count("GET", "/b.bin"), "b stayed cached");
        read("a");
        assertEquals(2, origin.count("GET", "/a.bin"), "a was evicted and fetched again");
    }
}
