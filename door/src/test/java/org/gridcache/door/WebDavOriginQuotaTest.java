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
import org.apache.curator.framework.CuratorFramework;
import org.gridcache.common.origin.FileOriginRoots;
import org.gridcache.common.origin.OriginEntry;
import org.gridcache.common.ticket.TicketSigningKey;
import org.gridcache.zk.EmbeddedZooKeeper;
import org.gridcache.zk.MountTable;
import org.gridcache.zk.Zk;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * RFC 4331 quota of WebDAV origins through the door: a SabreDAV origin (which reports it) at /sabre, a writable nginx
 * (which does not) at /nginx. The door passes the origin's numbers on for its collections, asked by name, and
 * reports none where the origin says none.
 */
class WebDavOriginQuotaTest {
    private static final String QUOTA = "<D:prop><D:quota-available-bytes/><D:quota-used-bytes/></D:prop>";
    private static final Pattern AVAILABLE = Pattern.compile("<d:quota-available-bytes>(\\d+)</d:quota-available-bytes>");
    private static final Pattern USED = Pattern.compile("<d:quota-used-bytes>(\\d+)</d:quota-used-bytes>");
    @TempDir
    static Path tmp;
    private static final List<AutoCloseable> CLOSEABLES = new ArrayList<>();
    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();
    private static Path sabreData;
    private static Door door;

    @BeforeAll
    static void start() throws Exception {
        sabreData = Files.createDirectories(tmp.resolve("sabre-data"));
        Files.createDirectories(sabreData.resolve("sub"));
        Files.writeString(sabreData.resolve("sub/a.txt"), "a");
        SabreDavOrigin sabre = SabreDavOrigin.start(tmp.resolve("sabre"), sabreData);
        CLOSEABLES.add(sabre);
        Path nginxData = Files.createDirectories(tmp.resolve("nginx-data"));
        Files.createDirectories(nginxData.resolve("sub"));
        WritableNginx nginx = WritableNginx.start(tmp.resolve("nginx"), nginxData);
        CLOSEABLES.add(nginx);
        EmbeddedZooKeeper server = EmbeddedZooKeeper.start(tmp.resolve("zk"), "127.0.0.1", 0);
        CLOSEABLES.add(server);
        CuratorFramework zk = Zk.connect(server.connectString());
        CLOSEABLES.add(zk);
        MountTable.put(zk, OriginEntry.of("sabre", "/sabre", sabre.url() + "/"));
        MountTable.put(zk, OriginEntry.of("nginx", "/nginx", nginx.url() + "/"));
        Path policy = Files.writeString(tmp.resolve("authz"), "anyone / list,read,write\n");
        door = Door.start(new DoorSettings("door-q", "127.0.0.1", 0, null, List.of(TicketSigningKey.generate()),
                DoorSecurity.plain(policy), FileOriginRoots.NONE), zk);
        CLOSEABLES.add(door);
    }

    @AfterAll
    static void stop() {
        TestResources.closeInReverse(CLOSEABLES);
    }

    /**
     * SabreDAV's numbers: the file system's free space and its size less that, so together its size — give or take
     * what other processes wrote between SabreDAV's two calls (it asks the free space twice).
     */
    @Test
    void aWebDavOriginsQuotaIsPassedOnForTheMountPointAndItsCollections() throws Exception {
        long total = Files.getFileStore(sabreData).getTotalSpace();
        for (String path : List.of("/sabre/", "/sabre/sub/")) {
            String body = propfind(path, "0", QUOTA);
            long sum = number(AVAILABLE, body) + number(USED, body);
            assertTrue(Math.abs(total - sum) < total / 100, "origin's numbers " + sum + " for a file system of " + total + ": " + body);
        }
    }

    /** In a Depth 1 listing: on the child collection (from the origin's own listing), not on a file. */
    @Test
    void aListingCarriesTheQuotaOfTheChildCollectionsOnly() throws Exception {
        String body = propfind("/sabre/sub/", "1", QUOTA);
        String[] responses = body.split("<d:response>");
        String file = List.of(responses).stream().filter(r -> r.contains("/sabre/sub/a.txt</d:href>")).findFirst().orElseThrow();
        assertFalse(AVAILABLE.matcher(file).find(), body);
        assertTrue(file.contains("404"), body);
        String listing = propfind("/sabre/", "1", QUOTA);
        String sub = List.of(listing.split("<d:response>")).stream().filter(r -> r.contains("/sabre/sub/</d:href>")).findFirst()
                .orElseThrow();
        assertTrue(AVAILABLE.matcher(sub).find() && USED.matcher(sub).find(), listing);
    }

    /** nginx says nothing of quota: the door says it does not know (404 in the propstat), never a made-up number. */
    @Test
    void anOriginWithoutQuotaHasNone() throws Exception {
        for (String path : List.of("/nginx/", "/nginx/sub/")) {
            String body = propfind(path, "0", QUOTA);
            assertFalse(AVAILABLE.matcher(body).find() || USED.matcher(body).find(), body);
            assertTrue(body.contains("404"), body);
        }
    }

    /** RFC 4331, 3: not in allprop. */
    @Test
    void quotaIsNotInAllprop() throws Exception {
        assertFalse(propfind("/sabre/", "0", "<D:allprop/>").contains("quota"));
    }

    private static long number(Pattern p, String body) {
        Matcher m = p.matcher(body);
        assertTrue(m.find(), body);
        return Long.parseLong(m.group(1));
    }

    private static String propfind(String path, String depth, String what) throws Exception {
        HttpResponse<String> r = HTTP.send(HttpRequest.newBuilder(URI.create(door.url() + path)).header("Depth", depth)
                .method("PROPFIND", HttpRequest.BodyPublishers.ofString("<?xml version=\"1.0\" encoding=\"utf-8\"?>"
                        + "<D:propfind xmlns:D=\"DAV:\">" + what + "</D:propfind>")).build(),
                HttpResponse.BodyHandlers.ofString());
        assertEquals(207, r.statusCode(), r.body());
        return r.body();
    }
}
