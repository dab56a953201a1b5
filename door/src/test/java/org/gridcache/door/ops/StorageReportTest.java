package org.gridcache.door.ops;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.gridcache.common.settings.StorageShares.ORIGIN;
import static org.gridcache.common.settings.StorageShares.VO;

import com.fasterxml.jackson.databind.JsonNode;
import com.networknt.schema.Error;
import com.networknt.schema.Schema;
import com.networknt.schema.SchemaRegistry;
import com.networknt.schema.SpecificationVersion;
import java.io.InputStream;
import java.util.List;
import java.util.Map;
import org.gridcache.common.Json;
import org.gridcache.common.cluster.PoolRecord;
import org.gridcache.common.origin.OriginEntry;
import org.junit.jupiter.api.Test;

class StorageReportTest {
    private static final String DATA = "http://o.example/d";
    private static final String ATLAS = "https://o.example/a";
    /** Two origins; /data/more is a second mount of the first, whose replicas it shares. */
    private static final List<OriginEntry> MOUNTS = List.of(OriginEntry.of("data", "/data", DATA + "/", null),
            OriginEntry.of("atlas", "/atlas", ATLAS, "service"), OriginEntry.of("more", "/data/more", DATA, null));
    private final StorageReport report = new StorageReport(() -> "door-1", () -> "https://door.example:8443", "1.2",
            () -> MOUNTS);

    @Test
    void reportMatchesTheSrrSchema() throws Exception {
        JsonNode json = Json.mapper().readTree(Json.string(report.of(List.of(pool("p1", 1000, 400, PoolRecord.ENABLED,
                Map.of(DATA, 100L))), ORIGIN, 1700000000)));
        List<Error> errors = schema().validate(json);
        assertTrue(errors.isEmpty(), errors.toString());
        JsonNode service = json.get("storageservice");
        assertEquals("gridcache", service.get("implementation").asText());
        assertEquals("https://door.example:8443", service.at("/storageendpoints/0/endpointurl").asText());
        assertEquals("https", service.at("/storageendpoints/0/interfacetype").asText());
        assertEquals("[\"atlas\",\"data+more\"]", service.at("/storageendpoints/0/assignedshares").toString());
        assertEquals("atlas", service.at("/storageshares/0/name").asText());
        assertEquals("[\"/atlas\"]", service.at("/storageshares/0/path").toString());
        assertEquals("data+more", service.at("/storageshares/1/name").asText());
        assertEquals("[\"/data\",\"/data/more\"]", service.at("/storageshares/1/path").toString());
        assertEquals("[]", service.at("/storageshares/1/vos").toString());
    }

    @Test
    void eachShareHoldsWhatThePoolsHoldOfItsOrigin() {
        StorageReport.Srr srr = report.of(List.of(pool("p1", 1000, 400, PoolRecord.ENABLED,
                        Map.of(DATA, 300L, ATLAS, 50L, "http://unmounted.example", 7L)),
                pool("p2", 500, 480, PoolRecord.DRAINING, Map.of(DATA, 20L)),
                pool("p3", 100, 100, PoolRecord.ENABLED, null)), ORIGIN, 1700000000); // an older pool: no origins' bytes
        StorageReport.Share atlas = srr.storageservice().storageshares().get(0);
        StorageReport.Share data = srr.storageservice().storageshares().get(1);
        assertEquals(50, atlas.usedsize());
        assertEquals(320, data.usedsize());
        assertEquals(1600, atlas.totalsize(), "every origin may fill the pools' whole capacity");
        assertEquals(1600, data.totalsize());
        assertEquals(1700000000, data.timestamp());
        assertEquals("open", data.servingstate());
        // the service: what the pools hold, partial files and unmounted origins included, and their capacity
        assertEquals(new StorageReport.Sizes(1600, 620), srr.storageservice().storagecapacity().online());
    }

