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
import org.gridcache.door.props.PropertyXml;
import org.gridcache.zk.props.DeadPropertyStore;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * PROPPATCH and dead properties through two doors in front of a {@code file://} origin at /local: set, remove, shown
 * by PROPFIND (named, allprop, propname) at both doors, following MOVE, COPY and DELETE, every refusal; and the quota
 * of the origin's collections.
 */
class DoorPropertiesTest {
    @TempDir
    static Path tmp;
    private static final List<AutoCloseable> CLOSEABLES = new ArrayList<>();
    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();
    private static final String NS = "http://example.com/ns/";
    private static Path files;
    private static Door door;
    private static Door door2;

    @BeforeAll
    static void start() throws Exception {
        TwoDoors doors = TwoDoors.start(tmp, "door-p", CLOSEABLES);
        files = doors.files;
        door = doors.door;
        door2 = doors.door2;
    }

    @AfterAll
    static void stop() {
        TestResources.closeInReverse(CLOSEABLES);
    }

    private static String update(String instructions) {
        return "<?xml version=\"1.0\" encoding=\"utf-8\"?><D:propertyupdate xmlns:D=\"DAV:\" xmlns:Z=\"" + NS + "\">"
                + instructions + "</D:propertyupdate>";
    }

    private static String set(String props) {
        return "<D:set><D:prop>" + props + "</D:prop></D:set>";
    }

    private static String remove(String props) {
        return "<D:remove><D:prop>" + props + "</D:prop></D:remove>";
    }

    @Test
    void setPropertiesAreShownByBothDoorsInEveryKindOfPropfind() throws Exception {
        Files.writeString(files.resolve("shown.txt"), "x");
        HttpResponse<String> r = send(door, "PROPPATCH", "/local/shown.txt", update(set(
                "<Z:colour xml:lang=\"en\">red &amp; <Z:deep a=\"1\">blue</Z:deep></Z:colour><bare xmlns=\"\">\uD83D\uDE00 high</bare>")));
        assertEquals(207, r.statusCode(), r.body());
        assertTrue(r.body().contains("HTTP/1.1 200 OK") && !r.body().contains("424"), r.body());
        String named = propfind(door, "/local/shown.txt", "<D:prop><Z:colour/><bare xmlns=\"\"/><Z:absent/></D:prop>");
        assertTrue(named.contains("<colour xmlns=\"" + NS + "\" xml:lang=\"en\">red &amp; <deep xmlns=\"" + NS + "\" a=\"1\">blue</deep></colour>"), named);
        assertTrue(named.contains("<bare xmlns=\"\">\uD83D\uDE00 high</bare>"), "no namespace, high unicode: " + named);
        assertFalse(named.contains("xmlns:ns1=\"\""), "never an empty prefixed namespace: " + named);
        String all = propfind(door, "/local/shown.txt", "<D:allprop/>");
        assertTrue(all.contains("red &amp;") && all.contains("<d:getcontentlength>1</d:getcontentlength>"), all);
        String names = propfind(door, "/local/shown.txt", "<D:propname/>");
        assertTrue(names.contains("colour") && names.contains("bare"), names);
        await().atMost(Duration.ofSeconds(10)).until(() -> propfind(door2, "/local/shown.txt", "<D:allprop/>").contains("red &amp;"));

        r = send(door2, "PROPPATCH", "/local/shown.txt", update(remove("<Z:colour/><Z:never-set/>") + set("<Z:colour>green</Z:colour>")));
        assertEquals(207, r.statusCode());
        assertTrue(propfind(door2, "/local/shown.txt", "<D:prop><Z:colour/></D:prop>").contains(">green</colour>"),
                "removed, then set again: in document order");
    }

    @Test
    void protectedAndOversizedPropertiesRefuseTheWholeUpdate() throws Exception {
        Files.writeString(files.resolve("refused.txt"), "x");
        HttpResponse<String> r = send(door, "PROPPATCH", "/local/refused.txt",
                update(set("<Z:fine>1</Z:fine><D:getcontentlength>9</D:getcontentlength>")));
        assertEquals(207, r.statusCode());
        assertTrue(r.body().contains("HTTP/1.1 403 Forbidden") && r.body().contains("HTTP/1.1 424 Failed Dependency"), r.body());
        r = send(door, "PROPPATCH", "/local/refused.txt",
                update(set("<Z:fine>1</Z:fine><Z:big>" + "x".repeat(DeadPropertyStore.MAX_PROPERTY) + "</Z:big>")));
        assertTrue(r.body().contains("HTTP/1.1 507 Insufficient Storage") && r.body().contains("424"), r.body());
        assertFalse(propfind(door, "/local/refused.txt", "<D:allprop/>").contains("fine"), "nothing was set");
    }

    @Test
    void badRequestsAreRefusedWithTheirStatus() throws Exception {
        Files.writeString(files.resolve("bad.txt"), "x");
        assertEquals(400, send(door, "PROPPATCH", "/local/bad.txt", "<not xml").statusCode());
        assertEquals(400, send(door, "PROPPATCH", "/local/bad.txt", "<?xml version=\"1.0\"?><!DOCTYPE x [<!ENTITY e SYSTEM "
                + "\"file:///etc/passwd\">]><D:propertyupdate xmlns:D=\"DAV:\"><D:set><D:prop><e>&e;</e></D:prop></D:set>"
                + "</D:propertyupdate>").statusCode(), "a DTD is refused");
        assertEquals(400, send(door, "PROPPATCH", "/local/bad.txt", "<D:propfind xmlns:D=\"DAV:\"/>").statusCode());
        assertEquals(400, send(door, "PROPPATCH", "/local/bad.txt", update("")).statusCode(), "changes nothing");
        assertEquals(404, send(door, "PROPPATCH", "/local/missing.txt", update(set("<Z:a>1</Z:a>"))).statusCode());
        assertEquals(401, send(door, "PROPPATCH", "/local/readonly/kept.txt", update(set("<Z:a>1</Z:a>"))).statusCode(),
                "no write right for anonymous: authenticate");
        assertEquals(405, send(door, "PROPPATCH", "/.gridcache/status", update(set("<Z:a>1</Z:a>"))).statusCode());
    }

    @Test
    void propertiesFollowMoveCopyAndDelete() throws Exception {
        assertEquals(201, send(door, "MKCOL", "/local/tree/", null).statusCode());
        assertEquals(201, send(door, "PUT", "/local/tree/f.txt", "data").statusCode());
        assertEquals(207, send(door, "PROPPATCH", "/local/tree/", update(set("<Z:dir>d</Z:dir>"))).statusCode());
        assertEquals(207, send(door, "PROPPATCH", "/local/tree/f.txt", update(set("<Z:file>f</Z:file>"))).statusCode());
        assertEquals(201, send(door, "COPY", "/local/tree/", null, "Destination", door.url() + "/local/copy/").statusCode());
        assertTrue(propfind(door, "/local/copy/f.txt", "<D:allprop/>").contains(">f</file>"), "copied with its collection");
        assertEquals(201, send(door, "MOVE", "/local/tree/", null, "Destination", door.url() + "/local/moved/").statusCode());
        assertTrue(propfind(door, "/local/moved/", "<D:prop><Z:dir/></D:prop>").contains(">d</dir>"));
        assertTrue(propfind(door, "/local/moved/f.txt", "<D:allprop/>").contains(">f</file>"));
        assertEquals(204, send(door, "DELETE", "/local/moved/", null).statusCode());
        assertEquals(201, send(door, "PUT", "/local/moved.txt", "new").statusCode());
        assertEquals(201, send(door, "MKCOL", "/local/moved/", null).statusCode());
        assertEquals(201, send(door, "PUT", "/local/moved/f.txt", "new").statusCode());
        assertFalse(propfind(door, "/local/moved/f.txt", "<D:allprop/>").contains("file"), "a new file has none of the old's");
    }

    @Test
    void collectionsOfAFileOriginShowTheFileSystemsQuotaFilesShowNone() throws Exception {
        String quota = "<D:prop><D:quota-available-bytes/><D:quota-used-bytes/></D:prop>";
        String collection = propfind(door, "/local/readonly/", quota);
        long available = Files.getFileStore(files).getUsableSpace();
        var m = java.util.regex.Pattern.compile("<d:quota-available-bytes>(\\d+)</d:quota-available-bytes>").matcher(collection);
        assertTrue(m.find(), collection);
        assertTrue(Math.abs(Long.parseLong(m.group(1)) - available) < 1L << 30, "the file system's usable space: " + collection);
        assertTrue(collection.matches("(?s).*<d:quota-used-bytes>\\d+</d:quota-used-bytes>.*"), collection);
        String file = propfind(door, "/local/readonly/kept.txt", quota);
        assertTrue(file.contains("404 Not Found") && !file.contains("200 OK"), "not reported where unknown: " + file);
        assertFalse(propfind(door, "/local/readonly/", "<D:allprop/>").contains("quota"), "never in allprop");
    }

    private static String propfind(Door at, String path, String what) throws Exception {
        HttpResponse<String> r = HTTP.send(HttpRequest.newBuilder(URI.create(at.url() + path)).header("Depth", "0")
                .method("PROPFIND", HttpRequest.BodyPublishers.ofString("<?xml version=\"1.0\" encoding=\"utf-8\"?>"
                        + "<D:propfind xmlns:D=\"DAV:\" xmlns:Z=\"" + NS + "\">" + what + "</D:propfind>")).build(),
                HttpResponse.BodyHandlers.ofString());
        assertEquals(207, r.statusCode(), r.body());
        return r.body();
    }

    private static HttpResponse<String> send(Door at, String method, String path, String body, String... headers) throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(at.url() + path)).method(method,
                body == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(body));
        for (int i = 0; i < headers.length; i += 2) {
            b.header(headers[i], headers[i + 1]);
        }
        return HTTP.send(b.build(), HttpResponse.BodyHandlers.ofString());
    }

    @Test
    void aPropertyElementIsStandaloneXmlWhateverPrefixesTheClientUsed() {
        assertEquals("<a xmlns=\"\"/>", PropertyXml.name("", "a"));
        assertEquals("&lt;&amp;&quot;&#10;", PropertyXml.escape("<&\"\n", true));
    }
}
