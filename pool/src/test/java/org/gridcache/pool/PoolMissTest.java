package org.gridcache.pool;

import static org.awaitility.Awaitility.await;
import org.gridcache.common.settings.ClusterSettings.Keys;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.net.ServerSocket;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import org.gridcache.pool.store.Store;
import org.junit.jupiter.api.Test;

/** Fetches from the origin: coalescing, cut-through, and every way an origin can fail. */
class PoolMissTest extends PoolTestSupport {

    @Test
    void concurrentMissesShareOneOriginFetch() throws Exception {
        startPool(1 << 30);
        byte[] data = randomBytes(5 * 1024 * 1024 + 3, 11);
        CountDownLatch gate = new CountDownLatch(1);
        origin.serveGated("/hot", data, 0, gate);
        String token = ticket("/hot", origin.url("/hot"), data.length);

        List<CompletableFuture<HttpResponse<byte[]>>> clients = new ArrayList<>();
        for (int i = 0; i < 20; i++) {
            clients.add(http.sendAsync(HttpRequest.newBuilder(uri("/hot", token)).timeout(Duration.ofSeconds(90)).build(),
                    HttpResponse.BodyHandlers.ofByteArray()));
        }
        await().atMost(WAIT).alias("the origin fetch").until(() -> origin.gets("/hot") == 1);
        await().atMost(WAIT).alias("20 movers waiting on the fetch").until(() -> pool.activeMovers() == 20);
        gate.countDown();

        String expected = sha256(data);
        for (CompletableFuture<HttpResponse<byte[]>> c : clients) {
            HttpResponse<byte[]> r = c.join();
            assertEquals(200, r.statusCode());
            assertEquals(expected, sha256(r.body()));
        }
        assertEquals(1, origin.gets("/hot"));
        assertEquals("HIT", cache(fetch("/hot", data)));
    }

    @Test
    void aWriteBehindBudgetFarSmallerThanTheFilePausesAndResumesTheOrigin() throws Exception {
        org.gridcache.zk.ClusterConfig.set(zk, Keys.WRITE_BEHIND.key(), "64K");
        try {
            startPool(1 << 30); // reads /config at start: the tiny budget is in force from the first byte
            byte[] data = randomBytes(12 * 1024 * 1024 + 5, 13);
            origin.serve("/big", data);
            String token = ticket("/big", origin.url("/big"), data.length);
            List<CompletableFuture<HttpResponse<byte[]>>> clients = new ArrayList<>();
            for (int i = 0; i < 3; i++) {
                clients.add(http.sendAsync(HttpRequest.newBuilder(uri("/big", token)).timeout(Duration.ofSeconds(90)).build(),
                        HttpResponse.BodyHandlers.ofByteArray()));
            }
            String expected = sha256(data);
            for (CompletableFuture<HttpResponse<byte[]>> c : clients) {
                HttpResponse<byte[]> r = c.join();
                assertEquals(200, r.statusCode());
                assertEquals(expected, sha256(r.body()));
            }
            assertEquals(1, origin.gets("/big"));
        } finally {
            org.gridcache.zk.ClusterConfig.unset(zk, Keys.WRITE_BEHIND.key());
        }
    }

    @Test
    void bytesReachTheClientWhileTheOriginIsStillSending() throws Exception {
        startPool(1 << 30);
        byte[] data = randomBytes(2 * 1024 * 1024, 12);
        int half = data.length / 2;
        CountDownLatch gate = new CountDownLatch(1);
        origin.serveGated("/slow", data, half, gate);

        HttpResponse<InputStream> r = http.send(HttpRequest.newBuilder(uri("/slow", ticket("/slow", origin.url("/slow"), data.length)))
                .build(), HttpResponse.BodyHandlers.ofInputStream());
        assertEquals(200, r.statusCode());
        assertEquals("MISS", cache(r));
        assertEquals(String.valueOf(data.length), r.headers().firstValue("Content-Length").orElseThrow());
        try (InputStream in = r.body()) {
            byte[] first = in.readNBytes(half); // would hang if the pool stored before forwarding
            assertArrayEquals(Arrays.copyOf(data, half), first);
            gate.countDown();
            byte[] rest = in.readAllBytes();
            assertArrayEquals(Arrays.copyOfRange(data, half, data.length), rest);
        }
        awaitCommitted("/slow"); // the client can hold every byte a moment before the fetch is committed
        assertEquals("HIT", cache(fetch("/slow", data)));
        assertEquals(1, origin.gets("/slow"));
    }

