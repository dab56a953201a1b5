package org.gridcache.door.namespace;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.sun.net.httpserver.HttpServer;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.eclipse.jetty.client.HttpClient;
import org.gridcache.common.origin.OriginEntry;
import org.gridcache.common.authz.BearerIdentity;
import org.gridcache.common.security.GridSubject;
import org.gridcache.door.exchange.DoorException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** A listing is read as it arrives and never beyond the cap: announced or streamed, a larger one is a 502 saying so. */
class WebDavOriginListerTest {
    private static final int ENTRIES = 2_000;
    private HttpServer server;
    private HttpClient http;
    private final AtomicLong cap = new AtomicLong(1 << 20);
    private final java.util.concurrent.atomic.AtomicInteger propfinds = new java.util.concurrent.atomic.AtomicInteger();
    private OriginEntry origin;
    private WebDavOriginLister lister;

    /** {@code /big/}: 2,000 files, ~400 kB of multistatus; {@code /chunked/}: the same without a Content-Length. */
    @BeforeEach
    void start() throws Exception {
        server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.createContext("/", exchange -> {
            try (exchange) {
                exchange.getRequestBody().readAllBytes();
                if (exchange.getRequestMethod().equals("PROPFIND")) {
                    propfinds.incrementAndGet();
                }
                String dir = exchange.getRequestURI().getPath();
                if (dir.startsWith("/gridsite")) {
                    gridsite(exchange);
                    return;
                }
                if (dir.startsWith("/token") && !"Bearer alice-token".equals(exchange.getRequestHeaders().getFirst("Authorization"))) {
                    exchange.sendResponseHeaders(403, -1); // a token origin: Alice's token only
                    return;
                }
                StringBuilder xml = new StringBuilder("<?xml version=\"1.0\"?><D:multistatus xmlns:D=\"DAV:\">");
                xml.append("<D:response><D:href>").append(dir).append("</D:href><D:propstat><D:prop><D:resourcetype><D:collection/>"
                        + "</D:resourcetype></D:prop><D:status>HTTP/1.1 200 OK</D:status></D:propstat></D:response>");
                for (int i = 0; i < ENTRIES; i++) {
                    xml.append("<D:response><D:href>").append(dir).append("file-").append(i).append(".root</D:href><D:propstat><D:prop>"
                            + "<D:resourcetype/><D:getcontentlength>").append(i).append("</D:getcontentlength></D:prop>"
                            + "<D:status>HTTP/1.1 200 OK</D:status></D:propstat></D:response>");
                }
                byte[] body = xml.append("</D:multistatus>").toString().getBytes(StandardCharsets.UTF_8);
                exchange.sendResponseHeaders(207, dir.startsWith("/chunked") ? 0 : body.length);
                try (OutputStream out = exchange.getResponseBody()) {
                    out.write(body);
                }
            }
        });
        server.start();
        http = new HttpClient();
        http.start();
        origin = OriginEntry.of("o", "/o", "http://127.0.0.1:" + server.getAddress().getPort());
        lister = new WebDavOriginLister(http, cap::get);
    }

    /** mod_gridsite: no PROPFIND; an HTML index with sizes and times; 403 for a directory the user may not list. */
    private static void gridsite(com.sun.net.httpserver.HttpExchange exchange) throws java.io.IOException {
        String path = exchange.getRequestURI().getPath();
        if (exchange.getRequestMethod().equals("PROPFIND")) {
            exchange.sendResponseHeaders(405, -1);
            return;
        }
        if (path.equals("/gridsite/denied/")) {
            exchange.sendResponseHeaders(403, -1);
            return;
        }
        if (path.equals("/gridsite/bad-length.bin")) {
            exchange.getResponseHeaders().set("Content-Length", "12 bytes");
            exchange.sendResponseHeaders(200, -1);
            return;
        }
        byte[] html = """
                <head><title>Directory listing /gridsite/</title></head>
                <body bgcolor=white><h1>Directory listing /gridsite/</h1>
                <p><table>
                <tr><td colspan=3>[<a href="../">Parent directory</a>]</td></tr>
                <tr><td><a href="atlas/" content-length="4096" last-modified="1795439896">atlas/</a></td></tr>
                <tr><td><a href="a%20b.txt" content-length="12" last-modified="1795439896">a b.txt</a></td></tr>
                <tr><td><a href="/elsewhere">x</a> <a href="https://other.example.org/x">y</a> <a href="?C=M">z</a></td></tr>
                <tr><td><a href='plain.bin'>plain.bin</a></td></tr>
                </table>
                </body>""".getBytes(StandardCharsets.UTF_8);
        exchange.getResponseHeaders().set("Content-Type", "text/html");
        exchange.sendResponseHeaders(200, html.length);
        exchange.getResponseBody().write(html);
    }

    @AfterEach
    void stop() throws Exception {
        http.stop();
        server.stop(0);
    }

    @Test
    void aListingWithinTheCapIsReadWhole() {
        assertEquals(ENTRIES, lister.list(GridSubject.ANONYMOUS, OriginIdentity.DOOR, origin, "/o/big").size());
        assertEquals(ENTRIES, lister.list(GridSubject.ANONYMOUS, OriginIdentity.DOOR, origin, "/o/chunked").size());
    }

