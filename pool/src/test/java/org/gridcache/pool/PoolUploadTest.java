package org.gridcache.pool;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.sun.net.httpserver.HttpServer;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.time.Instant;
import java.util.Base64;
import java.util.List;
import java.util.stream.Stream;
import org.gridcache.common.origin.CredentialMode;
import org.gridcache.common.origin.FileOriginRoots;
import org.gridcache.common.origin.OriginEntry;
import org.gridcache.common.ticket.Ticket;
import org.gridcache.common.checksum.ChecksumType;
import org.gridcache.pool.store.StoreKey;
import org.gridcache.zk.MountTable;
import org.gridcache.zk.WriteNotices;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A PUT through a pool with a door's write ticket: streamed to a {@code file://} origin (and an HTTP origin that
 * refuses), the copy kept as a hit only when the origin confirmed it, and every failure path leaving nothing behind;
 * and that neither an upload's checksums nor a third-party pull hold up the event loops.
 */
class PoolUploadTest extends PoolTestSupport {
    private Path files;

    @BeforeEach
    void setUp() throws Exception {
        files = Files.createDirectories(dir.resolve("files"));
        fileOriginRoots = FileOriginRoots.of(List.of(files));
        MountTable.put(zk, OriginEntry.of("up", "/up", files.toUri().toString()));
        org.gridcache.zk.ClusterConfig.set(zk, "tpc.allowed-hosts", "127.0.0.1"); // the pulls' remotes are on loopback
        startPool(1 << 24);
        await().atMost(WAIT).until(() -> pool.mounts().resolve("/up/x").isPresent());
    }

    @Test
    void aPutLandsByteExactAtTheOriginAndIsThenAHitWithItsChecksums() throws Exception {
        byte[] data = randomBytes(3_000_000, 1);
        HttpResponse<String> r = put("/up/a.bin", writeTicket("/up/a.bin", data.length), data, "Digest", "md5=" + md5(data));
        assertEquals(201, r.statusCode(), r.body());
        assertArrayEquals(data, Files.readAllBytes(files.resolve("a.bin")));
        StoreKey key = StoreKey.ofOrigin(files.toUri() + "a.bin");
        assertTrue(pool.store().contains(key), "kept in the store");
        assertTrue(pool.store().checksums(key).has(ChecksumType.MD5));
        // the body's own checksum, not that of nothing (the computation is finished once, for the Digest check)
        assertEquals(java.util.HexFormat.of().formatHex(MessageDigest.getInstance("MD5").digest(data)),
                pool.store().checksums(key).toHex().get(ChecksumType.MD5.rfc3230Name()));
        long mtime = Files.getLastModifiedTime(files.resolve("a.bin")).toMillis() / 1000;
        String read = tickets.sign(new Ticket("/up/a.bin", poolName, Ticket.READ, Instant.now().getEpochSecond(),
                Instant.now().getEpochSecond() + 60, "/CN=test", DOOR, null, data.length, mtime, null, List.of(),
                CredentialMode.NONE, null, List.of()));
        HttpResponse<byte[]> hit = get("/up/a.bin", read);
        assertEquals("HIT", cache(hit));
        assertArrayEquals(data, hit.body());
        assertEquals(0, filesUnder(dir.resolve("store"), ".upload"));
    }

