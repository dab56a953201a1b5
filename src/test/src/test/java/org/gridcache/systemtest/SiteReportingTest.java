package org.gridcache.systemtest;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.networknt.schema.Error;
import com.networknt.schema.Schema;
import com.networknt.schema.SchemaRegistry;
import com.networknt.schema.SpecificationVersion;
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
 * What a site's monitoring reads, against {@code gridcache standalone} and real nginx origins: the pool's
 * {@code Cache-Status} (RFC 9211) on a miss, a hit and a block read, seen through curl; and the door's WLCG Storage
 * Resource Reporting JSON, whose service sizes are the pool's own figures from its metrics and which has one share per
 * origin: two more origins mounted at {@code /one} and {@code /two}, whose files only one test reads, show what was
 * read through each and what an admin evicted (jmxterm, as in {@link OperationsTest}). With {@code srr.shares=vo}, two
 * more origins whose mounts declare the VO atlas are one share of what was read through both. Every report read is
 * checked against the WLCG SRR schema 4.2.
 */
@Timeout(value = 5, unit = TimeUnit.MINUTES)
class SiteReportingTest {
    /** WLCG's SRR schema 4.2, as the door's unit test reads it. */
    private static final Schema SRR_SCHEMA = SchemaRegistry.withDefaultDialect(SpecificationVersion.DRAFT_7)
            .getSchema(readSchema());
    @TempDir
    static Path tmp;
    static NginxOrigin origin;
    static NginxOrigin one;
    static NginxOrigin two;
    static NginxOrigin atlasA;
    static NginxOrigin atlasB;
    static Standalone gridcache;
    static Jmxterm jmx;

    @BeforeAll
    static void start() throws Exception {
        Tools.require("curl", "nginx");
        Path data = Files.createDirectories(tmp.resolve("data"));
        Tools.randomFile(data.resolve("whole.bin"), 2 << 20, 1);
        Tools.randomFile(data.resolve("blocks.bin"), 32 << 20, 2); // ranges of it read blocks
        Tools.randomFile(data.resolve("reported.bin"), 3 << 20, 3);
        origin = NginxOrigin.start(tmp.resolve("nginx"), data);
        Path dataOne = Files.createDirectories(tmp.resolve("one"));
        Tools.randomFile(dataOne.resolve("a.bin"), 1 << 20, 4);
        Tools.randomFile(dataOne.resolve("b.bin"), 2 << 20, 5);
        Path dataTwo = Files.createDirectories(tmp.resolve("two"));
        Tools.randomFile(dataTwo.resolve("c.bin"), 3 << 20, 6);
        one = NginxOrigin.start(tmp.resolve("nginx-one"), dataOne);
        two = NginxOrigin.start(tmp.resolve("nginx-two"), dataTwo);
        Path dataAtlasA = Files.createDirectories(tmp.resolve("atlas-a"));
        Tools.randomFile(dataAtlasA.resolve("d.bin"), 1 << 20, 7);
        Path dataAtlasB = Files.createDirectories(tmp.resolve("atlas-b"));
        Tools.randomFile(dataAtlasB.resolve("e.bin"), 2 << 20, 8);
        atlasA = NginxOrigin.start(tmp.resolve("nginx-atlas-a"), dataAtlasA);
        atlasB = NginxOrigin.start(tmp.resolve("nginx-atlas-b"), dataAtlasB);
        int jmxPort = Tools.freePort();
        gridcache = Standalone.start(tmp, origin.url(), "--jmx-port", String.valueOf(jmxPort));
        gridcache.admin("origins", "add", "one", "--prefix", "/one", "--url", one.url()).assertOk();
        gridcache.admin("origins", "add", "two", "--prefix", "/two", "--url", two.url()).assertOk();
        gridcache.admin("origins", "add", "atlas-a", "--prefix", "/atlas/a", "--url", atlasA.url(), "--vo", "atlas").assertOk();
        gridcache.admin("origins", "add", "atlas-b", "--prefix", "/atlas/b", "--url", atlasB.url(), "--vo", "atlas").assertOk();
        jmx = new Jmxterm("127.0.0.1:" + jmxPort, tmp.resolve("jmxterm-session.txt"));
    }