    @Test
    void aServerWithoutWebDavIsListedFromItsHtmlIndex() {
        List<NamespaceEntry> children = lister.list(GridSubject.ANONYMOUS, OriginIdentity.DOOR, origin, "/o/gridsite");
        assertEquals(List.of(
                new NamespaceEntry("/o/gridsite/atlas", "atlas", true, -1, 1795439896000L, null, null),
                new NamespaceEntry("/o/gridsite/a b.txt", "a b.txt", false, 12, 1795439896000L, null, null),
                new NamespaceEntry("/o/gridsite/plain.bin", "plain.bin", false, -1, -1, null, null)), children);
        DoorException refused = assertThrows(DoorException.class,
                () -> lister.list(GridSubject.ANONYMOUS, OriginIdentity.DOOR, origin, "/o/gridsite/denied"));
        assertEquals(403, refused.status());
        assertTrue(refused.reason().contains("the origin refuses this door access to /o/gridsite/denied"), refused.reason());
        cap.set(200);
        assertEquals(502, assertThrows(DoorException.class,
                () -> lister.list(GridSubject.ANONYMOUS, OriginIdentity.DOOR, origin, "/o/gridsite")).status(), "an index is capped too");
    }

    /**
     * A directory whose origin refused PROPFIND is statted and listed without asking again (a refused PROPFIND before
     * every miss's HEAD cost a round trip, and nginx a new connection); a WebDAV directory of the same origin still
     * gets PROPFIND, and the mount's root can be statted.
     */
    @Test
    void aDirectoryThatRefusedPropfindIsNotAskedAgain() {
        NamespaceEntry first = lister.stat(GridSubject.ANONYMOUS, OriginIdentity.DOOR, origin, "/o/gridsite/a b.txt");
        assertEquals(false, first.collection());
        assertEquals(1, propfinds.get());
        lister.stat(GridSubject.ANONYMOUS, OriginIdentity.DOOR, origin, "/o/gridsite/plain.bin");
        assertEquals(3, lister.list(GridSubject.ANONYMOUS, OriginIdentity.DOOR, origin, "/o/gridsite").size());
        assertEquals(1, propfinds.get(), "the HEAD and the HTML index at once");
        assertTrue(lister.stat(GridSubject.ANONYMOUS, OriginIdentity.DOOR, origin, "/o/big").collection());
        assertEquals(2, propfinds.get(), "another directory is asked");
        assertTrue(lister.stat(GridSubject.ANONYMOUS, OriginIdentity.DOOR, origin, "/o").collection());
        assertEquals(3, propfinds.get());
    }

    /** An origin mounted {@code --credential token} is listed with the user's own token, and refuses the door's. */
    @Test
    void aTokenOriginIsListedWithTheUsersToken() {
        OriginIdentity alice = OriginIdentity.token("ref", "token:alice@https://iss", java.time.Instant.now().plusSeconds(60), "alice-token");
        assertEquals(ENTRIES, lister.list(GridSubject.ANONYMOUS, alice, origin, "/o/token").size());
        DoorException refused = assertThrows(DoorException.class,
                () -> lister.list(GridSubject.ANONYMOUS, OriginIdentity.DOOR, origin, "/o/token"));
        assertEquals(403, refused.status());
    }

    /** The origin refusing a user's token refuses that user, not the door: the reason names the token's subject. */
    @Test
    void aRefusedTokenIsTheUsersRefusal() {
        GridSubject bob = GridSubject.ofToken(new BearerIdentity("https://iss", "bob"), List.of(), null);
        OriginIdentity token = OriginIdentity.token("ref", bob.name(), java.time.Instant.now().plusSeconds(60), "bob-token");
        DoorException refused = assertThrows(DoorException.class, () -> lister.list(bob, token, origin, "/o/token"));
        assertEquals(403, refused.status());
        assertEquals("the origin refuses " + bob.name() + " access to /o/token (origin o, 403)", refused.reason());
    }

    /** A malformed Content-Length never reaches the door's parsing: Jetty's client refuses the answer (502, not 500). */
    @Test
    void aMalformedLengthIs502() {
        DoorException length = assertThrows(DoorException.class,
                () -> lister.stat(GridSubject.ANONYMOUS, OriginIdentity.DOOR, origin, "/o/gridsite/bad-length.bin"));
        assertEquals(502, length.status(), length.reason());
    }

    @Test
    void aListingOverTheCapIs502WithTheReasonWhetherAnnouncedOrStreamed() {
        cap.set(64 << 10);
        for (String dir : new String[] {"/o/big", "/o/chunked"}) {
            DoorException e = assertThrows(DoorException.class, () -> lister.list(GridSubject.ANONYMOUS, OriginIdentity.DOOR, origin, dir));
            assertEquals(502, e.status(), dir);
            assertTrue(e.reason().contains("larger than this door reads (65536 bytes, door.listing-max-bytes)"), e.reason());
        }
        cap.set(1 << 20);
        assertEquals(ENTRIES, lister.list(GridSubject.ANONYMOUS, OriginIdentity.DOOR, origin, "/o/chunked").size(),
                "the cap is read per request");
    }
}
