package org.gridcache.common.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import org.gridcache.common.Json;
import org.junit.jupiter.api.Test;

/** The transfers the pools publish and the list the door and {@code gridcache transfers} make of them. */
class TransferListTest {
    private static final long NOW = 1_700_000_100_000L;

    private static PoolRecord pool(String id, ActiveTransfer... transfers) {
        return new PoolRecord(id, "http://h:1", "s", 10, 5, transfers.length, 0, 0, "v", 1, PoolRecord.ENABLED, 0, 0, null, null, null,
                List.of(transfers));
    }

    @Test
    void elapsedAndEtaAreReckonedFromStartRateAndSizeLongestRunningFirst() {
        ActiveTransfer young = new ActiveTransfer(ActiveTransfer.HIT, "Bob", "/b", 0, 100, NOW - 1_000, 0);
        ActiveTransfer old = new ActiveTransfer(ActiveTransfer.MISS, "Alice", "/a", 25 << 20, 100 << 20, NOW - 65_000, 5 << 20);
        ActiveTransfer copy = new ActiveTransfer(ActiveTransfer.TPC, "Carol", "/c", 7, -1, NOW - 30_000, 3);
        TransferList list = TransferList.of(List.of(pool("p2", young), pool("p1", old, copy)), NOW);
        assertEquals(List.of("/a", "/c", "/b"), list.transfers().stream().map(TransferList.Entry::path).toList());
        TransferList.Entry a = list.transfers().get(0);
        assertEquals("p1", a.pool());
        assertEquals(65, a.elapsedSeconds());
        assertEquals(15, a.etaSeconds(), "75 MiB left at 5 MiB/s");
        assertEquals(0.25, a.fraction());
        TransferList.Entry c = list.transfers().get(1);
        assertNull(c.size());
        assertNull(c.etaSeconds(), "no ETA without a size");
        assertEquals(-1, c.fraction());
        assertNull(list.transfers().get(2).etaSeconds(), "no ETA while nothing moves");
        assertEquals("2023-11-14T22:15:00Z", list.time());
    }

    @Test
    void theApiJsonNamesItsFieldsAndNoHelper() throws Exception {
        ActiveTransfer t = new ActiveTransfer(ActiveTransfer.UPLOAD, "Alice", "/a", 1, 2, NOW - 2_000, 1);
        Map<?, ?> json = Json.mapper().readValue(Json.string(TransferList.of(List.of(pool("p1", t)), NOW)), Map.class);
        Map<?, ?> entry = (Map<?, ?>) ((List<?>) json.get("transfers")).get(0);
        assertEquals(List.of("pool", "kind", "subject", "path", "bytes", "size", "bytesPerSec", "startedAt", "elapsedSeconds",
                "etaSeconds"), List.copyOf(entry.keySet()));
        assertEquals("upload", entry.get("kind"));
    }

    @Test
    void durationsReadAsClockTimes() {
        assertEquals("0:07", TransferList.duration(7L));
        assertEquals("2:05", TransferList.duration(125L));
        assertEquals("1:00:01", TransferList.duration(3601L));
        assertEquals("-", TransferList.duration(null));
    }

    @Test
    void subjectsAreShortenedToANameWithoutProxyPartsOrTokenIds() {
        assertEquals("Alice Smith", ActiveTransfer.shortSubject("/DC=org/DC=example/OU=Users/CN=Alice Smith/CN=1234567/CN=proxy"));
        assertEquals("Alice Smith", ActiveTransfer.shortSubject("CN=Alice Smith,OU=Users,DC=example,DC=org"));
        assertEquals("5f0c3e1a-b2\u2026@iam.example.org",
                ActiveTransfer.shortSubject("token:5f0c3e1a-b2c4-4d5e-8f90-123456789abc@https://iam.example.org/realm"));
        assertEquals("anonymous", ActiveTransfer.shortSubject(null));
        assertTrue(ActiveTransfer.shortSubject("/CN=" + "x".repeat(100)).length() <= 32);
    }

    @Test
    void aRecordListsBoundedTransfersAndAnOldOneNone() {
        ActiveTransfer t = new ActiveTransfer(ActiveTransfer.HIT, "A", "/" + "p".repeat(500), 0, 1, NOW, 0);
        PoolRecord many = pool("p1", Collections.nCopies(100, t).toArray(ActiveTransfer[]::new));
        assertEquals(PoolRecord.MAX_TRANSFERS, many.transfers().size());
        String path = many.transfers().get(0).path();
        assertEquals(ActiveTransfer.MAX_TEXT, path.length());
        assertTrue(path.startsWith("\u2026") && path.endsWith("ppp"), path);
        String old = "{\"id\":\"p1\",\"url\":\"http://h:1\",\"site\":\"s\",\"capacityBytes\":1,\"freeBytes\":1,\"activeMovers\":0,"
                + "\"bytesPerSecOut\":0,\"load\":0,\"version\":\"v\",\"startedAt\":1}";
        assertTrue(Json.read(old.getBytes(StandardCharsets.UTF_8), PoolRecord.class).transfers().isEmpty());
        assertFalse(Json.string(pool("p1")).contains("fraction"));
    }
}
