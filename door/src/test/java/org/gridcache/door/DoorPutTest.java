package org.gridcache.door;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.net.URLDecoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import org.apache.curator.framework.CuratorFramework;
import org.gridcache.common.settings.ClusterSettings.Keys;
import org.gridcache.common.origin.FileOriginRoots;
import org.gridcache.common.Json;
import org.gridcache.common.origin.OriginEntry;
import org.gridcache.common.cluster.PoolRecord;
import org.gridcache.common.ticket.Ticket;
import org.gridcache.common.ticket.TicketCodec;
import org.gridcache.common.ticket.TicketSigningKey;
import org.gridcache.zk.ClusterConfig;
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
 * The door's side of the PUT data path: which PUTs it redirects to a pool (307 with a write ticket) and which it
 * proxies, the checks made before either, and the checksums a PUT carries, verified on the proxied path.
 */
class DoorPutTest {
    private static final Duration WAIT = Duration.ofSeconds(20);
    @TempDir
    Path tmp;
    private final List<AutoCloseable> closeables = new ArrayList<>();
    private final TicketSigningKey key = TicketSigningKey.generate();
    private final HttpClient http = HttpClient.newBuilder().followRedirects(HttpClient.Redirect.NEVER)
            .connectTimeout(Duration.ofSeconds(10)).build();
    private CuratorFramework zk;
    private Door door;
    private Path files;

    @BeforeEach
    void start() throws Exception {
        EmbeddedZooKeeper server = EmbeddedZooKeeper.start(tmp.resolve("zk"), "127.0.0.1", 0);
        closeables.add(server);
        zk = Zk.connect(server.connectString());
        closeables.add(zk);
        files = Files.createDirectories(tmp.resolve("files"));
        Files.createDirectories(files.resolve("dir"));
        MountTable.put(zk, OriginEntry.of("local", "/local", files.toUri().toString()));
        Path policy = Files.writeString(tmp.resolve("authz"), "anyone / list,read,write\n");
        door = Door.start(new DoorSettings("door1", "127.0.0.1", 0, null, List.of(key), DoorSecurity.plain(policy),
                FileOriginRoots.of(List.of(files))), zk);
        closeables.add(door);
        PoolRecord record = new PoolRecord("p1", "http://127.0.0.1:1", "default", 1L << 30, 1L << 29, 0, 0, 0, "test", 0);
        EphemeralRegistration reg = new EphemeralRegistration(zk, ZkLayout.pool("p1"), () -> Json.bytes(record), Duration.ofHours(1));
        closeables.add(reg);
        reg.awaitCreated(WAIT);
    }

    @AfterEach
    void stop() {
        TestResources.closeInReverse(closeables);
    }

    @Test
    void aPutWaitingFor100ContinueIsRedirected307ToAPoolWithADoorSignedWriteTicket() throws Exception {
        HttpResponse<String> r = await().atMost(WAIT).until(() -> put("/local/dir/a.bin", new byte[10], true, "curl/8.5.0"),
                x -> x.statusCode() == 307);
        String location = r.headers().firstValue("Location").orElseThrow();
        assertTrue(location.startsWith("http://127.0.0.1:1/local/dir/a.bin?gridcache-ticket="), location);
        assertEquals("no-store", r.headers().firstValue("Cache-Control").orElseThrow());
        String token = URLDecoder.decode(location.substring(location.indexOf('=') + 1), StandardCharsets.US_ASCII);
        Ticket ticket = TicketCodec.of("door1", null, List.of(key)).verify(token, "/local/dir/a.bin", "p1", Ticket.WRITE);
        assertEquals(10, ticket.size(), "the announced length");
        assertEquals("door1", ticket.door());
        assertTrue(ticket.peers().isEmpty());
        assertFalse(Files.exists(files.resolve("dir/a.bin")), "the door wrote nothing itself");
    }

    @Test
    void clientsThatCannotFollowA307OnPutAndPutsWithoutExpectAreProxiedByTheDoor() throws Exception {
        awaitRedirects();
        byte[] data = "through the door".getBytes(StandardCharsets.UTF_8);
        for (String agent : List.of("cadaver/0.24 neon/0.33.0", "davfs2/1.7.0 neon/0.33.0", "Microsoft-WebDAV-MiniRedir/10.0.19045")) {
            assertEquals(201, put("/local/dir/" + agent.substring(0, 5) + ".txt", data, true, agent).statusCode(), agent);
            assertArrayEquals(data, Files.readAllBytes(files.resolve("dir/" + agent.substring(0, 5) + ".txt")));
        }
        assertEquals(201, put("/local/dir/plain.txt", data, false, "curl/8.5.0").statusCode(), "no Expect: 100-continue");
        assertArrayEquals(data, Files.readAllBytes(files.resolve("dir/plain.txt")));
    }

