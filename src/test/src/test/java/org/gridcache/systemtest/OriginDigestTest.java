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
 * An HTTP origin that gives a {@code Digest} with the file, as dCache and XRootD do (nginx told to send one): the
 * pool verifies the fill against it. A wrong one is a 502 with the reason, nothing is cached (the next read goes to
 * the origin again), and a client that did not ask for a digest gets a cut connection, never a complete-looking file.
 */
@Timeout(value = 10, unit = TimeUnit.MINUTES)
class OriginDigestTest {
    @TempDir
    static Path tmp;
    static NginxOrigin origin;
    static Standalone gridcache;
    static String door;
    static String goodAdler;

    @BeforeAll
    static void start() throws Exception {
        Tools.require("curl", "nginx", "python3");
        Path data = Files.createDirectories(tmp.resolve("data"));
        Tools.randomFile(data.resolve("good.bin"), 2 << 20, 21);
        Tools.randomFile(data.resolve("bad.bin"), 2 << 20, 22);
        Tools.randomFile(data.resolve("slow.bin"), 3 << 20, 23);
        goodAdler = Tools.run(Duration.ofSeconds(30), "python3", "-c",
                "import sys, zlib; print('%08x' % zlib.adler32(open(sys.argv[1], 'rb').read()))",
                data.resolve("good.bin").toString()).assertOk().out().trim();
        origin = NginxOrigin.startPlain(tmp.resolve("nginx"), data,
                "location = /good.bin { add_header Digest \"adler32=" + goodAdler + "\"; }\n"
                        + "location = /bad.bin { add_header Digest \"adler32=0badc0de\"; }\n"
                        + "location = /slow.bin { limit_rate 512k; }", "");
        gridcache = Standalone.start(tmp, origin.url());
        door = gridcache.door();
    }

    @AfterAll
    static void stop() throws Exception {
        Tools.closeAll(origin, gridcache);
    }

    @Test
    void aDigestThatAgreesIsKeptAndAnswered() {
        Tools.Result r = Tools.curl("-fL", "-D", "-", "-o", "/dev/null", "-H", "Want-Digest: adler32", door + "/good.bin").assertOk();
        assertTrue(r.out().contains("Digest: adler32=" + goodAdler), r.out());
        Tools.Result head = Tools.curl("-sI", "-H", "Want-Digest: adler32", door + "/good.bin").assertOk();
        assertTrue(head.out().contains("Digest: adler32=" + goodAdler), head.out());
    }

    /**
     * A HEAD whose pool must fill a file taking longer than the door's idle timeout still gets its Digest: the door's
     * wait for the pool is no idle client connection.
     */
    @Test
    void aHeadWaitsForAFillLongerThanTheDoorsIdleTimeout() throws Exception {
        gridcache.admin("config", "set", "door.idle-timeout", "2s").assertOk();
        try {
            Tools.Result head = Tools.curl("-sI", "-H", "Want-Digest: adler32", door + "/slow.bin").assertOk(); // ~6 s at 512 KiB/s
            assertTrue(head.out().startsWith("HTTP/1.1 200") && head.out().contains("Digest: adler32="), head.out());
        } finally {
            gridcache.admin("config", "unset", "door.idle-timeout").assertOk();
        }
    }

    @Test
    void aDigestThatDisagreesIs502AndNothingIsCached() throws Exception {
        Tools.Result asked = Tools.curl("-sL", "-w", "\n%{http_code}", "-H", "Want-Digest: adler32", door + "/bad.bin").assertOk();
        assertTrue(asked.out().endsWith("\n502"), asked.out());
        assertTrue(asked.out().startsWith("checksum mismatch: origin http://127.0.0.1:") && asked.out().contains(" gave adler32=0badc0de, the pool received adler32="),
                asked.out());
        Tools.Result plain = Tools.curl("-fL", "-o", tmp.resolve("bad-copy").toString(), door + "/bad.bin");
        assertNotEquals(0, plain.exit(), "a cut connection, not a complete-looking file: " + plain.err());
        assertEquals(2, origin.count("GET", "/bad.bin"), "the failed copy was not kept: each read went to the origin");
    }
}