    @AfterAll
    static void stop() throws Exception {
        Tools.closeAll(origin, one, two, atlasA, atlasB, gridcache);
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
        // the pool publishes its figures to ZooKeeper every few seconds: the report follows them
        Tools.await("the SRR to show the pool's figures", Duration.ofSeconds(60)).untilAsserted(() -> {
            String metrics = metrics();
            JsonNode srr = srr();
            JsonNode share = share(srr, "/");
            assertEquals(sample(metrics, "gridcache_pool_capacity_bytes"), share.get("totalsize").asLong(), metrics);
            assertServiceSizesAreThePools(srr, metrics);
            assertTrue(share.get("usedsize").asLong() >= 3 << 20, srr.toString()); // reported.bin, read through /
        });
        JsonNode service = srr().get("storageservice");
        assertEquals("gridcache", service.get("implementation").asText());
        assertEquals(gridcache.door(), service.at("/storageendpoints/0/endpointurl").asText());
        assertEquals("[\"/\"]", service.at("/storageshares/0/path").toString(), "the standalone's own mount point");
    }

    /**
     * Each mount point is a share holding the complete files read through it, and the whole pool's capacity; the
     * service's sizes stay the pool's; what an admin evicts leaves its share, the other share keeps its bytes.
     */
    @Test
    void eachMountIsAShareHoldingWhatWasReadThroughIt() throws Exception {
        for (String path : List.of("/one/a.bin", "/one/b.bin", "/two/c.bin")) { // once door and pool see the mounts
            Tools.await("a read of " + path, Duration.ofSeconds(30),
                    () -> Tools.curl("-fL", "-o", "/dev/null", gridcache.door() + path).exit() == 0);
        }
        Tools.await("each share to hold what was read through its mount", Duration.ofSeconds(60)).untilAsserted(() -> {
            String metrics = metrics();
            JsonNode srr = srr();
            assertEquals(3 << 20, share(srr, "/one").get("usedsize").asLong(), srr.toString()); // a.bin and b.bin
            assertEquals(3 << 20, share(srr, "/two").get("usedsize").asLong(), srr.toString()); // c.bin
            for (String mount : List.of("/one", "/two")) {
                assertEquals(sample(metrics, "gridcache_pool_capacity_bytes"), share(srr, mount).get("totalsize").asLong());
            }
            assertServiceSizesAreThePools(srr, metrics);
        });
        assertEquals("one", share(srr(), "/one").get("name").asText(), "named after its mount");
        // the client has its bytes a moment before the pool lets go of b.bin: retried, as an admin would
        Tools.await("evict /one/b.bin to succeed", Duration.ofSeconds(30), () -> jmx.session("run -b "
                + "org.gridcache:name=pool1,type=Pool evict /one/b.bin").contains("evicted /one/b.bin (2097152 bytes)"));
        Tools.await("the share of /one to drop by b.bin", Duration.ofSeconds(60)).untilAsserted(() -> {
            String metrics = metrics();
            JsonNode srr = srr();
            assertEquals(1 << 20, share(srr, "/one").get("usedsize").asLong(), srr.toString());
            assertEquals(3 << 20, share(srr, "/two").get("usedsize").asLong(), srr.toString());
            assertServiceSizesAreThePools(srr, metrics);
        });
    }

