package org.gridcache.common;

import org.gridcache.common.cluster.PoolRecord;
import org.gridcache.common.transfer.TransferRecord;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The JSON that other nodes and monitoring read: pool records stay compatible, transfer records stay one line. */
class OperationsRecordsTest {
    @Test
    void aRecordOfAnOlderPoolReadsAsEnabled() {
        String old = "{\"id\":\"p1\",\"url\":\"http://h:1\",\"site\":\"s\",\"capacityBytes\":10,\"freeBytes\":5,"
                + "\"activeMovers\":0,\"bytesPerSecOut\":0,\"load\":0.0,\"version\":\"0.1\",\"startedAt\":1}";
        PoolRecord r = Json.read(old.getBytes(StandardCharsets.UTF_8), PoolRecord.class);
        assertEquals(PoolRecord.ENABLED, r.state());
        assertFalse(r.draining());
        assertEquals(-1, r.hitRate());
    }

    @Test
    void stateAndCountsRoundTripAndNoHelperLeaksIntoTheJson() throws Exception {
        PoolRecord r = new PoolRecord("p1", "u", "s", 10, 5, 1, 2, 1.5, "v", 3, PoolRecord.DRAINING, 3, 1);
        Map<?, ?> json = Json.mapper().readValue(Json.bytes(r), Map.class);
        assertEquals("draining", json.get("state"));
        assertFalse(json.containsKey("draining") || json.containsKey("hitRate") || json.containsKey("readOnly"), json.toString());
        PoolRecord back = Json.read(Json.bytes(r), PoolRecord.class);
        assertEquals(r, back);
        assertEquals(0.75, back.hitRate());
    }

    @Test
    void aTransferRecordIsOneJsonLineWithItsFieldsInOrder() {
        TransferRecord t = new TransferRecord("2025-01-01T00:00:00Z", "pool", "p1", "anonymous", null, "127.0.0.1", "GET",
                "/a \"b\"\n.bin", 10, 5, TransferRecord.MISS, 10, 200, true, "p1");
        String json = t.toJson();
        assertFalse(json.contains("\n"), json);
        assertTrue(json.startsWith("{\"time\":\"2025-01-01T00:00:00Z\",\"node\":\"pool\""), json);
        assertTrue(json.contains("\"vo\":null") && json.contains("\"source\":\"miss\"") && json.contains("\"originBytes\":10"), json);
    }
}
