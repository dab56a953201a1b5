package org.gridcache.door;

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
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * LOCK and UNLOCK at two doors on one ZooKeeper, over a {@code file://} origin at /local: a lock taken at one door
 * refuses the writes of a client that does not submit its token at either door, and every refusal and failure path.
 * Each test works below a directory of its own.
 */
class DoorLockTest {
    @TempDir
    static Path tmp;
    private static final List<AutoCloseable> CLOSEABLES = new ArrayList<>();
    private static final HttpClient HTTP = HttpClient.newBuilder().followRedirects(HttpClient.Redirect.NEVER)
            .connectTimeout(Duration.ofSeconds(10)).build();
    private static final Pattern TOKEN = Pattern.compile("<(opaquelocktoken:[0-9a-f-]{36})>");
    private static Path files;
    private static Door door;
    private static Door door2;

    @BeforeAll
    static void start() throws Exception {
        TwoDoors doors = TwoDoors.start(tmp, "door-l", CLOSEABLES);
        files = doors.files;
        door = doors.door;
        door2 = doors.door2;
    }

    @AfterAll
    static void stop() {
        TestResources.closeInReverse(CLOSEABLES);
    }

    @Test
    void anExclusiveLockAtOneDoorRefusesWritesWithoutItsTokenAtBothDoors() throws Exception {
        Files.createDirectories(files.resolve("excl"));
        Files.writeString(files.resolve("excl/f.txt"), "one");
        Files.writeString(files.resolve("excl/other.txt"), "other");
        HttpResponse<String> locked = lock(door, "/local/excl/f.txt", true, "0", "Second-600");
        assertEquals(200, locked.statusCode(), locked.body());
        String token = tokenOf(locked);
        assertTrue(locked.body().contains("<D:locktoken><D:href>" + token + "</D:href></D:locktoken>"), locked.body());
        assertTrue(locked.body().contains("<D:lockroot><D:href>/local/excl/f.txt</D:href></D:lockroot>"), locked.body());
        assertTrue(locked.body().contains("<D:owner>litmus test suite</D:owner>"), locked.body());
        assertEquals("Second-600", locked.headers().firstValue("Timeout").orElseThrow());

        for (Door at : List.of(door, door2)) {
            assertEquals(423, send(at, "PUT", "/local/excl/f.txt", "two").statusCode());
            assertEquals(423, send(at, "DELETE", "/local/excl/f.txt", null).statusCode());
            assertEquals(423, send(at, "MOVE", "/local/excl/f.txt", null, "Destination", at.url() + "/local/excl/g.txt").statusCode());
            assertEquals(423, send(at, "COPY", "/local/excl/other.txt", null, "Destination", at.url() + "/local/excl/f.txt").statusCode());
            assertEquals(423, lock(at, "/local/excl/f.txt", false, "0", null).statusCode(), "a conflicting LOCK");
        }
        assertEquals("one", Files.readString(files.resolve("excl/f.txt")));
        // the wrong token, even under Not, is no token: and a token that matches nothing makes If fail
        assertEquals(423, send(door2, "PUT", "/local/excl/f.txt", "x", "If", "(<" + token + "x>) (Not <DAV:no-lock>)").statusCode());
        assertEquals(412, send(door2, "PUT", "/local/excl/f.txt", "x", "If", "(<DAV:no-lock>)").statusCode());
        assertEquals(400, send(door2, "PUT", "/local/excl/f.txt", "x", "If", "(<" + token + ">").statusCode(), "malformed If");

        assertEquals(204, send(door2, "PUT", "/local/excl/f.txt", "two", "If", "(<" + token + ">)").statusCode());
        assertEquals("two", Files.readString(files.resolve("excl/f.txt")));
        assertEquals(204, send(door, "PUT", "/local/excl/f.txt", "three", "If",
                "<" + door.url() + "/local/excl/f.txt> (<" + token + ">)").statusCode(), "a tagged list");
        assertEquals(201, send(door, "COPY", "/local/excl/f.txt", null, "Destination", door.url() + "/local/excl/copy.txt").statusCode(),
                "a COPY of a locked file needs no token");

        assertEquals(409, send(door2, "UNLOCK", "/local/excl/f.txt", null, "Lock-Token", "<opaquelocktoken:foobar>").statusCode());
        assertEquals(409, send(door2, "UNLOCK", "/local/excl/other.txt", null, "Lock-Token", "<" + token + ">").statusCode(),
                "the lock does not cover that URL");
        assertEquals(400, send(door2, "UNLOCK", "/local/excl/f.txt", null).statusCode(), "no Lock-Token");
        assertEquals(204, send(door2, "UNLOCK", "/local/excl/f.txt", null, "Lock-Token", "<" + token + ">").statusCode());
        assertEquals(204, send(door, "PUT", "/local/excl/f.txt", "four").statusCode());
        assertEquals(412, send(door, "PUT", "/local/excl/f.txt", "x", "If", "(<" + token + ">)").statusCode(), "unlocked: If fails");
    }

    @Test
    void conditionsOnEntityTagsAreEvaluated() throws Exception {
        Files.createDirectories(files.resolve("etag"));
        Files.writeString(files.resolve("etag/f.txt"), "one");
        String token = tokenOf(lock(door, "/local/etag/f.txt", true, "0", null));
        String etag = send(door, "HEAD", "/local/etag/f.txt", null).headers().firstValue("ETag").orElseThrow();
        assertEquals(204, send(door, "PUT", "/local/etag/f.txt", "two", "If", "(<" + token + "> [" + etag + "])").statusCode());
        String now = send(door, "HEAD", "/local/etag/f.txt", null).headers().firstValue("ETag").orElseThrow();
        assertEquals(412, send(door, "PUT", "/local/etag/f.txt", "x", "If", "(<" + token + "> [\"bogus\"]) (Not <DAV:no-lock> [\"bogus\"])")
                .statusCode());
        assertEquals(204, send(door, "PUT", "/local/etag/f.txt", "three", "If", "(<" + token + "> [" + now + "]) (Not <DAV:no-lock> [" + now + "])")
                .statusCode());
        assertEquals(412, send(door, "PUT", "/local/etag/f.txt", "x", "If", "(<DAV:no-lock> [" + now + "])").statusCode());
    }

    @Test
    void aDepthInfinityLockOnACollectionCoversItsMembersAndIsRefreshedThroughThem() throws Exception {
        Files.createDirectories(files.resolve("coll/dir"));
        String token = tokenOf(lock(door, "/local/coll/dir", true, "infinity", "Infinite"));
        assertEquals(423, send(door2, "PUT", "/local/coll/dir/new.txt", "x").statusCode());
        assertEquals(423, send(door2, "MKCOL", "/local/coll/dir/sub", null).statusCode());
        assertEquals(423, send(door2, "DELETE", "/local/coll", null).statusCode(), "a DELETE above the lock");
        assertFalse(Files.exists(files.resolve("coll/dir/new.txt")));
        assertEquals(201, send(door2, "PUT", "/local/coll/dir/new.txt", "x", "If",
                "<" + door2.url() + "/local/coll/dir> (<" + token + ">)").statusCode());
        HttpResponse<String> refreshed = send(door2, "LOCK", "/local/coll/dir/new.txt", null, "If", "(<" + token + ">)", "Timeout", "Infinite");
        assertEquals(200, refreshed.statusCode(), refreshed.body());
        assertEquals("Second-3600", refreshed.headers().firstValue("Timeout").orElseThrow(), "Infinite is capped");
        assertTrue(refreshed.body().contains(token), refreshed.body());
        assertEquals(412, send(door2, "LOCK", "/local/coll/dir", null, "If", "(<opaquelocktoken:0f8fad5b-d9cb-469f-a165-70867728950e>)")
                .statusCode(), "no such lock to refresh");
        assertEquals(400, send(door2, "LOCK", "/local/coll/dir", null).statusCode(), "a refresh without If");
        assertEquals(204, send(door, "UNLOCK", "/local/coll/dir/new.txt", null, "Lock-Token", "<" + token + ">").statusCode(),
                "unlocked through a member it covers");
    }

    @Test
    void sharedLocksCoexistAndAnExclusiveOneConflictsWithThem() throws Exception {
        Files.createDirectories(files.resolve("shared"));
        Files.writeString(files.resolve("shared/f.txt"), "x");
        HttpResponse<String> first = lock(door, "/local/shared/f.txt", false, "0", null);
        assertEquals(200, first.statusCode());
        assertTrue(first.body().contains("<D:shared/>"), first.body());
        String second = tokenOf(lock(door2, "/local/shared/f.txt", false, "0", null));
        assertEquals(423, lock(door2, "/local/shared/f.txt", true, "0", null).statusCode());
        assertEquals(423, send(door2, "PUT", "/local/shared/f.txt", "y", "If", "(<" + second + ">)").statusCode(),
                "the other shared lock is in the way too");
        assertEquals(204, send(door2, "PUT", "/local/shared/f.txt", "y", "If", "(<" + second + ">) (<" + tokenOf(first) + ">)").statusCode());
    }

    @Test
    void aLockOnAnUnmappedUrlMakesAnEmptyFileAnd201() throws Exception {
        Files.createDirectories(files.resolve("unmapped"));
        HttpResponse<String> locked = lock(door, "/local/unmapped/new.txt", true, "0", null);
        assertEquals(201, locked.statusCode(), locked.body());
        assertEquals(0, Files.size(files.resolve("unmapped/new.txt")));
        assertEquals(409, lock(door, "/local/unmapped/no/such.txt", true, "0", null).statusCode(), "no parent collection");
        assertEquals(1, Files.list(files.resolve("unmapped")).count());
        assertEquals(409, lock(door, "/local/unmapped/no/such.txt", true, "0", null).statusCode(),
                "the failed create left no lock behind");
    }

    @Test
    void propfindShowsLockdiscoveryAtTheOtherDoorAndSupportedlock() throws Exception {
        Files.createDirectories(files.resolve("disc"));
        Files.writeString(files.resolve("disc/f.txt"), "x");
        String token = tokenOf(lock(door, "/local/disc/f.txt", true, "0", null));
        HttpResponse<String> found = send(door2, "PROPFIND", "/local/disc/f.txt", """
                <?xml version="1.0"?><D:propfind xmlns:D="DAV:"><D:prop><D:lockdiscovery/><D:supportedlock/></D:prop></D:propfind>""",
                "Depth", "0");
        assertEquals(207, found.statusCode(), found.body());
        assertTrue(found.body().matches("(?s).*<(\\w+:)?locktoken><(\\w+:)?href>" + token + "</.*"), found.body());
        assertTrue(found.body().contains("litmus test suite"), found.body());
        assertTrue(found.body().matches("(?s).*<(\\w+:)?lockentry><(\\w+:)?lockscope><(\\w+:)?shared/>.*"), found.body());
        HttpResponse<String> listing = send(door2, "PROPFIND", "/local/disc/", """
                <?xml version="1.0"?><D:propfind xmlns:D="DAV:"><D:prop><D:lockdiscovery/></D:prop></D:propfind>""", "Depth", "1");
        assertTrue(listing.body().contains(token), "a member's lock in a listing: " + listing.body());
        HttpResponse<String> none = send(door2, "PROPFIND", "/local/disc/", """
                <?xml version="1.0"?><D:propfind xmlns:D="DAV:"><D:prop><D:lockdiscovery/></D:prop></D:propfind>""", "Depth", "0");
        assertFalse(none.body().contains("activelock"), "the collection is not locked: " + none.body());
    }

    @Test
    void deleteAndMoveDropTheLocksOfWhatTheyRemoved() throws Exception {
        Files.createDirectories(files.resolve("drop"));
        Files.writeString(files.resolve("drop/a.txt"), "a");
        Files.writeString(files.resolve("drop/b.txt"), "b");
        String a = tokenOf(lock(door, "/local/drop/a.txt", true, "0", null));
        assertEquals(204, send(door2, "DELETE", "/local/drop/a.txt", null, "If", "(<" + a + ">)").statusCode());
        assertEquals(201, send(door2, "PUT", "/local/drop/a.txt", "again").statusCode(), "the lock went with the file");
        String b = tokenOf(lock(door, "/local/drop/b.txt", true, "0", null));
        assertEquals(201, send(door, "MOVE", "/local/drop/b.txt", null, "If", "(<" + b + ">)",
                "Destination", door.url() + "/local/drop/c.txt").statusCode());
        assertEquals(201, send(door2, "PUT", "/local/drop/b.txt", "new b").statusCode());
        assertEquals(204, send(door2, "PUT", "/local/drop/c.txt", "new c").statusCode(), "a lock does not follow a MOVE");
    }

    @Test
    void badLockRequestsAreRefusedWithTheirReason() throws Exception {
        Files.createDirectories(files.resolve("bad"));
        Files.writeString(files.resolve("bad/f.txt"), "x");
        String xxe = """
                <?xml version="1.0"?><!DOCTYPE lockinfo [<!ENTITY x SYSTEM "file:///etc/passwd">]>
                <D:lockinfo xmlns:D="DAV:"><D:lockscope><D:exclusive/></D:lockscope><D:locktype><D:write/></D:locktype>
                <D:owner>&x;</D:owner></D:lockinfo>""";
        HttpResponse<String> refused = send(door, "LOCK", "/local/bad/f.txt", xxe);
        assertEquals(400, refused.statusCode());
        assertTrue(refused.body().contains("document type declarations are refused"), refused.body());
        assertFalse(refused.body().contains("root:"), refused.body());
        assertEquals(400, send(door, "LOCK", "/local/bad/f.txt", lockinfo(true), "Depth", "1").statusCode());
        assertEquals(401, lock(door, "/local/readonly/kept.txt", true, "0", null).statusCode(), "no write right, anonymous");
        assertEquals(405, send(door, "UNLOCK", "/.gridcache/health", null, "Lock-Token", "<opaquelocktoken:x>").statusCode());
        assertEquals(201, send(door, "PUT", "/local/bad/g.txt", "free").statusCode(), "nothing was locked by the refusals");
    }

    // --- helpers ---

    private static String lockinfo(boolean exclusive) {
        return "<?xml version=\"1.0\" encoding=\"utf-8\"?><D:lockinfo xmlns:D=\"DAV:\"><D:lockscope>"
                + (exclusive ? "<D:exclusive/>" : "<D:shared/>") + "</D:lockscope><D:locktype><D:write/></D:locktype>"
                + "<D:owner>litmus test suite</D:owner></D:lockinfo>";
    }

    /** Issue 39, row 10: one subject holds a bounded number of locks (507 with the reason), and unlocking gives room. */
    @Test
    void aSubjectHoldsAtMostSoManyLocksThen507() throws Exception {
        Files.createDirectories(files.resolve("many"));
        List<String> tokens = new ArrayList<>();
        try {
            HttpResponse<String> last = null;
            for (int i = 0; i <= org.gridcache.zk.lock.LockTable.MAX_PER_SUBJECT; i++) {
                Files.writeString(files.resolve("many/f" + i), "x");
                last = lock(i % 2 == 0 ? door : door2, "/local/many/f" + i, true, "0", "Second-600");
                if (last.statusCode() != 200) {
                    break;
                }
                tokens.add(tokenOf(last));
            }
            assertEquals(507, last.statusCode(), last.body());
            assertTrue(last.body().contains("live locks, the most one subject may: unlock some first"), last.body());
            assertEquals(204, send(door, "UNLOCK", "/local/many/f0", null, "Lock-Token", "<" + tokens.remove(0) + ">").statusCode());
            HttpResponse<String> again = lock(door2, "/local/many/f0", true, "0", "Second-600");
            assertEquals(200, again.statusCode(), again.body());
            tokens.add(0, tokenOf(again));
        } finally {
            for (int i = 0; i < tokens.size(); i++) {
                send(door, "UNLOCK", "/local/many/f" + i, null, "Lock-Token", "<" + tokens.get(i) + ">");
            }
        }
    }

    private static HttpResponse<String> lock(Door at, String path, boolean exclusive, String depth, String timeout) throws Exception {
        return timeout == null
                ? send(at, "LOCK", path, lockinfo(exclusive), "Depth", depth)
                : send(at, "LOCK", path, lockinfo(exclusive), "Depth", depth, "Timeout", timeout);
    }

    private static String tokenOf(HttpResponse<String> locked) {
        assertTrue(locked.statusCode() == 200 || locked.statusCode() == 201, locked.statusCode() + " " + locked.body());
        Matcher m = TOKEN.matcher(locked.headers().firstValue("Lock-Token").orElseThrow());
        assertTrue(m.matches(), locked.headers().toString());
        return m.group(1);
    }

    private static HttpResponse<String> send(Door at, String method, String path, String body, String... headers) throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(at.url() + path)).method(method,
                body == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(body));
        for (int i = 0; i < headers.length; i += 2) {
            b.header(headers[i], headers[i + 1]);
        }
        return HTTP.send(b.build(), HttpResponse.BodyHandlers.ofString());
    }
}