    /**
     * The checksums and the copy's writes run on the disk writers, not on the event loop: with both writers held, an
     * upload cannot complete, yet every event loop (one new connection each, round-robin, twice over) answers its
     * health check meanwhile; let go, the upload completes with the body's checksums.
     */
    @Test
    void theEventLoopsServeOthersWhileAnUploadWaitsForItsChecksums() throws Exception {
        java.util.concurrent.CountDownLatch release = new java.util.concurrent.CountDownLatch(1);
        java.util.concurrent.CountDownLatch holding = new java.util.concurrent.CountDownLatch(2);
        java.util.concurrent.CompletableFuture<HttpResponse<String>> upload;
        byte[] data = randomBytes(4_000_000, 7);
        try {
            for (int i = 0; i < 2; i++) {
                pool.diskWriters().execute(() -> {
                    holding.countDown();
                    awaitQuietly(release);
                });
            }
            assertTrue(holding.await(WAIT.toSeconds(), java.util.concurrent.TimeUnit.SECONDS), "both disk writers held");
            upload = http.sendAsync(HttpRequest.newBuilder(uri("/up/busy.bin", writeTicket("/up/busy.bin", data.length)))
                    .expectContinue(true).PUT(HttpRequest.BodyPublishers.ofByteArray(data)).build(), HttpResponse.BodyHandlers.ofString());
            everyEventLoopAnswersWhileUnderWay(upload, "the upload waits for its checksums, which wait for a disk writer");
        } finally {
            release.countDown();
        }
        HttpResponse<String> r = upload.get(WAIT.toSeconds(), java.util.concurrent.TimeUnit.SECONDS);
        assertEquals(201, r.statusCode(), r.body());
        assertArrayEquals(data, Files.readAllBytes(files.resolve("busy.bin")));
        assertEquals(adler32(data), // pool.checksums' default
                pool.store().checksums(StoreKey.ofOrigin(files.toUri() + "busy.bin")).toHex().get(ChecksumType.ADLER32.rfc3230Name()));
    }

