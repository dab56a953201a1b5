package org.gridcache.systemtest;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
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
    /** The pool the door redirected the last read to (its base URL), for its metrics. */
    static URI pool;

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
        String at = Tools.curl("-fL", "-o", out.toString(), "-w", "%{url_effective}", door + "/" + name + ".bin")
                .assertOk().out().trim();
        assertEquals(Tools.sha256(data.resolve(name + ".bin")), Tools.sha256(out), name);
        pool = URI.create(at).resolve("/");
    }

    /**
     * A miss's commit (sidecar, rename, index entry) follows the client's last byte, and only committed files can be
     * evicted (an uncommitted fill's reservation still counts): wait until the pool's index holds {@code files}.
     */
    private static void awaitFiles(int files) {
        Tools.await("the pool to hold " + files + " files", Duration.ofSeconds(30), () -> poolFiles() == files);
    }

    private static double poolFiles() {
        String text = Tools.curl("-f", pool.resolve("/.gridcache/metrics").toString()).assertOk().out();
        Matcher m = Pattern.compile("(?m)^gridcache_pool_files(\\{[^}]*})? (\\S+)$").matcher(text);
        if (!m.find()) {
            throw new AssertionError("no gridcache_pool_files in the pool's metrics:\n" + text);
        }
        return Double.parseDouble(m.group(2));
    }

    @Test
    void theLeastRecentlyUsedFileIsEvicted() throws Exception {
        read("a");
        awaitFiles(1); // a enters the index (and the LRU order) at its commit: before b's, so a is the older
        read("b");
        awaitFiles(2); // b committed too, so the store is as the comment below says: eviction takes only committed
                       // files, and an uncommitted fill's reservation still counts
        read("c"); // 12 MiB > 10 MiB: a, the least recently used, goes
        awaitFiles(2); // a gone at c's reservation, c committed: the index holds b and c, as what follows assumes
        read("b");
        assertEquals(1, origin.count("GET", "/b.bin"), "b stayed cached");
        read("a");
        assertEquals(2, origin.count("GET", "/a.bin"), "a was evicted and fetched again");
    }
}