    /**
     * Per VO: the VO atlas, which the mounts /atlas/a and /atlas/b declare, is one share holding what was read through
     * both; origins that declare no VO stay shares of their own; by origin again, the two are shares apart.
     */
    @Test
    void perVoSharesHoldWhatWasReadThroughTheirVosMounts() throws Exception {
        for (String path : List.of("/atlas/a/d.bin", "/atlas/b/e.bin")) {
            Tools.await("a read of " + path, Duration.ofSeconds(30),
                    () -> Tools.curl("-fL", "-o", "/dev/null", gridcache.door() + path).exit() == 0);
        }
        gridcache.admin("config", "set", "srr.shares", "vo").assertOk();
        try {
            Tools.await("the atlas share to hold what was read through its mounts", Duration.ofSeconds(60)).untilAsserted(() -> {
                String metrics = metrics();
                JsonNode srr = srr();
                JsonNode atlas = share(srr, "/atlas/a");
                assertEquals("atlas", atlas.get("name").asText(), srr.toString());
                assertEquals("[\"atlas\"]", atlas.get("vos").toString());
                assertEquals("[\"/atlas/a\",\"/atlas/b\"]", atlas.get("path").toString());
                assertEquals(3 << 20, atlas.get("usedsize").asLong(), srr.toString()); // d.bin and e.bin
                assertEquals(sample(metrics, "gridcache_pool_capacity_bytes"), atlas.get("totalsize").asLong());
                assertEquals("[]", share(srr, "/two").get("vos").toString(), "a mount of no VO: a share of its own");
                assertServiceSizesAreThePools(srr, metrics);
            });
        } finally {
            gridcache.admin("config", "set", "srr.shares", "origin").assertOk();
        }
        Tools.await("the shares by origin again", Duration.ofSeconds(60)).untilAsserted(() -> {
            JsonNode srr = srr();
            assertEquals(1 << 20, share(srr, "/atlas/a").get("usedsize").asLong(), srr.toString());
            assertEquals(2 << 20, share(srr, "/atlas/b").get("usedsize").asLong(), srr.toString());
            assertEquals("[]", share(srr, "/atlas/a").get("vos").toString());
        });
    }

    /** The service's sizes: the pool's capacity and what it holds, as its metrics say. */
    private static void assertServiceSizesAreThePools(JsonNode srr, String metrics) {
        JsonNode online = srr.at("/storageservice/storagecapacity/online");
        assertEquals(sample(metrics, "gridcache_pool_capacity_bytes"), online.get("totalsize").asLong(), metrics);
        assertEquals(sample(metrics, "gridcache_pool_used_bytes"), online.get("usedsize").asLong(), metrics);
    }

    /** The share whose paths include {@code mountPoint}. */
    private static JsonNode share(JsonNode srr, String mountPoint) {
        for (JsonNode share : srr.at("/storageservice/storageshares")) {
            for (JsonNode path : share.get("path")) {
                if (path.asText().equals(mountPoint)) {
                    return share;
                }
            }
        }
        throw new AssertionError("no share of " + mountPoint + " in " + srr);
    }

    /** The pool's metrics (its /.gridcache/ paths need no ticket). */
    private static String metrics() {
        URI pool = URI.create(gridcache.location("/reported.bin")).resolve("/.gridcache/metrics");
        return Tools.curl("-f", pool.toString()).assertOk().out();
    }

    private static JsonNode srr() throws Exception {
        Tools.Result r = Tools.curl("-f", "-D", "-", gridcache.door() + "/.gridcache/api/v1/srr").assertOk();
        assertTrue(r.out().toLowerCase().contains("content-type: application/json"), r.out());
        JsonNode srr = Json.mapper().readTree(r.out().substring(r.out().indexOf("\r\n\r\n") + 4));
        List<Error> errors = SRR_SCHEMA.validate(srr);
        assertTrue(errors.isEmpty(), () -> errors + " in " + srr);
        return srr;
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

    private static String readSchema() {
        try {
            return Files.readString(Path.of("../../door/src/test/resources/srr-4.2.schema.json"));
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    private static long sample(String metrics, String name) {
        return metrics.lines().filter(l -> l.startsWith(name + "{")).map(l -> l.substring(l.lastIndexOf(' ') + 1))
                .mapToLong(v -> (long) Double.parseDouble(v)).findFirst().orElseThrow(() -> new AssertionError(name));
    }
}
