package org.gridcache.systemtest;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.gridcache.common.Json;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * What a site's monitoring reads, against {@code gridcache standalone} and a real nginx origin: the pool's
 * {@code Cache-Status} (RFC 9211) on a miss, a hit and a block read, seen through curl; and the door's WLCG Storage
 * Resource Reporting JSON, whose sizes are the pool's own figures from its metrics.
 */
@Timeout(value = 5, unit = TimeUnit.MINUTES)
class SiteReportingTest {
    @TempDir
    static Path tmp;
    static NginxOrigin origin;
    static Standalone gridcache;

    @BeforeAll
    static void start() throws Exception {
        Tools.require("curl", "nginx");
        Path data = Files.createDirectories(tmp.resolve("data"));
        Tools.randomFile(data.resolve("whole.bin"), 2 << 20, 1);
        Tools.randomFile(data.resolve("blocks.bin"), 32 << 20, 2); // ranges of it read blocks
        Tools.randomFile(data.resolve("reported.bin"), 3 << 20, 3);
        origin = NginxOrigin.start(tmp.resolve("nginx"), data);
        gridcache = Standalone.start(tmp, origin.url());
    }

    @AfterAll
    static void stop() throws Exception {
        Tools.closeAll(origin, gridcache);
    }

    @Test
    void cacheStatusSaysWhatThePoolDid() {
        String whole = gridcache.door() + "/whole.bin";
        assertCacheStatus("gridcache; fwd=uri-miss; stored", "MISS", whole);
        assertCacheStatus("gridcache; hit", "HIT", whole);
        String blocks = gridcache.door() + "/blocks.bin";
        assertCacheStatus("gridcache; fwd=partial; stored", "MISS", blocks, "-r", "1000-1999");
        assertCacheStatus("gridcache; hit", "HIT", blocks, "-r", "1000-1999");
    }

    @Test
    void srrSizesAreThePoolsOwnFigures() throws Exception {
        Tools.curl("-fL", "-o", "/dev/null", gridcache.door() + "/reported.bin").assertOk();
        URI pool = URI.create(gridcache.location("/reported.bin")).resolve("/.gridcache/metrics");
        // the pool publishes its figures to ZooKeeper every few seconds: the report follows them
        Tools.await("the SRR to show the pool's figures", Duration.ofSeconds(60)).untilAsserted(() -> {
            String metrics = Tools.curl("-f", pool.toString()).assertOk().out();
            JsonNode share = srr().at("/storageservice/storageshares/0");
            assertEquals(sample(metrics, "gridcache_pool_capacity_bytes"), share.get("totalsize").asLong(), metrics);
            assertEquals(sample(metrics, "gridcache_pool_used_bytes"), share.get("usedsize").asLong(), metrics);
        });
        JsonNode service = srr().get("storageservice");
        assertTrue(service.at("/storageshares/0/usedsize").asLong() >= 3 << 20, service.toString());
        assertEquals("gridcache", service.get("implementation").asText());
        assertEquals(gridcache.door(), service.at("/storageendpoints/0/endpointurl").asText());
        assertEquals("[\"/\"]", service.at("/storageshares/0/path").toString(), "the standalone's one mount point");
    }

    private static JsonNode srr() throws Exception {
        Tools.Result r = Tools.curl("-f", "-D", "-", gridcache.door() + "/.gridcache/api/v1/srr").assertOk();
        assertTrue(r.out().toLowerCase().contains("content-type: application/json"), r.out());
        return Json.mapper().readTree(r.out().substring(r.out().indexOf("\r\n\r\n") + 4));
    }

    /** GETs {@code url} through door and pool: the pool's answer carries {@code Cache-Status} and {@code X-Cache}. */
    private static void assertCacheStatus(String expected, String xCache, String url, String... range) {
        List<String> args = new ArrayList<>(List.of("-fL", "-D", "-", "-o", "/dev/null"));
        args.addAll(List.of(range));
        args.add(url);
        String heads = Tools.curl(args.toArray(String[]::new)).assertOk().out();
        assertTrue(heads.contains("\r\nCache-Status: " + expected + "\r\n"), heads);
        assertTrue(heads.contains("\r\nX-Cache: " + xCache + "\r\n"), heads);
    }

    private static long sample(String metrics, String name) {
        return metrics.lines().filter(l -> l.startsWith(name + "{")).map(l -> l.substring(l.lastIndexOf(' ') + 1))
                .mapToLong(v -> (long) Double.parseDouble(v)).findFirst().orElseThrow(() -> new AssertionError(name));
    }
}