    /**
     * A third-party pull reads its remote and checksums on a copy worker, never on an event loop: while the remote
     * holds back the second half of the body, every event loop answers its health check and the copy is still under
     * way; let go, the copy ends with {@code success: Created} and the body's checksums.
     */
    @Test
    void theEventLoopsServeOthersWhileAPullWaitsForItsRemote() throws Exception {
        byte[] data = randomBytes(2_000_000, 9);
        java.util.concurrent.CountDownLatch rest = new java.util.concurrent.CountDownLatch(1);
        HttpServer remote = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        remote.createContext("/", exchange -> {
            exchange.sendResponseHeaders(200, data.length);
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(data, 0, data.length / 2);
                out.flush();
                awaitQuietly(rest);
                out.write(data, data.length / 2, data.length - data.length / 2);
            }
        });
        remote.start();
        java.util.concurrent.CompletableFuture<HttpResponse<String>> copy;
        try {
            String source = "http://127.0.0.1:" + remote.getAddress().getPort() + "/src.bin";
            long now = Instant.now().getEpochSecond();
            String token = tickets.sign(new Ticket("/up/pulled.bin", poolName, Ticket.TPC_PULL, now, now + 60, "/CN=test", DOOR,
                    null, -1, -1, null, List.of(), CredentialMode.NONE, null, List.of(), null,
                    org.gridcache.common.authz.TokenGrant.NONE, source, null));
            try {
                copy = http.sendAsync(HttpRequest.newBuilder(uri("/up/pulled.bin", token))
                        .method("COPY", HttpRequest.BodyPublishers.noBody()).header("Source", source)
                        .header("RequireChecksumVerification", "false").build(), HttpResponse.BodyHandlers.ofString());
                everyEventLoopAnswersWhileUnderWay(copy, "the pull waits for the rest of its remote's body");
            } finally {
                rest.countDown();
            }
            HttpResponse<String> r = copy.get(WAIT.toSeconds(), java.util.concurrent.TimeUnit.SECONDS);
            assertEquals(202, r.statusCode(), r.body());
            assertTrue(r.body().trim().endsWith("success: Created"), r.body());
        } finally {
            remote.stop(0);
        }
        assertArrayEquals(data, Files.readAllBytes(files.resolve("pulled.bin")));
        assertEquals(adler32(data), // pool.checksums' default
                pool.store().checksums(StoreKey.ofOrigin(files.toUri() + "pulled.bin")).toHex().get(ChecksumType.ADLER32.rfc3230Name()));
    }

    /**
     * Once the request's copy in the store exists (admitted, bytes on their way), every event loop answers a health
     * check (one new connection each, round-robin, twice over) while {@code request} is still under way.
     */
    private void everyEventLoopAnswersWhileUnderWay(java.util.concurrent.Future<?> request, String why) throws Exception {
        await().atMost(WAIT).until(() -> filesUnder(dir.resolve("store"), ".upload") == 1);
        int loops = 2 * io.netty.util.NettyRuntime.availableProcessors();
        for (int i = 0; i < 2 * loops; i++) {
            assertEquals("HTTP/1.1 200 OK", healthStatusLine());
        }
        assertFalse(request.isDone(), why);
    }

    private String healthStatusLine() throws Exception {
        try (Socket socket = new Socket("127.0.0.1", java.net.URI.create(pool.url()).getPort())) {
            socket.setSoTimeout((int) WAIT.toMillis());
            socket.getOutputStream().write("GET /.gridcache/health HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"
                    .getBytes(StandardCharsets.ISO_8859_1));
            return new java.io.BufferedReader(new java.io.InputStreamReader(socket.getInputStream(), StandardCharsets.ISO_8859_1))
                    .readLine();
        }
    }

    @Test
    void aReadTicketDoesNotWrite() throws Exception {
        String read = signedTicket("/up/b.bin", poolName, 3, Instant.now().getEpochSecond() + 60);
        HttpResponse<String> r = put("/up/b.bin", read, new byte[3]);
        assertEquals(403, r.statusCode());
        assertEquals("ticket does not allow write", r.body().trim());
        assertFalse(Files.exists(files.resolve("b.bin")));
    }

    /**
     * Refused before its body is read, while the client still sends it: the pool lingers, reading and dropping the
     * body, so every write of the client goes through and it reads the refusal. A plain close with the body unread
     * reset the connection: the client's next write failed and the refusal was lost (curl after 100 Continue).
     */
    @Test
    void aRefusalBeforeTheBodyIsReadReachesAClientStillSendingIt() throws Exception {
        int length = 64 << 20; // far beyond what the sockets' buffers hold
        String read = signedTicket("/up/early.bin", poolName, length, Instant.now().getEpochSecond() + 60);
        try (Socket socket = new Socket("127.0.0.1", java.net.URI.create(pool.url()).getPort())) {
            socket.setSoTimeout((int) WAIT.toMillis());
            OutputStream out = socket.getOutputStream();
            out.write(("PUT /up/early.bin?" + Ticket.QUERY_PARAMETER + "=" + read + " HTTP/1.1\r\nHost: x\r\nContent-Length: "
                    + length + "\r\n\r\n").getBytes(StandardCharsets.ISO_8859_1));
            byte[] chunk = new byte[1 << 16];
            for (int sent = 0; sent < length; sent += chunk.length) {
                out.write(chunk);
            }
            out.flush();
            String answer = new String(socket.getInputStream().readAllBytes(), StandardCharsets.ISO_8859_1);
            assertTrue(answer.startsWith("HTTP/1.1 403"), answer);
            assertTrue(answer.endsWith("ticket does not allow write\n"), answer);
        }
        assertFalse(Files.exists(files.resolve("early.bin")));
    }

    @Test
    void aWriteTicketOpensExactlyItsPathNotItsTrailingSlashForm() throws Exception {
        HttpResponse<String> r = put("/up/slash.bin/", writeTicket("/up/slash.bin", 3), new byte[3]);
        assertEquals(403, r.statusCode());
        assertEquals("ticket was issued for another path: it opens exactly /up/slash.bin", r.body().trim());
        assertFalse(Files.exists(files.resolve("slash.bin")));
    }

    @Test
    void aPullTicketOpensExactlyItsPathNotItsTrailingSlashForm() throws Exception {
        String source = "http://127.0.0.1:9/src.bin"; // never asked: the copy is refused before
        long now = Instant.now().getEpochSecond();
        String token = tickets.sign(new Ticket("/up/pull-slash.bin", poolName, Ticket.TPC_PULL, now, now + 60, "/CN=test", DOOR,
                null, -1, -1, null, List.of(), CredentialMode.NONE, null, List.of(), null,
                org.gridcache.common.authz.TokenGrant.NONE, source, null));
        HttpResponse<String> r = http.send(HttpRequest.newBuilder(uri("/up/pull-slash.bin/", token))
                .method("COPY", HttpRequest.BodyPublishers.noBody()).header("Source", source).build(),
                HttpResponse.BodyHandlers.ofString());
        assertEquals(403, r.statusCode());
        assertEquals("ticket was issued for another path: it opens exactly /up/pull-slash.bin", r.body().trim());
        assertFalse(Files.exists(files.resolve("pull-slash.bin")));
    }

    @Test
    void aWriteTicketForAnotherLengthIsRefused() throws Exception {
        HttpResponse<String> r = put("/up/c.bin", writeTicket("/up/c.bin", 10), new byte[3]);
        assertEquals(400, r.statusCode());
        assertTrue(r.body().startsWith("the ticket was issued for 10 bytes"), r.body());
    }

    @Test
    void aPoolSignedWriteTicketIsRefused() throws Exception {
        org.gridcache.common.ticket.TicketSigningKey poolKey = org.gridcache.common.ticket.TicketSigningKey.generate();
        zk.create().creatingParentsIfNeeded().withMode(org.apache.zookeeper.CreateMode.EPHEMERAL).forPath(
                org.gridcache.zk.layout.ZkLayout.pool("rogue"), org.gridcache.common.Json.bytes(new org.gridcache.common.cluster.PoolRecord(
                        "rogue", "http://127.0.0.1:9", "test", 1, 1, 0, 0, 0, "v", 0, "enabled", 0, 0, null, poolKey.publicJwk())));
        try {
            long now = Instant.now().getEpochSecond();
            String minted = new org.gridcache.common.ticket.TicketCodec(poolKey, (issuer, kid) -> null,
                    org.gridcache.common.ticket.TicketCodec.DEFAULT_MAX_LIFETIME, java.time.Clock.systemUTC())
                    .sign(new Ticket("/up/d.bin", poolName, Ticket.WRITE, now, now + 60, "/CN=test", "pool:rogue", null, 3, -1,
                            null, List.of(), CredentialMode.NONE, null, List.of()));
            HttpResponse<String> r = await().atMost(WAIT).until(() -> put("/up/d.bin", minted, new byte[3]),
                    x -> !x.body().contains("does not publish"));
            assertEquals(403, r.statusCode());
            assertEquals("only a door grants a write: a pool's ticket cannot", r.body().trim());
            assertFalse(Files.exists(files.resolve("d.bin")));
        } finally {
            zk.delete().forPath(org.gridcache.zk.layout.ZkLayout.pool("rogue"));
        }
    }

    @Test
    void aWrongDigestIs400AndLeavesNothingAtTheOriginNorInTheStore() throws Exception {
        byte[] data = randomBytes(200_000, 2);
        HttpResponse<String> r = put("/up/e.bin", writeTicket("/up/e.bin", data.length), data, "Digest", "md5=" + md5(new byte[1]));
        assertEquals(400, r.statusCode());
        assertTrue(r.body().startsWith("checksum mismatch: the body's md5 is " + md5(data)), r.body());
        await().atMost(WAIT).until(() -> list(files).isEmpty()); // the temporary file goes on the upload's thread
        assertFalse(pool.store().contains(StoreKey.ofOrigin(files.toUri() + "e.bin")));
        assertEquals(0, filesUnder(dir.resolve("store"), ".upload"));
    }

    @Test
    void aClientThatBreaksOffLeavesNothingAtTheOriginNorInTheStore() throws Exception {
        String token = writeTicket("/up/f.bin", 1_000_000);
        try (Socket socket = new Socket("127.0.0.1", java.net.URI.create(pool.url()).getPort())) {
            OutputStream out = socket.getOutputStream();
            out.write(("PUT /up/f.bin?" + Ticket.QUERY_PARAMETER + "=" + token + " HTTP/1.1\r\nHost: x\r\nContent-Length: 1000000\r\n\r\n")
                    .getBytes(StandardCharsets.ISO_8859_1));
            out.write(new byte[300_000]);
            out.flush();
            await().atMost(WAIT).until(() -> filesUnder(dir.resolve("store"), ".upload") == 1);
        }
        await().atMost(WAIT).until(() -> list(files).isEmpty() && filesUnder(dir.resolve("store"), ".upload") == 0);
        assertFalse(Files.exists(files.resolve("f.bin")));
    }

    /** A FIN before the body's end (the client shut its output down): the upload is abandoned, never committed short. */
    @Test
    void aBodyCutShortByTheClientsFinLeavesNothingAtTheOriginNorInTheStore() throws Exception {
        String token = writeTicket("/up/h.bin", 1_000_000);
        try (Socket socket = new Socket("127.0.0.1", java.net.URI.create(pool.url()).getPort())) {
            socket.setSoTimeout((int) WAIT.toMillis());
            OutputStream out = socket.getOutputStream();
            out.write(("PUT /up/h.bin?" + Ticket.QUERY_PARAMETER + "=" + token + " HTTP/1.1\r\nHost: x\r\nContent-Length: 1000000\r\n\r\n")
                    .getBytes(StandardCharsets.ISO_8859_1));
            out.write(new byte[300_000]);
            out.flush();
            await().atMost(WAIT).until(() -> filesUnder(dir.resolve("store"), ".upload") == 1);
            socket.shutdownOutput();
            String answer = new String(socket.getInputStream().readAllBytes(), StandardCharsets.ISO_8859_1);
            assertTrue(answer.isEmpty() || answer.startsWith("HTTP/1.1 400"), answer); // closed, or told why, then closed
        }
        await().atMost(WAIT).until(() -> list(files).isEmpty() && filesUnder(dir.resolve("store"), ".upload") == 0);
        assertFalse(Files.exists(files.resolve("h.bin")));
    }

    @Test
    void anHttpOriginsRefusalIsPassedOnWithItsStatus() throws Exception {
        HttpServer full = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        full.createContext("/", exchange -> {
            exchange.getRequestBody().readAllBytes();
            byte[] body = "no space left on the device".getBytes(StandardCharsets.UTF_8);
            exchange.sendResponseHeaders(507, body.length);
            exchange.getResponseBody().write(body);
            exchange.close();
        });
        full.start();
        try {
            String url = "http://127.0.0.1:" + full.getAddress().getPort() + "/data/g.bin";
            mount("/full/g.bin", url);
            long now = Instant.now().getEpochSecond();
            String token = tickets.sign(new Ticket("/full/g.bin", poolName, Ticket.WRITE, now, now + 60, "/CN=test", DOOR, null,
                    5, -1, null, List.of(), CredentialMode.NONE, null, List.of()));
            HttpResponse<String> r = put("/full/g.bin", token, new byte[5]);
            assertEquals(507, r.statusCode());
            assertTrue(r.body().contains("no space left on the device"), r.body());
            assertTrue(r.body().contains("has no space for /full/g.bin"), r.body());
            assertFalse(r.body().contains("127.0.0.1"), "the origin's address stays inside the cluster: " + r.body());
            assertFalse(pool.store().contains(StoreKey.ofOrigin(url)));
        } finally {
            full.stop(0);
        }
    }

    @Test
    void aDoorsWriteNoticeDropsThePoolsCopy() throws Exception {
        byte[] data = randomBytes(1000, 3);
        fetch("/n/h.bin", data.length == 0 ? null : serve("/n/h.bin", data));
        StoreKey key = StoreKey.ofOrigin(origin.url("/n/h.bin"));
        assertTrue(pool.store().contains(key));
        try (WriteNotices door = new WriteNotices(zk, "doorN", p -> { }, () -> { }).start(WAIT)) {
            await().atMost(WAIT).alias("the pool to drop its copy when told").until(() -> {
                door.wrote(List.of("/n/h.bin"));
                return !pool.store().contains(key);
            });
        }
    }

    private byte[] serve(String path, byte[] data) {
        origin.serve(path, data);
        return data;
    }

    private String writeTicket(String path, long size) {
        long now = Instant.now().getEpochSecond();
        return tickets.sign(new Ticket(path, poolName, Ticket.WRITE, now, now + 60, "/CN=test", DOOR, null, size, -1,
                null, List.of(), CredentialMode.NONE, null, List.of()));
    }

    private HttpResponse<String> put(String path, String token, byte[] body, String... headers) throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(uri(path, token)).expectContinue(true)
                .PUT(HttpRequest.BodyPublishers.ofByteArray(body));
        if (headers.length > 0) {
            b.headers(headers);
        }
        return http.send(b.build(), HttpResponse.BodyHandlers.ofString());
    }

    private static List<Path> list(Path dir) throws java.io.IOException {
        try (Stream<Path> s = Files.list(dir)) {
            return s.toList();
        }
    }

    private static String adler32(byte[] data) {
        java.util.zip.Adler32 a = new java.util.zip.Adler32();
        a.update(data);
        return String.format(java.util.Locale.ROOT, "%08x", a.getValue());
    }

    private static String md5(byte[] data) throws Exception {
        return Base64.getEncoder().encodeToString(MessageDigest.getInstance("MD5").digest(data));
    }
}