    @Test
    void servingStateFollowsThePools() throws Exception {
        assertEquals("closed", report.of(List.of(), ORIGIN, 1).storageservice().storageshares().get(0).servingstate());
        StorageReport.Srr draining = report.of(List.of(pool("p1", 10, 5, PoolRecord.DRAINING)), ORIGIN, 1);
        assertEquals("draining", draining.storageservice().storageshares().get(0).servingstate());
        assertTrue(schema().validate(Json.mapper().readTree(Json.string(report.of(List.of(), ORIGIN, 1)))).isEmpty());
    }

    /**
     * Per VO: the origins whose mounts declare atlas are one share, cms's another; an origin whose mounts declare two
     * VOs is a share of both, one that declares none a share of its own; every share valid against the schema.
     */
    @Test
    void perVoSharesSumTheirOriginsBytes() throws Exception {
        String cms = "https://cms.example/store";
        String shared = "https://shared.example/x";
        String plain = "http://plain.example";
        List<OriginEntry> mounts = List.of(OriginEntry.of("data", "/data", DATA, null).withVo("atlas"),
                OriginEntry.of("atlas", "/atlas", ATLAS, "service").withVo("atlas"),
                OriginEntry.of("cms", "/cms", cms, null).withVo("cms"),
                OriginEntry.of("both-a", "/both/a", shared, null).withVo("cms"),
                OriginEntry.of("both-b", "/both/b", shared, null).withVo("atlas"),
                OriginEntry.of("plain", "/plain", plain, null));
        StorageReport byVo = new StorageReport(() -> "door-1", () -> "https://door.example:8443", "1.2", () -> mounts);
        StorageReport.Srr srr = byVo.of(List.of(pool("p1", 1000, 100, PoolRecord.ENABLED,
                        Map.of(DATA, 300L, ATLAS, 50L, cms, 7L, shared, 11L, plain, 13L)),
                pool("p2", 500, 480, PoolRecord.ENABLED, Map.of(ATLAS, 20L, cms, 1L))), VO, 1700000000);
        Map<String, StorageReport.Share> shares = srr.storageservice().storageshares().stream()
                .collect(java.util.stream.Collectors.toMap(StorageReport.Share::name, s -> s));
        assertEquals(java.util.Set.of("atlas", "cms", "atlas+cms", "plain"), shares.keySet());
        assertEquals(370, shares.get("atlas").usedsize());
        assertEquals(List.of("atlas"), shares.get("atlas").vos());
        assertEquals(List.of("/atlas", "/data"), shares.get("atlas").path());
        assertEquals(8, shares.get("cms").usedsize());
        assertEquals(List.of("atlas", "cms"), shares.get("atlas+cms").vos());
        assertEquals(List.of("/both/a", "/both/b"), shares.get("atlas+cms").path());
        assertEquals(11, shares.get("atlas+cms").usedsize());
        assertEquals(List.of(), shares.get("plain").vos());
        assertEquals(13, shares.get("plain").usedsize());
        assertEquals(1500, shares.get("cms").totalsize());
        List<Error> errors = schema().validate(Json.mapper().readTree(Json.string(srr)));
        assertTrue(errors.isEmpty(), errors.toString());
        assertEquals(5, byVo.of(List.of(), ORIGIN, 1).storageservice().storageshares().size(),
                "by origin, the same mounts are five shares, the VOs unused");
    }

    private static Schema schema() throws Exception {
        try (InputStream in = StorageReportTest.class.getResourceAsStream("/srr-4.2.schema.json")) {
            return SchemaRegistry.withDefaultDialect(SpecificationVersion.DRAFT_7).getSchema(in);
        }
    }

    private static PoolRecord pool(String id, long capacity, long free, String state) {
        return pool(id, capacity, free, state, null);
    }

    /** A pool's record as the door reads it from ZooKeeper (written as JSON, read back). */
    private static PoolRecord pool(String id, long capacity, long free, String state, Map<String, Long> origins) {
        return Json.read(Json.bytes(new PoolRecord(id, "http://" + id, "site", capacity, free, 0, 0, 0, "v", 0, state, 0, 0,
                null, null, origins, null)), PoolRecord.class);
    }
}
