package org.gridcache.pool;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.gridcache.common.Json;
import org.gridcache.common.origin.FileOriginRoots;
import org.gridcache.common.origin.OriginEntry;
import org.gridcache.common.cluster.PoolRecord;
import org.gridcache.zk.MountTable;
import org.gridcache.zk.layout.ZkLayout;
import org.junit.jupiter.api.Test;

/** Hits, misses, ranges and the HTTP surface of a pool. */
class PoolServeTest extends PoolTestSupport {

    @Test
    void hitAfterMissIsByteExactAndFetchesOnce() throws Exception {
        startPool(1 << 30);
        byte[] data = randomBytes(3 * 1024 * 1024 + 17, 1);
        origin.serve("/data/run1/file.root", data);

        HttpResponse<byte[]> miss = fetch("/data/run1/file.root", data);
        assertEquals(200, miss.statusCode());
        assertEquals("MISS", cache(miss));
        assertEquals("gridcache; fwd=uri-miss; stored", cacheStatus(miss));
        assertEquals(sha256(data), sha256(miss.body()));

        HttpResponse<byte[]> hit = fetch("/data/run1/file.root", data);
        assertEquals(200, hit.statusCode());
        assertEquals("HIT", cache(hit));
        assertEquals("gridcache; hit", cacheStatus(hit));
        assertEquals(sha256(data), sha256(hit.body()));
        assertEquals(String.valueOf(data.length), hit.headers().firstValue("Content-Length").orElseThrow());
        assertEquals("application/octet-stream", hit.headers().firstValue("Content-Type").orElseThrow());
        assertEquals("bytes", hit.headers().firstValue("Accept-Ranges").orElseThrow());
        assertEquals("\"v" + data.length + "\"", hit.headers().firstValue("ETag").orElseThrow());
        assertEquals("Tue, 01 Apr 2025 10:00:00 GMT", hit.headers().firstValue("Last-Modified").orElseThrow());
        assertEquals(1, origin.gets("/data/run1/file.root"));
    }

    @Test
    void rangesOnAHit() throws Exception {
        startPool(1 << 20);
        byte[] data = randomBytes(1000, 2);
        origin.serve("/r", data);
        assertEquals(200, fetch("/r", data).statusCode());

        HttpResponse<byte[]> part = fetch("/r", data, "Range", "bytes=10-19");
        assertEquals(206, part.statusCode());
        assertEquals("bytes 10-19/1000", part.headers().firstValue("Content-Range").orElseThrow());
        assertArrayEquals(Arrays.copyOfRange(data, 10, 20), part.body());

        HttpResponse<byte[]> tail = fetch("/r", data, "Range", "bytes=-3");
        assertEquals(206, tail.statusCode());
        assertEquals("bytes 997-999/1000", tail.headers().firstValue("Content-Range").orElseThrow());
        assertArrayEquals(Arrays.copyOfRange(data, 997, 1000), tail.body());

        HttpResponse<byte[]> open = fetch("/r", data, "Range", "bytes=990-");
        assertArrayEquals(Arrays.copyOfRange(data, 990, 1000), open.body());

        HttpResponse<byte[]> beyond = fetch("/r", data, "Range", "bytes=1000-");
        assertEquals(416, beyond.statusCode());
        assertEquals("bytes */1000", beyond.headers().firstValue("Content-Range").orElseThrow());

        HttpResponse<byte[]> several = fetch("/r", data, "Range", "bytes=500-509,0-1,5-6");
        assertEquals(206, several.statusCode());
        String type = several.headers().firstValue("Content-Type").orElseThrow();
        assertTrue(type.startsWith("multipart/byteranges; boundary="), type);
        assertEquals(several.body().length, Long.parseLong(several.headers().firstValue("Content-Length").orElseThrow()));
        Map<String, byte[]> parts = multipart(several.body(), type.substring(type.indexOf('=') + 1));
        assertEquals(List.of("bytes 0-1/1000", "bytes 5-6/1000", "bytes 500-509/1000"), List.copyOf(parts.keySet()));
        assertArrayEquals(Arrays.copyOfRange(data, 0, 2), parts.get("bytes 0-1/1000"));
        assertArrayEquals(Arrays.copyOfRange(data, 5, 7), parts.get("bytes 5-6/1000"));
        assertArrayEquals(Arrays.copyOfRange(data, 500, 510), parts.get("bytes 500-509/1000"));

        HttpResponse<byte[]> overlapping = fetch("/r", data, "Range", "bytes=0-9,5-14");
        assertEquals("bytes 0-14/1000", overlapping.headers().firstValue("Content-Range").orElseThrow(), "coalesced into one");
        assertArrayEquals(Arrays.copyOfRange(data, 0, 15), overlapping.body());
        assertEquals(416, fetch("/r", data, "Range", "bytes=2000-,3000-3001").statusCode());
        assertEquals(1, origin.gets("/r"));
    }