    @Test
    void redirectOnWriteFalseMakesTheDoorProxyEveryPut() throws Exception {
        awaitRedirects();
        ClusterConfig.set(zk, Keys.REDIRECT_ON_WRITE, "false");
        byte[] data = new byte[] {1, 2, 3};
        HttpResponse<String> r = await().atMost(WAIT).until(() -> put("/local/dir/b.bin", data, true, "curl/8.5.0"),
                x -> x.statusCode() != 307);
        assertEquals(201, r.statusCode(), r.body());
        assertArrayEquals(data, Files.readAllBytes(files.resolve("dir/b.bin")));
    }

    @Test
    void theDoorChecksParentAndCollectionConflictsBeforeRedirecting() throws Exception {
        awaitRedirects();
        assertEquals(409, put("/local/nodir/a.bin", new byte[1], true, "curl/8.5.0").statusCode(), "no parent collection");
        assertEquals(409, put("/local/dir", new byte[1], true, "curl/8.5.0").statusCode(), "a collection is there");
        assertEquals(403, put("/local", new byte[1], true, "curl/8.5.0").statusCode(), "an origin's root");
    }

    @Test
    void aProxiedPutWithTheRightDigestOrContentMd5IsStored() throws Exception {
        byte[] data = "checked".getBytes(StandardCharsets.UTF_8);
        assertEquals(201, put("/local/dir/ok.txt", data, "Digest", "md5=" + md5(data) + ",unknown=xyz").statusCode());
        assertArrayEquals(data, Files.readAllBytes(files.resolve("dir/ok.txt")));
        assertEquals(201, put("/local/dir/ok2.txt", data, "Content-MD5", md5(data)).statusCode());
        assertEquals(201, put("/local/dir/ok3.txt", data, "Digest", "adler32=" + adler32(data)).statusCode());
    }

    @Test
    void aProxiedPutWithAWrongDigestIs400AndLeavesNoFileAtTheOrigin() throws Exception {
        byte[] data = "the body".getBytes(StandardCharsets.UTF_8);
        HttpResponse<String> r = put("/local/dir/bad.txt", data, "Digest", "md5=" + md5(new byte[] {1}));
        assertEquals(400, r.statusCode());
        assertTrue(r.body().contains("checksum mismatch: the body's md5 is " + md5(data)), r.body());
        assertFalse(Files.exists(files.resolve("dir/bad.txt")));
        assertEquals(400, put("/local/dir/bad2.txt", data, "Content-MD5", md5(new byte[] {1})).statusCode());
        assertFalse(Files.exists(files.resolve("dir/bad2.txt")));
        assertEquals(400, put("/local/dir/bad3.txt", data, "Digest", "adler32=00000001").statusCode());
        assertFalse(Files.exists(files.resolve("dir/bad3.txt")));
    }

    @Test
    void aMalformedDigestIs400BeforeAnythingIsWritten() throws Exception {
        byte[] data = "x".getBytes(StandardCharsets.UTF_8);
        HttpResponse<String> r = put("/local/dir/m.txt", data, "Digest", "md5=not base64!");
        assertEquals(400, r.statusCode());
        assertTrue(r.body().contains("bad Digest md5 value"), r.body());
        assertEquals(400, put("/local/dir/m.txt", data, "Digest", "md5").statusCode(), "no value");
        assertEquals(400, put("/local/dir/m.txt", data, "Content-MD5", md5(data), "Digest", "md5=" + md5(new byte[0]))
                .statusCode(), "two md5 values");
        assertFalse(Files.exists(files.resolve("dir/m.txt")));
    }

    private void awaitRedirects() {
        await().atMost(WAIT).alias("the door to see pool p1").until(
                () -> put("/local/dir/probe.bin", new byte[1], true, "curl/8.5.0").statusCode() == 307);
    }

    private HttpResponse<String> put(String path, byte[] body, boolean expectContinue, String agent) throws Exception {
        return http.send(HttpRequest.newBuilder(uri(path)).expectContinue(expectContinue).header("User-Agent", agent)
                .PUT(HttpRequest.BodyPublishers.ofByteArray(body)).build(), HttpResponse.BodyHandlers.ofString());
    }

    private HttpResponse<String> put(String path, byte[] body, String... headers) throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(uri(path)).PUT(HttpRequest.BodyPublishers.ofByteArray(body));
        for (int i = 0; i < headers.length; i += 2) {
            b.header(headers[i], headers[i + 1]);
        }
        return http.send(b.build(), HttpResponse.BodyHandlers.ofString());
    }

    private URI uri(String path) {
        return URI.create("http://127.0.0.1:" + door.port() + path);
    }

    private static String md5(byte[] data) throws Exception {
        return Base64.getEncoder().encodeToString(MessageDigest.getInstance("MD5").digest(data));
    }

    private static String adler32(byte[] data) {
        java.util.zip.Adler32 a = new java.util.zip.Adler32();
        a.update(data);
        return String.format("%08x", a.getValue());
    }
}
