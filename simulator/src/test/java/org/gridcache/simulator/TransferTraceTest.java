package org.gridcache.simulator;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import java.util.zip.GZIPOutputStream;
import org.gridcache.common.settings.ClusterSettings;
import org.gridcache.common.transfer.TransferRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TransferTraceTest {
    @TempDir
    Path dir;

    private static String record(String method, String path, long bytes, int status, boolean complete) {
        return new TransferRecord("2026-11-23T10:00:00Z", "pool", "p1", "anonymous", null, "127.0.0.1", method, path,
                bytes, 12, TransferRecord.HIT, 0, status, complete, "p1").toJson();
    }

    @Test
    void theWholeFileGetsOfATransfersFileAreItsReads() throws IOException {
        Path file = dir.resolve("transfers.jsonl");
        Files.write(file, List.of(
                record("GET", "/data/a", 100, 200, true),
                record("HEAD", "/data/a", 0, 200, true),
                "",
                record("GET", "/data/b", 10, 206, true),
                record("GET", "/data/c", 5, 200, false),
                record("GET", "/data/a", 100, 200, true),
                record("GET", "/data/missing", 0, 404, true)));

        List<Read> reads;
        try (Stream<Read> stream = new TransferTrace(file).reads()) {
            reads = stream.toList();
        }

        assertEquals(List.of(new Read("/data/a", 100), new Read("/data/a", 100)), reads);
    }

    @Test
    void aRotatedGzipFileIsReadAsWell() throws IOException {
        Path file = dir.resolve("transfers.2026-11-22.0.jsonl.gz");
        try (OutputStream out = new GZIPOutputStream(Files.newOutputStream(file))) {
            out.write((record("GET", "/data/a", 100, 200, true) + "\n").getBytes(StandardCharsets.UTF_8));
        }

        try (Stream<Read> stream = new TransferTrace(file).reads()) {
            assertEquals(List.of(new Read("/data/a", 100)), stream.toList());
        }
    }

    @Test
    void aMalformedLineIsReportedWithItsNumber() throws IOException {
        Path file = dir.resolve("transfers.jsonl");
        Files.write(file, List.of(record("GET", "/data/a", 100, 200, true), record("GET", "/data/b", 1, 200, true),
                "{\"method\":\"GET\",\"path\":\"/data/c\",\"bytes\":", record("GET", "/data/d", 1, 200, true)));

        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> {
            try (Stream<Read> stream = new TransferTrace(file).reads()) {
                stream.forEach(read -> { });
            }
        });

        assertTrue(e.getMessage().contains("line 3"), e.getMessage());
        assertTrue(e.getMessage().contains("transfers.jsonl"), e.getMessage());
    }

    @Test
    void aRecordWithoutAPathIsMalformed() throws IOException {
        Path file = dir.resolve("transfers.jsonl");
        Files.write(file, List.of("{\"method\":\"GET\",\"bytes\":3,\"status\":200,\"complete\":true}"));

        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> new TransferTrace(file).reads().forEach(read -> { }));

        assertTrue(e.getMessage().contains("line 1"), e.getMessage());
    }

    @Test
    void aTransfersTraceReplaysThroughThePolicies() throws IOException {
        Path file = dir.resolve("transfers.jsonl");
        Files.write(file, List.of(record("GET", "/data/a", 100, 200, true), record("GET", "/data/b", 50, 200, true),
                record("GET", "/data/a", 100, 200, true)));

        Result r = Simulation.run("affinity", new Cluster(2, 1000, 1, ClusterSettings.defaults()), new TransferTrace(file));

        assertEquals(3, r.reads());
        assertEquals(1, r.hits(), "the second read of /data/a");
        assertEquals(150, r.originBytes());
    }
}