    /** The parts of a multipart/byteranges body, by Content-Range, in order. */
    static Map<String, byte[]> multipart(byte[] body, String boundary) {
        Map<String, byte[]> parts = new java.util.LinkedHashMap<>();
        String text = new String(body, java.nio.charset.StandardCharsets.ISO_8859_1);
        int at = text.indexOf("--" + boundary + "\r\n");
        while (at >= 0) {
            int headersEnd = text.indexOf("\r\n\r\n", at);
            String headers = text.substring(at, headersEnd);
            String range = headers.lines().filter(l -> l.startsWith("Content-Range: ")).findFirst().orElseThrow()
                    .substring("Content-Range: ".length());
            String[] se = range.substring("bytes ".length(), range.indexOf('/')).split("-");
            int start = headersEnd + 4;
            int length = (int) (Long.parseLong(se[1]) - Long.parseLong(se[0]) + 1);
            parts.put(range, Arrays.copyOfRange(body, start, start + length));
            String after = text.substring(start + length, start + length + 4 + boundary.length());
            assertEquals("\r\n--" + boundary, after);
            at = text.startsWith("--", start + length + 4 + boundary.length()) ? -1 : start + length + 2;
        }
        assertTrue(text.endsWith("\r\n--" + boundary + "--\r\n"), "closing boundary");
        return parts;
    }

    @Test
    void headAndOtherMethods() throws Exception {
        startPool(1 << 20);
        byte[] data = randomBytes(500, 3);
        origin.serve("/h", data);
        String token = ticket("/h", origin.url("/h"), data.length);
        HttpResponse<Void> head = http.send(HttpRequest.newBuilder(uri("/h", token))
                .method("HEAD", HttpRequest.BodyPublishers.noBody()).build(), HttpResponse.BodyHandlers.discarding());
        assertEquals(200, head.statusCode());
        assertEquals("500", head.headers().firstValue("Content-Length").orElseThrow());

        HttpResponse<String> post = http.send(HttpRequest.newBuilder(uri("/h", token))
                .POST(HttpRequest.BodyPublishers.ofString("x")).build(), HttpResponse.BodyHandlers.ofString());
        assertEquals(405, post.statusCode());
        assertEquals("GET, HEAD", post.headers().firstValue("Allow").orElseThrow());
        HttpResponse<String> made = http.send(HttpRequest.newBuilder(uri("/h", token))
                .method("FOOBAR", HttpRequest.BodyPublishers.noBody()).build(), HttpResponse.BodyHandlers.ofString());
        assertEquals(501, made.statusCode(), "a method no one implements: " + made.body());
        // issue 15's hostile run: Netty parses these lines; they reached the ticket check (403)
        URI at = uri("/h", token);
        for (String version : new String[] {"HTTP/2.0", "HTTP/3.0", "HTXP/1.1"}) {
            String answer = rawExchange(at, "GET " + at.getRawPath() + "?" + at.getRawQuery() + " " + version);
            assertTrue(answer.startsWith("HTTP/1.1 400"), version + ": " + answer);
        }
        awaitCommitted("/h"); // the HEAD started the fetch; it completes in the background
        assertEquals("HIT", cache(fetch("/h", data)));
    }

