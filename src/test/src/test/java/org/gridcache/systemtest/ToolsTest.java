package org.gridcache.systemtest;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.zip.GZIPOutputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Reading gridcache's logs across the daily rollover, as the system tests do. */
class ToolsTest {
    @TempDir
    Path logs;

    @Test
    void aLogRolledAtMidnightIsReadWithWhatItHoldsSince() throws IOException {
        gzip(logs.resolve("pool-p1.2026-12-07.0.log.gz"), "before midnight\n");
        Files.writeString(logs.resolve("pool-p1.log"), "after midnight\n");
        gzip(logs.resolve("pool-p10.2026-12-07.0.log.gz"), "another pool\n");
        gzip(logs.resolve("transfers-pool-p1.jsonl.2026-12-07.0.gz"), "{\"a\":1}\n");
        Files.writeString(logs.resolve("transfers-pool-p1.jsonl"), "{\"b\":2}\n");

        assertEquals("before midnight\nafter midnight\n", Tools.readLog(logs.resolve("pool-p1.log")));
        assertEquals("{\"a\":1}\n{\"b\":2}\n", Tools.readLog(logs.resolve("transfers-pool-p1.jsonl")));
    }

    @Test
    void linesThatAreNotUtf8AndLogsNotYetWrittenAreRead() throws IOException {
        Files.write(logs.resolve("pool-p1.log"), new byte[] {'a', (byte) 0xff, 'b', '\n'});
        Files.writeString(logs.resolve("pool-p1.out"), "not a log\n");
        Files.writeString(logs.resolve("door-8443.log"), "the door\n");

        assertEquals("a\ufffdb\n", Tools.readLogs(logs, "pool"));
        assertEquals("", Tools.readLog(logs.resolve("pool-p2.log")));
        assertEquals("", Tools.readLogs(logs.resolve("none"), "pool"));
    }

    private static void gzip(Path file, String text) throws IOException {
        try (var out = new GZIPOutputStream(Files.newOutputStream(file))) {
            out.write(text.getBytes(StandardCharsets.UTF_8));
        }
    }
}