    @Test
    void rangeInsideAFileStillFilling() throws Exception {
        startPool(1 << 30);
        byte[] data = randomBytes(1024 * 1024, 13);
        CountDownLatch gate = new CountDownLatch(1);
        origin.serveGated("/filling", data, 1000, gate);
        HttpResponse<byte[]> r = fetch("/filling", data, "Range", "bytes=100-199");
        assertEquals(206, r.statusCode()); // answered although the rest of the file has not arrived
        assertArrayEquals(Arrays.copyOfRange(data, 100, 200), r.body());
        gate.countDown();
        await().atMost(WAIT).alias("the fetch to complete").until(() -> pool.store().files() == 1);
    }

    @Test
    void severalRangesOfAFileStillFillingGoOutAsTheirBytesArrive() throws Exception {
        startPool(1 << 30);
        byte[] data = randomBytes(1024 * 1024, 14);
        CountDownLatch gate = new CountDownLatch(1);
        origin.serveGated("/vector", data, 1000, gate);
        HttpResponse<InputStream> r = http.send(HttpRequest.newBuilder(uri("/vector", ticket("/vector", origin.url("/vector"), data.length)))
                .header("Range", "bytes=500000-500099,100-199").build(), HttpResponse.BodyHandlers.ofInputStream());
        assertEquals(206, r.statusCode());
        String type = r.headers().firstValue("Content-Type").orElseThrow();
        String boundary = type.substring(type.indexOf("boundary=") + "boundary=".length());
        String firstHead = "--" + boundary + "\r\nContent-Type: application/octet-stream\r\nContent-Range: bytes 100-199/" + data.length + "\r\n\r\n";
        try (InputStream in = r.body()) {
            byte[] first = in.readNBytes(firstHead.length() + 100); // would hang if the pool waited for the whole file
            assertArrayEquals(Arrays.copyOfRange(data, 100, 200), Arrays.copyOfRange(first, firstHead.length(), first.length));
            gate.countDown();
            byte[] rest = in.readAllBytes();
            byte[] body = Arrays.copyOf(first, first.length + rest.length);
            System.arraycopy(rest, 0, body, first.length, rest.length);
            assertEquals(Long.parseLong(r.headers().firstValue("Content-Length").orElseThrow()), body.length);
            var parts = PoolServeTest.multipart(body, boundary);
            assertArrayEquals(Arrays.copyOfRange(data, 500000, 500100), parts.get("bytes 500000-500099/" + data.length));
        }
        await().atMost(WAIT).alias("the fetch to complete").until(() -> pool.store().files() == 1);
    }

    @Test
    void originDyingMidTransferAbortsClientsAndLeavesNoHit() throws Exception {
        startPool(1 << 30);
        byte[] data = randomBytes(1024 * 1024, 14);
        int half = data.length / 2;
        CountDownLatch gate = new CountDownLatch(1);
        origin.serveThenDie("/dies", data, half, gate);

        HttpResponse<InputStream> r = http.send(HttpRequest.newBuilder(uri("/dies", ticket("/dies", origin.url("/dies"), data.length)))
                .build(), HttpResponse.BodyHandlers.ofInputStream());
        assertEquals(200, r.statusCode());
        long received;
        boolean failed = false;
        try (InputStream in = r.body()) {
            received = in.readNBytes(half).length;
            gate.countDown();
            try {
                received += in.readAllBytes().length;
            } catch (IOException e) {
                failed = true; // premature end of a Content-Length body
            }
        }
        assertTrue(failed || received < data.length, "the client must not see a complete response");

        await().atMost(WAIT).alias("the part file to be gone").until(() -> partFiles() == 0);
        origin.serve("/dies", data);
        HttpResponse<byte[]> again = fetch("/dies", data);
        assertEquals(200, again.statusCode());
        assertEquals("MISS", cache(again));
        assertArrayEquals(data, again.body());
        assertEquals(2, origin.gets("/dies"));
    }