    @Test
    void followsRedirectsOfTheOrigin() throws Exception {
        startPool(1 << 20);
        byte[] data = randomBytes(4000, 4);
        origin.redirect("/head-node/f", "/pool-node/f");
        origin.serve("/pool-node/f", data);
        HttpResponse<byte[]> r = get("/head-node/f", ticket("/head-node/f", origin.url("/head-node/f"), data.length));
        assertEquals(200, r.statusCode());
        assertArrayEquals(data, r.body());
    }

    @Test
    void servesFileOrigins() throws Exception {
        Path root = mountFileOrigin();
        startPool(1 << 30);
        byte[] data = randomBytes(2 * 1024 * 1024 + 5, 5);
        Path file = Files.write(root.resolve("origin file.bin"), data);
        String token = ticket("/local/origin file.bin", file.toUri().toString(), data.length);
        HttpResponse<byte[]> miss = get("/local/origin file.bin", token);
        assertEquals("MISS", cache(miss));
        assertArrayEquals(data, miss.body());
        await().atMost(WAIT).alias("the copy to be committed").until(() -> pool.store().files() == 1);
        HttpResponse<byte[]> hit = get("/local/origin file.bin", token);
        assertEquals("HIT", cache(hit));
        assertArrayEquals(data, hit.body());

        HttpResponse<byte[]> missing = get("/local/nope", ticket("/local/nope", root.resolve("nope").toUri().toString(), -1));
        assertEquals(404, missing.statusCode());
        assertEquals("not found at origin", body(missing).trim());
    }

    /** A file swapped for a link (of the same size) after the door issued the ticket: refused, the target never read. */
    @Test
    void aFileOriginNeverFollowsALinkSwappedInAfterTheTicket() throws Exception {
        Path root = mountFileOrigin();
        startPool(1 << 30);
        byte[] secret = randomBytes(1000, 6);
        Files.write(dir.resolve("secret.bin"), secret);
        Files.write(Files.createDirectories(dir.resolve("elsewhere")).resolve("f.bin"), secret);
        Path file = Files.write(Files.createDirectories(root.resolve("sub")).resolve("f.bin"), randomBytes(1000, 7));
        String token = signedTicket("/local/sub/f.bin", poolName, 1000, Instant.now().getEpochSecond() + 120);

        Files.delete(file);
        Files.createSymbolicLink(file, dir.resolve("secret.bin"));
        HttpResponse<byte[]> link = get("/local/sub/f.bin", token);
        assertEquals(403, link.statusCode());
        assertEquals("origin file not served: a symbolic link below the origin root is not followed", body(link).trim());

        Files.delete(file);
        Files.delete(root.resolve("sub"));
        Files.createSymbolicLink(root.resolve("sub"), dir.resolve("elsewhere"));
        HttpResponse<byte[]> dirLink = get("/local/sub/f.bin", token);
        assertEquals(403, dirLink.statusCode());
        assertEquals("origin file not served: a symbolic link below the origin root is not followed", body(dirLink).trim());

        // a ticket names no origin: a path no mount serves reaches no file, inside the root or out
        HttpResponse<byte[]> unmounted = get("/elsewhere/f.bin", signedTicket("/elsewhere/f.bin", poolName, 1000,
                Instant.now().getEpochSecond() + 120));
        assertEquals(404, unmounted.statusCode());
        assertEquals("no origin serves this path now", body(unmounted).trim());
        assertEquals(0, pool.store().files());
    }

    /**
     * A {@code file://} origin at {@code /local}, put before the pool starts so that its first reading holds it, and
     * its directory the pool's {@code --file-origin-root}.
     */
    private Path mountFileOrigin() throws Exception {
        Path root = Files.createDirectories(dir.resolve("origin"));
        MountTable.put(zk, OriginEntry.of("local", "/local", root.toUri().toString()));
        fileOriginRoots = FileOriginRoots.of(List.of(root));
        return root;
    }

