package org.gridcache.door.ops;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.networknt.schema.Error;
import com.networknt.schema.Schema;
import com.networknt.schema.SchemaRegistry;
import com.networknt.schema.SpecificationVersion;
import java.io.InputStream;
import java.util.List;
import org.gridcache.common.Json;
import org.gridcache.common.cluster.PoolRecord;
import org.gridcache.common.origin.OriginEntry;
import org.junit.jupiter.api.Test;

class StorageReportTest {
    private static final List<OriginEntry> MOUNTS = List.of(OriginEntry.of("data", "/data", "http://o.example/d", null),
            OriginEntry.of("atlas", "/atlas", "https://o.example/a", "service"));
    private final StorageReport report = new StorageReport(() -> "door-1", () -> "https://door.example:8443", "1.2",
            () -> MOUNTS);

    @Test
    void reportMatchesTheSrrSchema() throws Exception {
        JsonNode json = Json.mapper().readTree(Json.string(report.of(List.of(pool("p1", 1000, 400, PoolRecord.ENABLED)), 1700000000)));
        List<Error> errors = schema().validate(json);
        assertTrue(errors.isEmpty(), errors.toString());
        JsonNode service = json.get("storageservice");
        assertEquals("gridcache", service.get("implementation").asText());
        assertEquals("https://door.example:8443", service.at("/storageendpoints/0/endpointurl").asText());
        assertEquals("https", service.at("/storageendpoints/0/interfacetype").asText());
        assertEquals("[\"/atlas\",\"/data\"]", service.at("/storageshares/0/path").toString());
    }

    @Test
    void sizesAreThePoolsSums() {
        StorageReport.Srr srr = report.of(List.of(pool("p1", 1000, 400, PoolRecord.ENABLED),
                pool("p2", 500, 500, PoolRecord.DRAINING)), 1700000000);
        StorageReport.Share share = srr.storageservice().storageshares().get(0);
        assertEquals(1500, share.totalsize());
        assertEquals(600, share.usedsize()); // 1000 - 400, and nothing on p2
        assertEquals(1700000000, share.timestamp());
        assertEquals("open", share.servingstate());
        assertEquals(new StorageReport.Sizes(1500, 600), srr.storageservice().storagecapacity().online());
    }

    @Test
    void servingStateFollowsThePools() throws Exception {
        assertEquals("closed", report.of(List.of(), 1).storageservice().storageshares().get(0).servingstate());
        StorageReport.Srr draining = report.of(List.of(pool("p1", 10, 5, PoolRecord.DRAINING)), 1);
        assertEquals("draining", draining.storageservice().storageshares().get(0).servingstate());
        assertTrue(schema().validate(Json.mapper().readTree(Json.string(report.of(List.of(), 1)))).isEmpty());
    }

    private static Schema schema() throws Exception {
        try (InputStream in = StorageReportTest.class.getResourceAsStream("/srr-4.2.schema.json")) {
            return SchemaRegistry.withDefaultDialect(SpecificationVersion.DRAFT_7).getSchema(in);
        }
    }

    private static PoolRecord pool(String id, long capacity, long free, String state) {
        return new PoolRecord(id, "http://" + id, "site", capacity, free, 0, 0, 0, "v", 0, state, 0, 0);
    }
}
