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

/** What clients see when the origin dies mid-transfer or is down; and that no partial file becomes a hit. */
@Timeout(value = 5, unit = TimeUnit.MINUTES)
class OriginFailureTest {
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
        Tools.randomFile(data.resolve("slow.bin"), 16 << 20, 7);
        Tools.randomFile(data.resolve("later.bin"), 1 << 20, 8);
        origin = NginxOrigin.start(tmp.resolve("nginx"), data, "4m"); // 16 MiB take ~4 s: time to kill it mid-way
        gridcache = Standalone.start(tmp, origin.url());
        door = gridcache.door();
    }

    @AfterAll
    static void stop() throws Exception {
        Tools.closeAll(origin, gridcache);
    }

    @Test
    void anOriginKilledMidTransferAbortsTheClientAndLeavesNoHit() throws Exception {
        Path partial = tmp.resolve("slow.partial");
        Process client = new ProcessBuilder("curl", "-sSfL", "--max-time", "120", "-o", partial.toString(), door + "/slow.bin")
                .redirectErrorStream(true).redirectOutput(tmp.resolve("slow.log").toFile()).start();
        Tools.await("the first MiB through the cache", Duration.ofSeconds(60),
                () -> partial.toFile().length() > (1 << 20));
        origin.kill();
        assertTrue(client.waitFor(60, TimeUnit.SECONDS));
        assertNotEquals(0, client.exitValue(), "curl must see a broken transfer, not a complete one");
        assertTrue(Files.size(partial) < (16 << 20), "client got fewer bytes than the file has");

        origin.start();
        Path whole = tmp.resolve("slow.whole");
        Tools.Result r = Tools.curl("-fL", "-D", "-", "-o", whole.toString(), door + "/slow.bin").assertOk();
        assertEquals(Tools.sha256(data.resolve("slow.bin")), Tools.sha256(whole));
        assertTrue(r.out().contains("X-Cache: MISS"), "the partial file was not kept as a hit: " + r.out());
        // nginx never logs the request it was killed in: the one line is the new, complete fetch
        assertEquals(1, origin.count("GET", "/slow.bin"), "the second read went to the origin again");
    }

    @Test
    void anOriginThatIsDownGives502() throws Exception {
        origin.kill();
        try {
            Tools.Result r = Tools.curl("-L", "-w", "\n%{http_code}", door + "/later.bin").assertOk();
            assertTrue(r.out().endsWith("502"), r.out());
            assertTrue(r.out().lines().findFirst().orElse("").contains("127.0.0.1"), "reason names the origin: " + r.out());
        } finally {
            origin.start();
        }
    }
}