    private long partFiles() {
        try {
            return filesUnder(dir.resolve("store"), Store.PART);
        } catch (IOException e) {
            return -1;
        }
    }

    @Test
    void originDownIs502NamingTheHost() throws Exception {
        startPool(1 << 20);
        int closedPort;
        try (ServerSocket s = new ServerSocket(0)) {
            closedPort = s.getLocalPort();
        }
        String url = "http://127.0.0.1:" + closedPort + "/f";
        HttpResponse<byte[]> r = get("/f", ticket("/f", url, 10));
        assertEquals(502, r.statusCode());
        assertTrue(body(r).startsWith("cannot reach origin http://127.0.0.1:" + closedPort), body(r));
        assertEquals(1, body(r).trim().lines().count());
    }

    @Test
    void originRefusalsAreMapped() throws Exception {
        startPool(1 << 20);
        origin.status("/403", 403);
        origin.status("/500", 500);
        HttpResponse<byte[]> notFound = get("/404", ticket("/404", origin.url("/404"), -1));
        assertEquals(404, notFound.statusCode());
        assertEquals("not found at origin", body(notFound).trim());

        HttpResponse<byte[]> forbidden = get("/403", ticket("/403", origin.url("/403"), -1));
        assertEquals(403, forbidden.statusCode());
        assertTrue(body(forbidden).contains("HTTP 403"), body(forbidden));

        HttpResponse<byte[]> error = get("/500", ticket("/500", origin.url("/500"), -1));
        assertEquals(502, error.statusCode());
        assertTrue(body(error).contains("127.0.0.1") && body(error).contains("500"), body(error));

        origin.serve("/404", new byte[] {1, 2, 3});
        assertEquals(200, get("/404", ticket("/404", origin.url("/404"), 3)).statusCode()); // failures are not cached
    }

    @Test
    void originSizeDifferentFromTicketIs502() throws Exception {
        startPool(1 << 20);
        origin.serve("/f", new byte[10]);
        HttpResponse<byte[]> r = get("/f", ticket("/f", origin.url("/f"), 11));
        assertEquals(502, r.statusCode());
        assertTrue(body(r).contains("ticket expects 11"), body(r));
        assertEquals(0, pool.store().files());
    }

    @Test
    void originWithoutContentLengthIsServedOnceComplete() throws Exception {
        startPool(1 << 20); // smaller than the reservation step of unknown-size fetches
        byte[] data = randomBytes(300_000, 17);
        origin.serveWithoutLength("/nolength", data);
        HttpResponse<byte[]> r = get("/nolength", ticket("/nolength", origin.url("/nolength"), -1));
        assertEquals(200, r.statusCode());
        assertArrayEquals(data, r.body());
        await().atMost(WAIT).alias("the copy to be committed").until(() -> pool.store().files() == 1);
        assertEquals(data.length, pool.store().used()); // the unused part of the reservation was given back
    }

    @Test
    void redirectLoopIs502() throws Exception {
        startPool(1 << 20);
        origin.redirect("/loop", "/loop");
        HttpResponse<byte[]> r = get("/loop", ticket("/loop", origin.url("/loop"), -1));
        assertEquals(502, r.statusCode());
        assertTrue(body(r).contains("redirected more than 5 times"), body(r));
        assertEquals(6, origin.gets("/loop"));
    }

    @Test
    void staleCopyIsFetchedAnew() throws Exception {
        startPool(1 << 20);
        byte[] v1 = randomBytes(100, 15);
        byte[] v2 = randomBytes(150, 16);
        origin.serve("/changing", v1);
        assertArrayEquals(v1, fetch("/changing", v1).body());
        assertEquals("HIT", cache(fetch("/changing", v1)));

        origin.serve("/changing", v2);
        HttpResponse<byte[]> fresh = fetch("/changing", v2); // the door now says 150 bytes
        assertEquals("MISS", cache(fresh));
        assertEquals("gridcache; fwd=stale; stored", cacheStatus(fresh));
        assertArrayEquals(v2, fresh.body());
        assertEquals("HIT", cache(fetch("/changing", v2)));
        assertEquals(2, origin.gets("/changing"));
        assertEquals(150, pool.store().used());
    }
}