    /**
     * Whoever writes the mount table, the pool reads only below its --file-origin-root: a mount of a sibling sharing
     * the allowed directory's prefix is refused with 403 and the setting, nothing read or stored.
     */
    @Test
    void aFileOriginOutsideTheAllowedDirectoriesIsRefusedWithItsReason() throws Exception {
        Path root = mountFileOrigin();
        Files.writeString(root.resolve("ok.txt"), "ok");
        Path sibling = Files.createDirectories(dir.resolve("origin2"));
        Files.writeString(sibling.resolve("secret.txt"), "secret");
        MountTable.put(zk, OriginEntry.of("sibling", "/sibling", sibling.toUri().toString()));
        startPool(1 << 30);
        long later = Instant.now().getEpochSecond() + 120;
        HttpResponse<byte[]> refused = await().atMost(WAIT).until(() -> get("/sibling/secret.txt",
                signedTicket("/sibling/secret.txt", poolName, 6, later)), r -> r.statusCode() != 404);
        assertEquals(403, refused.statusCode());
        assertEquals("origin file not served: the origin directory is not at or below a --file-origin-root of this node",
                body(refused).trim());
        HttpResponse<byte[]> ok = get("/local/ok.txt", signedTicket("/local/ok.txt", poolName, 2, later));
        assertEquals(200, ok.statusCode(), "the allowed origin still serves");
        assertEquals("ok", new String(ok.body(), java.nio.charset.StandardCharsets.UTF_8));
        await().atMost(WAIT).alias("the allowed file committed").until(() -> pool.store().files() == 1);
        assertEquals(1, pool.store().files(), "the refused file was not stored");
    }

    /** A pool started without --file-origin-root (the default of gridcache pool) serves no file:// origin. */
    @Test
    void aPoolWithoutAllowedDirectoriesServesNoFileOrigin() throws Exception {
        Path root = mountFileOrigin();
        fileOriginRoots = FileOriginRoots.NONE;
        Files.writeString(root.resolve("f.txt"), "data");
        startPool(1 << 30);
        HttpResponse<byte[]> refused = get("/local/f.txt", signedTicket("/local/f.txt", poolName, 4, Instant.now().getEpochSecond() + 120));
        assertEquals(403, refused.statusCode());
        assertEquals("origin file not served: this node has no --file-origin-root (it serves no file:// origin)", body(refused).trim());
        assertEquals(0, pool.store().files());
    }

    @Test
    void registersItsRecordInZooKeeper() throws Exception {
        startPool(123_456_789);
        PoolRecord record = Json.read(zk.getData().forPath(ZkLayout.pool(poolName)), PoolRecord.class);
        assertEquals(poolName, record.id());
        assertEquals(pool.url(), record.url());
        assertEquals("http://127.0.0.1:" + pool.port(), record.url());
        assertEquals("test", record.site());
        assertEquals(123_456_789, record.capacityBytes());
        assertEquals(123_456_789, record.freeBytes());
        assertTrue(record.startedAt() > 0);
        pool.close();
        pool = null;
        await().atMost(WAIT).alias("deregistration").until(() -> {
            try {
                return zk.checkExists().forPath(ZkLayout.pool(poolName)) == null;
            } catch (Exception e) {
                return false;
            }
        });
    }

    /** One request line (Host and Connection: close added) on a socket of its own; the whole answer. */
    private static String rawExchange(URI at, String requestLine) throws java.io.IOException {
        try (java.net.Socket socket = new java.net.Socket(at.getHost(), at.getPort())) {
            socket.setSoTimeout(10_000);
            socket.getOutputStream().write((requestLine + "\r\nHost: x\r\nConnection: close\r\n\r\n")
                    .getBytes(java.nio.charset.StandardCharsets.ISO_8859_1));
            return new String(socket.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.ISO_8859_1);
        }
    }
}
