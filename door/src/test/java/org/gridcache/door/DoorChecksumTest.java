package org.gridcache.door;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.apache.curator.framework.CuratorFramework;
import org.gridcache.common.origin.FileOriginRoots;
import org.gridcache.common.Json;
import org.gridcache.common.origin.OriginEntry;
import org.gridcache.common.cluster.PoolRecord;
import org.gridcache.common.ticket.TicketSigningKey;
import org.gridcache.zk.EmbeddedZooKeeper;
import org.gridcache.zk.EphemeralRegistration;
import org.gridcache.zk.MountTable;
import org.gridcache.zk.Zk;
import org.gridcache.zk.layout.ZkLayout;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The door's side of checksums: a HEAD with {@code Want-Digest} relays what the ranked pool answers, a proxied GET
 * relays the pool's {@code Digest}, and PROPFIND's dCache {@code Checksums} property is the pool's when it holds the
 * file, else absent (404 in its propstat).
 */
class DoorChecksumTest {
    private static final Duration WAIT = Duration.ofSeconds(20);
    private static final String ADLER = "adler32=0a1b2c3d,md5=kAFQmDzST7DWlj99KOF/cg==";
    @TempDir
    Path tmp;
    private final List<AutoCloseable> closeables = new ArrayList<>();
    private final TicketSigningKey key = TicketSigningKey.generate();
    private final HttpClient http = HttpClient.newBuilder().followRedirects(HttpClient.Redirect.NEVER)
            .connectTimeout(Duration.ofSeconds(10)).build();
    private CuratorFramework zk;
    private Door door;

    @BeforeEach
    void start() throws Exception {
        EmbeddedZooKeeper server = EmbeddedZooKeeper.start(tmp.resolve("zk"), "127.0.0.1", 0);
        closeables.add(server);
        zk = Zk.connect(server.connectString());
        closeables.add(zk);
        Path files = Files.createDirectories(tmp.resolve("files"));
        Files.write(files.resolve("f.bin"), new byte[1000]);
        Files.write(files.resolve("cold.bin"), new byte[10]);
        MountTable.put(zk, OriginEntry.of("local", "/local", files.toUri().toString()));
        door = Door.start(new DoorSettings("door1", "127.0.0.1", 0, null, key)
                .withFileOriginRoots(FileOriginRoots.of(List.of(files))), zk);
        closeables.add(door);
    }

    @AfterEach
    void stop() {
        TestResources.closeInReverse(closeables);
    }

    @Test
    void headWithWantDigestRelaysThePoolsAnswerAndWithoutItAsksNoPool() throws Exception {
        FakePool pool = pool("p1");
        pool.files.put("/local/f.bin", new byte[1000]);
        pool.digests.put("/local/f.bin", ADLER);
        HttpResponse<Void> r = await().atMost(WAIT).alias("a HEAD the pool answered").until(
                () -> head("/local/f.bin", "Want-Digest", "adler32, md5"), x -> x.headers().firstValue("Digest").isPresent());
        assertEquals(200, r.statusCode());
        assertEquals(ADLER, r.headers().firstValue("Digest").orElseThrow());
        assertEquals("1000", r.headers().firstValue("Content-Length").orElseThrow());
        assertEquals("adler32, md5", pool.wantDigests.get("/local/f.bin"), "the client's Want-Digest reaches the pool");

        pool.wantDigests.clear();
        HttpResponse<Void> plain = head("/local/f.bin");
        assertFalse(plain.headers().firstValue("Digest").isPresent());
        assertTrue(pool.wantDigests.isEmpty(), "a HEAD without Want-Digest is the door's alone");
    }

    @Test
    void headWithWantDigestAndNoPoolStillAnswersWithoutDigest() throws Exception {
        HttpResponse<Void> r = head("/local/f.bin", "Want-Digest", "adler32");
        assertEquals(200, r.statusCode());
        assertFalse(r.headers().firstValue("Digest").isPresent());
    }

    @Test
    void aProxiedGetRelaysThePoolsDigest() throws Exception {
        FakePool pool = pool("p1");
        pool.files.put("/local/f.bin", new byte[1000]);
        pool.digests.put("/local/f.bin", ADLER);
        HttpResponse<byte[]> r = await().atMost(WAIT).alias("the proxied read").until(() -> http.send(
                HttpRequest.newBuilder(uri("/local/f.bin")).header("User-Agent", "cadaver/0.24").header("Want-Digest", "adler32")
                        .build(), HttpResponse.BodyHandlers.ofByteArray()), x -> x.statusCode() == 200);
        assertEquals(ADLER, r.headers().firstValue("Digest").orElseThrow());
        assertEquals("adler32", pool.wantDigests.get("/local/f.bin"));
    }

    @Test
    void propfindChecksumsIsThePoolsWhenItHoldsTheFileElse404() throws Exception {
        FakePool pool = pool("p1");
        pool.files.put("/local/f.bin", new byte[1000]);
        pool.digests.put("/local/f.bin", ADLER);
        String body = "<?xml version=\"1.0\"?><D:propfind xmlns:D=\"DAV:\"><D:prop xmlns:R=\"http://www.dcache.org/2013/webdav\">"
                + "<R:Checksums/><D:getcontentlength/></D:prop></D:propfind>";
        String held = await().atMost(WAIT).alias("the pool to be known").until(() -> propfind("/local/f.bin", body),
                x -> x.contains(ADLER));
        assertTrue(held.contains("Checksums>" + ADLER + "<"), held);
        assertEquals("adler32, md5, sha-256, crc32c", pool.wantDigests.get("/local/f.bin"));

        String cold = propfind("/local/cold.bin", body);
        assertTrue(cold.contains("404"), "unknown checksums are a 404 propstat: " + cold);
        assertFalse(cold.contains("adler32="), cold);
        assertTrue(cold.contains(">10<"), "the other properties still answer: " + cold);

        String all = propfind("/local/f.bin", "<?xml version=\"1.0\"?><D:propfind xmlns:D=\"DAV:\"><D:allprop/></D:propfind>");
        assertFalse(all.contains("Checksums"), "not in allprop, as dCache: " + all);
    }

    private String propfind(String path, String body) throws Exception {
        HttpResponse<String> r = http.send(HttpRequest.newBuilder(uri(path)).header("Depth", "0")
                .header("Content-Type", "application/xml").method("PROPFIND", HttpRequest.BodyPublishers.ofString(body)).build(),
                HttpResponse.BodyHandlers.ofString());
        assertEquals(207, r.statusCode(), r.body());
        return r.body();
    }

    private HttpResponse<Void> head(String path, String... headers) throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(uri(path)).method("HEAD", HttpRequest.BodyPublishers.noBody());
        if (headers.length > 0) {
            b.headers(headers);
        }
        return http.send(b.build(), HttpResponse.BodyHandlers.discarding());
    }

    private URI uri(String path) {
        return URI.create("http://127.0.0.1:" + door.port() + path);
    }

    private FakePool pool(String id) throws Exception {
        FakePool pool = new FakePool(id, key);
        closeables.add(pool);
        PoolRecord record = new PoolRecord(id, pool.url(), "default", 1L << 30, 1L << 29, 0, 0, 0, "test", 0);
        EphemeralRegistration reg = new EphemeralRegistration(zk, ZkLayout.pool(id), () -> Json.bytes(record), Duration.ofHours(1));
        closeables.add(reg);
        reg.awaitCreated(WAIT);
        return pool;
    }
}
