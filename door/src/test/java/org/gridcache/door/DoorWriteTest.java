package org.gridcache.door;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.stream.Stream;
import org.gridcache.common.origin.OriginEntry;
import org.gridcache.common.settings.ClusterSettings.Keys;
import org.gridcache.zk.ClusterConfig;
import org.gridcache.zk.MountTable;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Writes through the door to a {@code file://} origin at /local (a second one at /other) and a real nginx WebDAV
 * origin at /dav: what lands at the origin, what the door shows right after, and every refusal. One door for the
 * class; each test writes below a directory of its own.
 */
class DoorWriteTest {
    @TempDir
    static Path tmp;
    private static final List<AutoCloseable> CLOSEABLES = new ArrayList<>();
    private static final HttpClient HTTP = HttpClient.newBuilder().followRedirects(HttpClient.Redirect.NEVER)
            .connectTimeout(Duration.ofSeconds(10)).build();
    private static Path files;
    private static Path other;
    private static WritableNginx nginx;
    private static Door door;
    /** A second door on the same ZooKeeper, told of the first one's writes. */
    private static Door door2;

    @BeforeAll
    static void start() throws Exception {
        other = Files.createDirectories(tmp.resolve("other"));
        Files.createDirectories(tmp.resolve("outside"));
        nginx = WritableNginx.start(tmp.resolve("nginx"), tmp.resolve("davdata"));
        CLOSEABLES.add(nginx);
        FakeWebDavOrigin refusing = new FakeWebDavOrigin();
        CLOSEABLES.add(refusing);
        TwoDoors doors = TwoDoors.start(tmp, "door-w", CLOSEABLES, List.of(other), zk -> {
            MountTable.put(zk, OriginEntry.of("other", "/other", other.toUri().toString()));
            MountTable.put(zk, OriginEntry.of("dav", "/dav", nginx.url() + "/"));
            MountTable.put(zk, OriginEntry.of("grid", "/grid", "gsiftp://127.0.0.1:1/data", "service"));
            MountTable.put(zk, OriginEntry.of("refusing", "/refusing", refusing.url() + "/dav"));
            // listings cached for an hour: what a door shows after a write is the write's doing, not the cache expiring
            ClusterConfig.set(zk, Keys.LISTING_CACHE_TTL, "3600s");
        });
        files = doors.files;
        door = doors.door;
        door2 = doors.door2;
    }

    @AfterAll
    static void stop() {
        TestResources.closeInReverse(CLOSEABLES);
    }

    /** The origin's directory behind a door prefix. */
    private static Path at(String prefix) {
        return prefix.equals("/local") ? files : nginx.data();
    }

    // --- what works, on both kinds of origin ---

    @ParameterizedTest
    @ValueSource(strings = {"/local", "/dav"})
    void mkcolPutMoveCopyDeleteLandAtTheOriginByteExact(String prefix) throws Exception {
        String dir = prefix + "/flow";
        Path origin = at(prefix).resolve("flow");
        byte[] data = random(300_000, 1);
        assertEquals(201, send("MKCOL", dir + "/", null).statusCode());
        assertTrue(Files.isDirectory(origin));
        assertEquals(201, put(dir + "/a.bin", data).statusCode());
        assertArrayEquals(data, Files.readAllBytes(origin.resolve("a.bin")));
        byte[] again = random(1000, 2);
        assertEquals(204, put(dir + "/a.bin", again).statusCode(), "replaced");
        assertArrayEquals(again, Files.readAllBytes(origin.resolve("a.bin")));

        assertCreated(send("MOVE", dir + "/a.bin", null, "Destination", door.url() + dir + "/b.bin"));
        assertFalse(Files.exists(origin.resolve("a.bin")));
        assertArrayEquals(again, Files.readAllBytes(origin.resolve("b.bin")));
        assertCreated(send("COPY", dir + "/b.bin", null, "Destination", door.url() + dir + "/c.bin"));
        assertArrayEquals(again, Files.readAllBytes(origin.resolve("c.bin")));
        assertArrayEquals(again, Files.readAllBytes(origin.resolve("b.bin")));

        assertEquals(201, send("MKCOL", dir + "/sub/", null).statusCode());
        assertEquals(201, put(dir + "/sub/d.bin", data).statusCode());
        assertCreated(send("COPY", dir + "/sub/", null, "Destination", door.url() + dir + "/sub2/"));
        assertArrayEquals(data, Files.readAllBytes(origin.resolve("sub2/d.bin")));
        assertCreated(send("MOVE", dir + "/sub2/", null, "Destination", door.url() + dir + "/sub3/"));
        assertArrayEquals(data, Files.readAllBytes(origin.resolve("sub3/d.bin")));
        assertFalse(Files.exists(origin.resolve("sub2")));

        assertEquals(204, send("DELETE", dir + "/c.bin", null).statusCode());
        assertFalse(Files.exists(origin.resolve("c.bin")));
        assertEquals(204, send("DELETE", dir + "/sub/", null).statusCode(), "a non-empty collection, passed on");
        assertFalse(Files.exists(origin.resolve("sub")));
        assertEquals(404, send("DELETE", dir + "/sub/", null).statusCode());
    }

    @ParameterizedTest
    @ValueSource(strings = {"/local", "/dav"})
    void theDoorShowsAWriteAtOnceNotAfterTheListingCacheExpires(String prefix) throws Exception {
        String dir = prefix + "/seen";
        assertEquals(201, send("MKCOL", dir, null).statusCode());
        assertFalse(propfind(dir + "/", "1").body().contains("new.txt"));
        assertEquals(201, put(dir + "/new.txt", "hello".getBytes(StandardCharsets.UTF_8)).statusCode());
        HttpResponse<String> listing = propfind(dir + "/", "1");
        assertTrue(listing.body().contains("new.txt"), listing.body());
        assertTrue(propfind(dir + "/new.txt", "0").body().contains(">5<"), "the new size");
        assertEquals(204, send("DELETE", dir + "/new.txt", null).statusCode());
        assertEquals(404, propfind(dir + "/new.txt", "0").statusCode());
        assertFalse(propfind(dir + "/", "1").body().contains("new.txt"));
    }

    @ParameterizedTest
    @ValueSource(strings = {"/local", "/dav"})
    void overwriteTReplacesACollectionWithAFileAndAFileWithACollection(String prefix) throws Exception {
        String dir = prefix + "/kinds";
        Path origin = at(prefix).resolve("kinds");
        assertEquals(201, send("MKCOL", dir, null).statusCode());
        assertEquals(201, send("MKCOL", dir + "/coll/", null).statusCode());
        assertEquals(201, put(dir + "/coll/inner", new byte[3]).statusCode());
        assertEquals(201, put(dir + "/file", "f".getBytes(StandardCharsets.UTF_8)).statusCode());
        assertEquals(204, send("COPY", dir + "/file", null, "Destination", door.url() + dir + "/coll", "Overwrite", "T").statusCode());
        assertEquals("f", Files.readString(origin.resolve("coll")));
        assertEquals(201, send("MKCOL", dir + "/coll2/", null).statusCode());
        assertEquals(204, send("MOVE", dir + "/coll2/", null, "Destination", door.url() + dir + "/file", "Overwrite", "T").statusCode());
        assertTrue(Files.isDirectory(origin.resolve("file")));
    }

    @ParameterizedTest
    @ValueSource(strings = {"/local", "/dav"})
    void anotherDoorShowsTheWriteAtOnceToldThroughZooKeeper(String prefix) throws Exception {
        String dir = prefix + "/shared";
        assertEquals(201, send("MKCOL", dir, null).statusCode());
        assertFalse(propfindAt(door2, dir + "/").body().contains("told.txt")); // cached by the other door for an hour
        assertEquals(201, put(dir + "/told.txt", new byte[7]).statusCode());
        await().atMost(Duration.ofSeconds(20)).until(() -> propfindAt(door2, dir + "/").body().contains("told.txt"));
        assertEquals(204, send("DELETE", dir + "/told.txt", null).statusCode());
        await().atMost(Duration.ofSeconds(20)).until(() -> propfindAt(door2, dir + "/told.txt").statusCode() == 404);
    }

    // --- refusals ---

    @Test
    void theOriginsRefusalsReachTheClientWithTheirStatus() throws Exception {
        // refused before the body is read: the origin answers and drains the rest (a lingering close, as nginx's)
        HttpResponse<String> refused = put("/refusing/sub/refused.bin", random(200_000, 4));
        assertEquals(403, refused.statusCode());
        assertTrue(refused.body().contains("the origin refuses this door PUT /refusing/sub/refused.bin"), refused.body());
        HttpResponse<String> full = put("/refusing/sub/full.bin", random(100_000, 5));
        assertEquals(507, full.statusCode());
        assertTrue(full.body().contains("has no space"), full.body());
        assertEquals(405, send("MKCOL", "/refusing/sub/new", null).statusCode());
        assertEquals(405, send("DELETE", "/refusing/hello.txt", null).statusCode());
    }

    @Test
    void withoutTheWriteRightAnAnonymousClientIs401AndNothingChanges() throws Exception {
        HttpResponse<String> put = put("/local/readonly/new.txt", new byte[1]);
        assertEquals(401, put.statusCode());
        assertTrue(put.body().contains("write /local/readonly/new.txt"), put.body());
        assertEquals(401, send("DELETE", "/local/readonly/kept.txt", null).statusCode());
        assertEquals(401, send("MKCOL", "/local/readonly/d", null).statusCode());
        assertEquals(401, send("MOVE", "/local/readonly/kept.txt", null, "Destination", door.url() + "/local/taken.txt").statusCode());
        assertEquals(201, put("/local/free.txt", new byte[1]).statusCode());
        assertEquals(401, send("COPY", "/local/free.txt", null, "Destination", door.url() + "/local/readonly/c.txt").statusCode());
        assertEquals(201, send("COPY", "/local/readonly/kept.txt", null, "Destination", door.url() + "/local/copied.txt").statusCode(),
                "read is enough on a COPY's source");
        assertEquals(List.of(files.resolve("readonly/kept.txt")), list(files.resolve("readonly")));
    }

    @ParameterizedTest
    @ValueSource(strings = {"/local", "/dav"})
    void moveOrCopyOntoAnExistingFileWithOverwriteFIs412AndChangesNothing(String prefix) throws Exception {
        String dir = prefix + "/over";
        assertEquals(201, send("MKCOL", dir, null).statusCode());
        assertEquals(201, put(dir + "/x", "x".getBytes(StandardCharsets.UTF_8)).statusCode());
        assertEquals(201, put(dir + "/y", "y".getBytes(StandardCharsets.UTF_8)).statusCode());
        HttpResponse<String> move = send("MOVE", dir + "/x", null, "Destination", door.url() + dir + "/y", "Overwrite", "F");
        assertEquals(412, move.statusCode(), move.body());
        assertEquals(412, send("COPY", dir + "/x", null, "Destination", door.url() + dir + "/y", "Overwrite", "F").statusCode());
        assertEquals("x", Files.readString(at(prefix).resolve("over/x")));
        assertEquals("y", Files.readString(at(prefix).resolve("over/y")));
        assertEquals(204, send("MOVE", dir + "/x", null, "Destination", door.url() + dir + "/y", "Overwrite", "T").statusCode());
        assertEquals("x", Files.readString(at(prefix).resolve("over/y")));
    }

    @ParameterizedTest
    @ValueSource(strings = {"/local", "/dav"})
    void putWithoutAParentIs409AndMkcolOfAnExistingPathIs405(String prefix) throws Exception {
        assertEquals(409, put(prefix + "/nonesuch/x", new byte[1]).statusCode());
        assertEquals(409, send("MKCOL", prefix + "/nonesuch/deeper/", null).statusCode());
        assertEquals(201, send("MKCOL", prefix + "/twice", null).statusCode());
        assertEquals(405, send("MKCOL", prefix + "/twice", null).statusCode());
        assertEquals(415, send("MKCOL", prefix + "/withbody", "<x/>").statusCode());
    }

    @ParameterizedTest
    @ValueSource(strings = {"/local", "/dav"})
    void aClientThatBreaksOffAnUploadLeavesNothingAtTheOrigin(String prefix) throws Exception {
        assertEquals(201, send("MKCOL", prefix + "/broken", null).statusCode());
        try (Socket socket = new Socket("127.0.0.1", door.port())) {
            OutputStream out = socket.getOutputStream();
            out.write(("PUT " + prefix + "/broken/part.bin HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 1000000\r\n\r\n")
                    .getBytes(StandardCharsets.ISO_8859_1));
            out.write(random(100_000, 3));
            out.flush();
        } // closed with 900,000 bytes missing
        Path dir = at(prefix).resolve("broken");
        await().atMost(Duration.ofSeconds(20)).until(() -> leftovers(prefix).isEmpty());
        assertFalse(Files.exists(dir.resolve("part.bin")));
        assertEquals(List.of(), list(dir));
    }

    /**
     * HTTP/1.1 frames a body by its Content-Length: the door takes exactly the announced bytes (what lands at the
     * origin), and what follows is read as the next request, which is no request (400, the connection closed).
     */
    @ParameterizedTest
    @ValueSource(strings = {"/local", "/dav"})
    void aBodyLongerThanAnnouncedStoresTheAnnouncedBytesAndTheRestIsRefusedAsARequest(String prefix) throws Exception {
        assertEquals(201, send("MKCOL", prefix + "/longer", null).statusCode());
        String answers;
        try (Socket socket = new Socket("127.0.0.1", door.port())) {
            socket.setSoTimeout(20_000);
            OutputStream out = socket.getOutputStream();
            out.write(("PUT " + prefix + "/longer/x.bin HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 10\r\n\r\n"
                    + "0123456789" + "ABCDEFGHIJ\r\n\r\n").getBytes(StandardCharsets.ISO_8859_1));
            out.flush();
            answers = new String(socket.getInputStream().readAllBytes(), StandardCharsets.ISO_8859_1);
        }
        assertTrue(answers.startsWith("HTTP/1.1 201"), answers);
        assertTrue(answers.contains("HTTP/1.1 400"), "the surplus is no request: " + answers);
        assertEquals("0123456789", Files.readString(at(prefix).resolve("longer/x.bin")));
    }

    /** What an aborted upload might leave: the target, a temporary file (file://), nginx's body buffers. */
    private static List<Path> leftovers(String prefix) throws IOException {
        List<Path> out = new ArrayList<>(list(at(prefix).resolve("broken")));
        if (prefix.equals("/dav")) {
            out.addAll(listTree(tmp.resolve("nginx/tmp/body")));
        }
        return out;
    }

    @Test
    void aLinkSwappedIntoAFileOriginIsNotFollowed() throws Exception {
        Path outside = tmp.resolve("outside");
        Files.createSymbolicLink(files.resolve("escape"), outside);
        Files.writeString(outside.resolve("victim"), "keep");
        Files.createSymbolicLink(files.resolve("victim-link"), outside.resolve("victim"));
        // a link is not part of the namespace (as for reads): nothing to write into, nothing to move
        assertEquals(409, put("/local/escape/planted", new byte[10]).statusCode());
        assertEquals(409, send("MKCOL", "/local/escape/dir", null).statusCode());
        assertEquals(404, send("MOVE", "/local/victim-link", null, "Destination", door.url() + "/local/moved").statusCode());
        assertEquals(List.of(outside.resolve("victim")), list(outside));
        // PUT over a link replaces the link (the entry), never writes through it
        assertEquals(201, put("/local/victim-link", "new".getBytes(StandardCharsets.UTF_8)).statusCode(),
                "the link was no part of the namespace: the file is new there");
        assertFalse(Files.isSymbolicLink(files.resolve("victim-link")));
        assertEquals("keep", Files.readString(outside.resolve("victim")));
        assertEquals(404, send("DELETE", "/local/escape", null).statusCode(), "a link is not part of the namespace");
        assertEquals(404, send("DELETE", "/local/escape/victim", null).statusCode(), "nor a path through it");
        assertEquals("keep", Files.readString(outside.resolve("victim")));
    }

    @Test
    void destinationsElsewhereAreRefused() throws Exception {
        assertEquals(201, put("/local/src.txt", "s".getBytes(StandardCharsets.UTF_8)).statusCode());
        HttpResponse<String> host = send("MOVE", "/local/src.txt", null, "Destination", "http://elsewhere.example:80/local/d");
        assertEquals(502, host.statusCode());
        assertTrue(host.body().contains("another server"), host.body());
        HttpResponse<String> across = send("MOVE", "/local/src.txt", null, "Destination", door.url() + "/other/d");
        assertEquals(502, across.statusCode());
        assertTrue(across.body().contains("MOVE across origins is not supported"), across.body());
        assertEquals(400, send("MOVE", "/local/src.txt", null, "Destination", door.url() + "/local/../etc/x").statusCode());
        assertEquals(400, send("COPY", "/local/src.txt", null, "Destination", door.url() + "/local/a%2Fb").statusCode());
        assertEquals(400, send("MOVE", "/local/src.txt", null).statusCode(), "no Destination");
        assertEquals(403, send("COPY", "/local/src.txt", null, "Destination", door.url() + "/.gridcache/x").statusCode());
        assertEquals(403, send("MOVE", "/local/src.txt", null, "Destination", door.url() + "/local/src.txt").statusCode());
        assertEquals(403, send("MOVE", "/local/src.txt", null, "Destination", door.url() + "/nowhere").statusCode());
        assertTrue(Files.exists(files.resolve("src.txt")));
    }

    @Test
    void badPathsTheDoorsOwnPathsOriginRootsAndGridFtpOriginsWithoutAHostCredentialAreRefused() throws Exception {
        assertEquals(400, rawStatus("PUT /local/../../etc/x HTTP/1.1"));
        assertEquals(400, rawStatus("MKCOL /local/%2e%2e/x HTTP/1.1"));
        assertEquals(400, rawStatus("DELETE /local/a%2Fb HTTP/1.1"));
        assertEquals(201, put("/local/frag-kept.txt", new byte[1]).statusCode());
        assertEquals(400, rawStatus("DELETE /local/frag-kept.txt#part HTTP/1.1"), "a fragment: not the resource");
        assertTrue(Files.exists(files.resolve("frag-kept.txt")));
        assertEquals(405, put("/.gridcache/x", new byte[1]).statusCode());
        assertEquals(405, send("DELETE", "/.gridcache/health", null).statusCode());
        assertEquals(403, send("DELETE", "/local", null).statusCode(), "an origin's root");
        assertEquals(403, put("/not-mounted.txt", new byte[1]).statusCode());
        HttpResponse<String> grid = put("/grid/x", new byte[1]);
        assertEquals(502, grid.statusCode(), "GSI needs a credential, and this door has none");
        assertTrue(grid.body().contains("this door has no host credential, which GridFTP needs"), grid.body());
        assertTrue(list(tmp.resolve("outside")).stream().noneMatch(p -> p.getFileName().toString().equals("x")));
    }

    @Test
    void optionsListsTheWriteAndLockMethodsAsClass2() throws Exception {
        HttpResponse<String> options = send("OPTIONS", "/local/", null);
        assertEquals(200, options.statusCode());
        assertEquals("1, 2", options.headers().firstValue("DAV").orElseThrow());
        String allow = options.headers().firstValue("Allow").orElseThrow();
        for (String m : List.of("PUT", "MKCOL", "DELETE", "MOVE", "COPY", "PROPFIND", "PROPPATCH", "LOCK", "UNLOCK")) {
            assertTrue(allow.contains(m), allow);
        }
        assertEquals(405, send("LOCK", "/.gridcache/x", null).statusCode());
        assertEquals(405, send("PROPPATCH", "/.gridcache/x", null).statusCode());
    }

    // --- helpers ---

    /** 201: nginx answers 204 to every MOVE and COPY, and the door, which saw no destination, says 201. */
    private static void assertCreated(HttpResponse<String> r) {
        assertEquals(201, r.statusCode(), r.body());
    }

    private static byte[] random(int size, long seed) {
        byte[] b = new byte[size];
        new Random(seed).nextBytes(b);
        return b;
    }

    private static List<Path> list(Path dir) throws IOException {
        try (Stream<Path> s = Files.list(dir)) {
            return s.sorted().toList();
        }
    }

    private static List<Path> listTree(Path dir) throws IOException {
        if (!Files.exists(dir)) {
            return List.of();
        }
        try (Stream<Path> s = Files.walk(dir)) {
            return s.filter(Files::isRegularFile).toList();
        }
    }

    private static HttpResponse<String> put(String path, byte[] body) throws Exception {
        return HTTP.send(HttpRequest.newBuilder(URI.create(door.url() + path)).PUT(HttpRequest.BodyPublishers.ofByteArray(body))
                .build(), HttpResponse.BodyHandlers.ofString());
    }

    private static HttpResponse<String> send(String method, String path, String body, String... headers) throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(door.url() + path)).method(method,
                body == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(body));
        for (int i = 0; i < headers.length; i += 2) {
            b.header(headers[i], headers[i + 1]);
        }
        return HTTP.send(b.build(), HttpResponse.BodyHandlers.ofString());
    }

    private static HttpResponse<String> propfindAt(Door at, String path) throws Exception {
        return HTTP.send(HttpRequest.newBuilder(URI.create(at.url() + path)).header("Depth", path.endsWith("/") ? "1" : "0")
                .method("PROPFIND", HttpRequest.BodyPublishers.noBody()).build(), HttpResponse.BodyHandlers.ofString());
    }

    private static HttpResponse<String> propfind(String path, String depth) throws Exception {
        return send("PROPFIND", path, null, "Depth", depth);
    }

    private static int rawStatus(String requestLine) throws IOException {
        try (Socket socket = new Socket("127.0.0.1", door.port())) {
            socket.setSoTimeout(10_000);
            OutputStream out = socket.getOutputStream();
            out.write((requestLine + "\r\nHost: localhost\r\nContent-Length: 0\r\nConnection: close\r\n\r\n")
                    .getBytes(StandardCharsets.ISO_8859_1));
            out.flush();
            InputStream in = socket.getInputStream();
            String response = new String(in.readAllBytes(), StandardCharsets.ISO_8859_1);
            return Integer.parseInt(response.substring(9, 12));
        }
    }
}
