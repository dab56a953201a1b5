package org.gridcache.door;

import static org.awaitility.Awaitility.await;
import org.gridcache.common.settings.ClusterSettings.Keys;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.apache.curator.framework.CuratorFramework;
import org.gridcache.common.settings.ClusterSettings;
import org.gridcache.common.Json;
import org.gridcache.common.origin.FileOriginRoots;
import org.gridcache.common.origin.OriginEntry;
import org.gridcache.common.cluster.PoolRecord;
import org.gridcache.common.ticket.Ticket;
import org.gridcache.common.ticket.TicketCodec;
import org.gridcache.common.ticket.TicketSigningKey;
import org.gridcache.door.read.PoolProxy;
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
 * The door against real parts: an embedded ZooKeeper, a {@code file://} origin mounted at /local, a fake WebDAV
 * origin mounted at /, an unreachable origin at /down, and pools registered in ZooKeeper.
 */
class DoorTest {
    private static final Duration WAIT = Duration.ofSeconds(20);
    @TempDir
    Path tmp;
    private final List<AutoCloseable> closeables = new ArrayList<>();
    private final TicketSigningKey key = TicketSigningKey.generate();
    private final byte[] data = new byte[200_000];
    private CuratorFramework zk;
    private FakeWebDavOrigin dav;
    private Path files;
    private Door door;
    private final HttpClient http = HttpClient.newBuilder().followRedirects(HttpClient.Redirect.NEVER)
            .connectTimeout(Duration.ofSeconds(10)).build();

    @BeforeEach
    void start() throws Exception {
        new Random(8).nextBytes(data);
        EmbeddedZooKeeper server = EmbeddedZooKeeper.start(tmp.resolve("zk"), "127.0.0.1", 0);
        closeables.add(server);
        zk = Zk.connect(server.connectString());
        closeables.add(zk);
        files = Files.createDirectories(tmp.resolve("files"));
        Files.write(files.resolve("data.bin"), data);
        Files.writeString(files.resolve("a&b<c>.txt"), "x");
        Files.createDirectories(files.resolve("sub"));
        Files.writeString(files.resolve("sub/inner.txt"), "inner");
        dav = new FakeWebDavOrigin();
        closeables.add(dav);
        MountTable.put(zk, OriginEntry.of("dav", "/", dav.url() + "/dav"));
        MountTable.put(zk, OriginEntry.of("local", "/local", files.toUri().toString()));
        MountTable.put(zk, OriginEntry.of("down", "/down", "http://127.0.0.1:" + closedPort() + "/x"));
        door = Door.start(new DoorSettings("door1", "127.0.0.1", 0, null, key)
                .withFileOriginRoots(FileOriginRoots.of(List.of(files))), zk);
        closeables.add(door);
    }

    @AfterEach
    void stop() {
        TestResources.closeInReverse(closeables);
    }

    // --- bearer tokens ---

    @Test
    void aBearerTokenSentToAPlainHttpDoorIsRefusedAsSpent() throws Exception {
        for (URI where : List.of(uri("/local/data.bin"), uri("/local/data.bin?authz=a.b.c"))) {
            HttpRequest.Builder request = HttpRequest.newBuilder(where).GET();
            if (where.getQuery() == null) {
                request.header("Authorization", "Bearer a.b.c");
            }
            HttpResponse<String> r = http.send(request.build(), HttpResponse.BodyHandlers.ofString());
            assertEquals(401, r.statusCode());
            assertEquals("bearer tokens are accepted over HTTPS only (this one was sent in clear: revoke it)\n", r.body());
            assertTrue(r.headers().firstValue("WWW-Authenticate").orElse("").startsWith("Bearer error=\"invalid_token\""));
        }
    }

    // --- listings ---

    @Test
    void propfindListsAFileOriginWithSizesAndSubcollections() throws Exception {
        HttpResponse<String> one = propfind("/local/", "1");
        assertEquals(207, one.statusCode());
        assertTrue(one.body().contains("data.bin"), one.body());
        assertTrue(one.body().contains("<d:getcontentlength>200000</d:getcontentlength>")
                || one.body().contains(">200000<"), one.body());
        assertTrue(one.body().contains("/local/sub/"), one.body());
        assertTrue(one.body().toLowerCase().contains("collection"), one.body());

        HttpResponse<String> zero = propfind("/local/data.bin", "0");
        assertEquals(207, zero.statusCode());
        assertTrue(zero.body().contains(">200000<"), zero.body());
        assertFalse(zero.body().contains("inner.txt"));
    }

    @Test
    void propfindListsAWebDavOriginAndTheMountPointsBelowIt() throws Exception {
        HttpResponse<String> root = propfind("/", "1");
        assertEquals(207, root.statusCode());
        assertTrue(root.body().contains("hello.txt"), root.body());
        assertTrue(root.body().contains("file%20one.txt"), root.body());
        assertTrue(root.body().contains("/sub/"), root.body());
        assertTrue(root.body().contains("/local/"), "mount point listed: " + root.body());
        assertTrue(root.body().contains("/down/"), "mount point listed: " + root.body());

        HttpResponse<String> file = propfind("/file%20one.txt", "0");
        assertEquals(207, file.statusCode());
        assertTrue(file.body().contains(">11<"), file.body());

        HttpResponse<String> sub = propfind("/sub", "1");
        assertEquals(207, sub.statusCode());
        assertTrue(sub.body().contains("deep.txt"), sub.body());
    }

    @Test
    void originStatusesMapToDoorStatuses() throws Exception {
        assertEquals(404, propfind("/nothing-here", "1").statusCode());
        assertEquals(403, propfind("/secret", "1").statusCode());
        HttpResponse<String> broken = propfind("/broken", "1");
        assertEquals(502, broken.statusCode());
        assertEquals(1, broken.body().strip().lines().count(), broken.body());
    }

    @Test
    void anOriginThatIsDownIs502() throws Exception {
        HttpResponse<String> r = propfind("/down/", "1");
        assertEquals(502, r.statusCode());
        assertTrue(r.body().contains("down"), r.body());
        assertTrue(r.headers().firstValue("Content-Type").orElse("").startsWith("text/plain"));
        assertEquals(502, get("/down/file", null).statusCode());
    }

    /** A file:// mount outside the door's --file-origin-root (a sibling sharing its prefix): 403 with the setting, no redirect. */
    @Test
    void aFileOriginOutsideTheAllowedDirectoriesIsRefusedWithItsReason() throws Exception {
        Path sibling = Files.createDirectories(tmp.resolve("files2"));
        Files.writeString(sibling.resolve("secret.txt"), "secret");
        MountTable.put(zk, OriginEntry.of("sibling", "/sibling", sibling.toUri().toString()));
        register("p1", 0.5, "http://127.0.0.1:9/pool");
        HttpResponse<String> r = await().atMost(WAIT).until(() -> get("/sibling/secret.txt", null), x -> x.statusCode() != 404);
        assertEquals(403, r.statusCode(), r.body());
        assertEquals("origin sibling is not served: the origin directory is not at or below a --file-origin-root of this node",
                r.body().strip());
        assertEquals(403, propfind("/sibling/", "1").statusCode());
        assertEquals(200, get("/local/", null).statusCode(), "the allowed origin still serves");
    }

    @Test
    void aBrowserGetsAnHtmlListingWithEscapedNames() throws Exception {
        HttpResponse<String> r = get("/local/", null);
        assertEquals(200, r.statusCode());
        assertTrue(r.headers().firstValue("Content-Type").orElse("").startsWith("text/html"));
        assertTrue(r.body().contains("href=\"/local/data.bin\""), r.body());
        assertTrue(r.body().contains("a&amp;b&lt;c&gt;.txt"), r.body());
        assertTrue(r.body().contains("href=\"/local/a%26b%3Cc%3E.txt\""), r.body());
        assertTrue(r.body().contains("200000"), r.body());

        HttpResponse<String> root = get("/", null);
        assertEquals(200, root.statusCode());
        assertTrue(root.body().contains("href=\"/local/\""), root.body());
        assertTrue(root.body().contains("hello.txt"), root.body());
    }

    @Test
    void aMalformedPropfindIs400AndDepthInfinityIs403() throws Exception {
        HttpRequest request = HttpRequest.newBuilder(uri("/local/")).header("Depth", "1")
                .method("PROPFIND", HttpRequest.BodyPublishers.ofString("<D:propfind xmlns:D=\"DAV:\"><D:prop>")).build();
        assertEquals(400, http.send(request, HttpResponse.BodyHandlers.ofString()).statusCode());
        assertEquals(403, propfind("/local/", "infinity").statusCode());
    }

    @Test
    void anInvalidDepthIs400AndAnUnknownMethod501() throws Exception {
        // issue 15's hostile run: Depth 7 and -1 were 403, as if refused by policy
        for (String depth : new String[] {"7", "-1", "foo", "1,0"}) {
            HttpResponse<String> r = propfind("/local/", depth);
            assertEquals(400, r.statusCode(), depth + ": " + r.body());
            assertTrue(r.body().contains("invalid Depth"), r.body());
        }
        assertEquals(501, rawStatus("FOOBAR /local/hello.txt HTTP/1.1"), "a method no one implements");
        assertEquals(501, rawStatus("get /local/hello.txt HTTP/1.1"), "methods are case-sensitive");
        assertEquals(405, rawStatus("TRACE /local/hello.txt HTTP/1.1"), "a method known but not allowed here");
        assertEquals(400, rawStatus("GET /local/hello.txt http/1.1"), "the door's connector holds request lines to RFC 9112");
    }

    // --- reads ---

    @Test
    void getRedirectsToAPoolWithATicketBindingWhatTheDoorResolved() throws Exception {
        register("p1", 0.5, "http://127.0.0.1:9/pool");
        HttpResponse<String> r = await().atMost(WAIT).alias("a redirect once the pool is known").until(() -> get("/local/data.bin", null), x -> x.statusCode() == 302);
        String location = r.headers().firstValue("Location").orElseThrow();
        String prefix = "http://127.0.0.1:9/pool/local/data.bin?" + Ticket.QUERY_PARAMETER + "=";
        assertTrue(location.startsWith(prefix), location);
        String token = location.substring(prefix.length());
        Ticket ticket = TicketCodec.of("door1", null, java.util.List.of(key)).verify(token, "/local/data.bin", "p1", "read");
        // the pool resolves the origin by path: the client reads no origin URL, host or real path in the ticket
        String claims = new String(java.util.Base64.getUrlDecoder().decode(token.split("\\.")[1]), java.nio.charset.StandardCharsets.UTF_8);
        assertFalse(claims.contains(files.toString()), claims);
        assertFalse(claims.contains("file:"), claims);
        assertEquals(null, ticket.originUrl());
        assertEquals(data.length, ticket.size());
        assertEquals(Files.getLastModifiedTime(files.resolve("data.bin")).toMillis() / 1000, ticket.mtime());
        assertEquals("anonymous", ticket.subject());
        assertEquals("door1", ticket.door());
        assertTrue(ticket.expiresAt() > Instant.now().getEpochSecond());
    }

    @Test
    void aRedirectToAWebDavOriginFileCarriesItsPathForThePoolToResolve() throws Exception {
        register("p1", 0.5, "http://127.0.0.1:9");
        HttpResponse<String> r = await().atMost(WAIT).alias("a redirect once the pool is known").until(() -> get("/file%20one.txt", null), x -> x.statusCode() == 302);
        String location = r.headers().firstValue("Location").orElseThrow();
        assertTrue(location.startsWith("http://127.0.0.1:9/file%20one.txt?"), location);
        Ticket ticket = TicketCodec.of("door1", null, java.util.List.of(key)).verify(location.substring(location.indexOf('=') + 1), "/file one.txt", "p1", "read");
        assertEquals(11, ticket.size());
        // the pool resolves the path with the mount table as the door does
        assertEquals(dav.url() + "/dav/file%20one.txt", MountTable.list(zk).stream()
                .filter(e -> org.gridcache.common.GridPath.isUnder(ticket.path(), e.prefix()))
                .max(java.util.Comparator.comparingInt(e -> e.prefix().length())).orElseThrow().urlOf(ticket.path()));
    }

    @Test
    void aPlainHttpOriginIsStattedWithHead() throws Exception {
        com.sun.net.httpserver.HttpServer plain = com.sun.net.httpserver.HttpServer.create(
                new java.net.InetSocketAddress("127.0.0.1", 0), 0);
        plain.createContext("/", exchange -> {
            String path = exchange.getRequestURI().getRawPath();
            if (exchange.getRequestMethod().equals("PROPFIND")) {
                exchange.sendResponseHeaders(405, -1); // no WebDAV here, as with a plain nginx
            } else if (path.equals("/plain/f.bin")) {
                exchange.getResponseHeaders().set("Last-Modified", "Sat, 21 Nov 2026 05:00:00 GMT");
                exchange.getResponseHeaders().set("ETag", "\"abc\"");
                exchange.getResponseHeaders().set("Content-Length", "1234"); // a HEAD: headers only
                exchange.sendResponseHeaders(200, -1);
            } else if (path.equals("/plain/dir")) {
                exchange.getResponseHeaders().set("Location", "http://127.0.0.1:" + exchange.getLocalAddress().getPort() + "/plain/dir/");
                exchange.sendResponseHeaders(301, -1);
            } else {
                exchange.sendResponseHeaders(404, -1);
            }
            exchange.close();
        });
        plain.start();
        closeables.add(() -> plain.stop(0));
        MountTable.put(zk, OriginEntry.of("plain", "/p", "http://127.0.0.1:" + plain.getAddress().getPort() + "/plain"));
        register("p1", 0.5, "http://127.0.0.1:9");
        HttpResponse<String> r = await().atMost(WAIT).alias("a redirect once the pool is known").until(() -> get("/p/f.bin", null), x -> x.statusCode() == 302);
        String location = r.headers().firstValue("Location").orElseThrow();
        Ticket ticket = TicketCodec.of("door1", null, java.util.List.of(key)).verify(location.substring(location.indexOf('=') + 1), "/p/f.bin", "p1", "read");
        assertEquals(1234, ticket.size());
        assertEquals(Instant.parse("2026-11-21T05:00:00Z").getEpochSecond(), ticket.mtime());
        assertEquals(404, get("/p/missing.bin", null).statusCode());
        HttpResponse<String> listing = propfind("/p/dir/", "1");
        assertEquals(502, listing.statusCode());
        assertTrue(listing.body().contains("not a WebDAV server"), listing.body());
    }

    @Test
    void leastLoadedSendsEveryReadToTheIdlePool() throws Exception {
        ClusterConfig.set(zk, Keys.SELECTION_POLICY.key(), "least-loaded");
        register("busy", 5.0, "http://127.0.0.1:9/busy");
        register("idle", 0.1, "http://127.0.0.1:9/idle");
        register("middle", 2.0, "http://127.0.0.1:9/middle");
        await().atMost(WAIT).alias("a redirect to the idle pool").until(() -> get("/local/data.bin", null),
                x -> x.statusCode() == 302 && x.headers().firstValue("Location").orElse("").contains("/idle/"));
        for (int i = 0; i < 10; i++) {
            assertTrue(get("/local/data.bin", null).headers().firstValue("Location").orElseThrow().contains("/idle/"));
        }
    }

    @Test
    void redirectsNameTheRankedPoolsInLinkHeadersEachWithItsOwnTicket() throws Exception {
        for (String id : List.of("pa", "pb", "pc")) {
            register(id, 0, "http://127.0.0.1:9/" + id);
        }
        HttpResponse<String> r = await().atMost(WAIT).alias("a redirect naming three pools").until(() -> get("/local/data.bin", null),
                x -> x.statusCode() == 302 && x.headers().allValues("Link").size() == 3);
        List<String> links = r.headers().allValues("Link");
        TicketCodec codec = TicketCodec.of("door1", null, java.util.List.of(key));
        List<Ticket> tickets = new ArrayList<>();
        for (int i = 0; i < links.size(); i++) {
            java.util.regex.Matcher m = java.util.regex.Pattern.compile("^<(.+)>; rel=\"duplicate\"; pri=(\\d+)$").matcher(links.get(i));
            assertTrue(m.matches(), links.get(i));
            assertEquals(String.valueOf(i + 1), m.group(2));
            String url = m.group(1);
            String pool = url.substring("http://127.0.0.1:9/".length(), url.indexOf("/local/"));
            tickets.add(codec.verify(ticketOf(url), "/local/data.bin", pool, Ticket.READ));
        }
        assertEquals(links.get(0), "<" + r.headers().firstValue("Location").orElseThrow() + ">; rel=\"duplicate\"; pri=1");
        assertEquals(3, tickets.stream().map(Ticket::pool).distinct().count(), "three different pools");
        assertEquals(List.of(), tickets.get(0).peers(), "affinity: the owner fetches from the origin");
        assertEquals(List.of(tickets.get(0).pool()), tickets.get(1).peers(), "the next asks the owner first");
        assertEquals(List.of(tickets.get(0).pool(), tickets.get(1).pool()), tickets.get(2).peers());
        for (int i = 0; i < 5; i++) {
            assertEquals(r.headers().firstValue("Location").orElseThrow().replaceAll("\\?.*", ""),
                    get("/local/data.bin", null).headers().firstValue("Location").orElseThrow().replaceAll("\\?.*", ""),
                    "affinity: the same pool every time");
        }

        ClusterConfig.set(zk, Keys.SELECTION_POLICY.key(), "random");
        HttpResponse<String> random = await().atMost(WAIT).alias("the random policy asking all peers").until(() -> get("/local/data.bin", null), x -> x.statusCode() == 302
                && ticketPeers(x.headers().firstValue("Location").orElseThrow()).equals(List.of(Ticket.ALL_PEERS)));
        assertEquals(3, random.headers().allValues("Link").size());
    }

    private static String ticketOf(String url) {
        return url.substring(url.indexOf(Ticket.QUERY_PARAMETER + "=") + Ticket.QUERY_PARAMETER.length() + 1);
    }

    private List<String> ticketPeers(String url) {
        try {
            return TicketCodec.of("door1", null, java.util.List.of(key)).verify(ticketOf(url)).peers();
        } catch (Exception e) {
            throw new AssertionError(e);
        }
    }

    @Test
    void whileZooKeeperIsDownTheDoorRedirectsToTheLastKnownPoolsForTheGraceOnly() throws Exception {
        ClusterConfig.set(zk, Keys.ZK_GRACE.key(), "3s");
        register("p1", 0, "http://127.0.0.1:9/p1");
        await().atMost(WAIT).alias("a redirect once the pool is known").until(() -> get("/local/data.bin", null), x -> x.statusCode() == 302);
        get("/local/data.bin", null); // the listing is cached now: the door needs no ZooKeeper for it
        int zkPort = ((EmbeddedZooKeeper) closeables.get(0)).port();
        closeables.get(0).close(); // the whole "ensemble"
        long stopped = System.nanoTime();
        HttpResponse<String> during = get("/local/data.bin", null);
        assertEquals(302, during.statusCode(), "within the grace: " + during.body());
        HttpResponse<String> after = await().atMost(WAIT).alias("a 503 after the grace").until(() -> get("/local/data.bin", null), x -> x.statusCode() == 503);
        assertTrue(System.nanoTime() - stopped >= Duration.ofSeconds(3).toNanos(), "not before the grace");
        assertTrue(after.body().contains("ZooKeeper unreachable"), after.body());

        closeables.set(0, EmbeddedZooKeeper.start(tmp.resolve("zk"), "127.0.0.1", zkPort)); // back, with its data
        await().atMost(WAIT).alias("a redirect once ZooKeeper is back").until(() -> get("/local/data.bin", null), x -> x.statusCode() == 302);
    }

    @Test
    void withNoPoolAReadIs503() throws Exception {
        HttpResponse<String> r = get("/local/data.bin", null);
        assertEquals(503, r.statusCode());
        assertEquals("no pool available", r.body().strip());
    }

    @Test
    void aMissingFileIs404() throws Exception {
        register("p1", 0, "http://127.0.0.1:9");
        assertEquals(404, get("/local/nope.bin", null).statusCode());
        assertEquals(404, get("/nope.txt", null).statusCode());
    }

    @Test
    void headIsAnsweredByTheDoorFromTheOriginsMetadata() throws Exception {
        HttpResponse<Void> r = http.send(HttpRequest.newBuilder(uri("/local/data.bin")).method("HEAD", HttpRequest.BodyPublishers.noBody()).build(),
                HttpResponse.BodyHandlers.discarding());
        assertEquals(200, r.statusCode());
        assertEquals(String.valueOf(data.length), r.headers().firstValue("Content-Length").orElseThrow());
        assertEquals("bytes", r.headers().firstValue("Accept-Ranges").orElseThrow());
        assertTrue(r.headers().firstValue("ETag").isPresent());
        assertTrue(r.headers().firstValue("Last-Modified").isPresent());
    }

    @Test
    void clientsThatCannotFollowRedirectsAreServedThroughTheDoorRangesIncluded() throws Exception {
        FakePool pool = pool("p1");
        pool.files.put("/local/data.bin", data);
        HttpResponse<byte[]> whole = await().atMost(WAIT).alias("the proxied read").until(() -> getBytes("/local/data.bin", "cadaver/0.24 neon/0.32", null), x -> x.statusCode() == 200);
        assertArrayEquals(data, whole.body());
        assertEquals("gridcache; hit", whole.headers().firstValue("Cache-Status").orElse(""), "the pool's, relayed");

        HttpResponse<byte[]> part = getBytes("/local/data.bin", "cadaver/0.24", "bytes=100-199");
        assertEquals(206, part.statusCode());
        assertEquals("bytes 100-199/" + data.length, part.headers().firstValue("Content-Range").orElseThrow());
        assertArrayEquals(java.util.Arrays.copyOfRange(data, 100, 200), part.body());

        assertEquals(416, getBytes("/local/data.bin", "cadaver/0.24", "bytes=999999-").statusCode());
        assertEquals(302, getBytes("/local/data.bin", "curl/8", null).statusCode(), "others are still redirected");
    }

    @Test
    void everyReadGoesThroughTheDoorWhenRedirectOnReadIsOff() throws Exception {
        FakePool pool = pool("p1");
        pool.files.put("/local/data.bin", data);
        await().atMost(WAIT).alias("a redirect once the pool is known").until(() -> getBytes("/local/data.bin", "curl/8", null), x -> x.statusCode() == 302);
        ClusterConfig.set(zk, Keys.REDIRECT_ON_READ.key(), "false");
        HttpResponse<byte[]> r = await().atMost(WAIT).alias("the door to apply redirect.on-read=false").until(() -> getBytes("/local/data.bin", "curl/8", null), x -> x.statusCode() != 302);
        assertEquals(200, r.statusCode());
        assertArrayEquals(data, r.body());
    }

    @Test
    void proxiedReadsBeyondTheLimitAre503WithRetryAfter() throws Exception {
        FakePool pool = pool("p1");
        pool.files.put("/local/data.bin", data);
        ClusterConfig.set(zk, Keys.PROXY_MAX_TRANSFERS.key(), "0");
        HttpResponse<byte[]> none = await().atMost(WAIT).alias("the door to apply a limit of 0")
                .until(() -> getBytes("/local/data.bin", "cadaver/0.24", null), x -> x.statusCode() == 503);
        assertEquals(PoolProxy.RETRY_AFTER_SECONDS, none.headers().firstValue("Retry-After").orElseThrow());
        assertTrue(new String(none.body(), StandardCharsets.UTF_8).contains("door.proxy-max-transfers"));
        assertEquals(302, getBytes("/local/data.bin", "curl/8", null).statusCode(), "redirects are not limited");
        ClusterConfig.set(zk, Keys.PROXY_MAX_TRANSFERS.key(), "1");
        await().atMost(WAIT).alias("the door to apply a limit of 1")
                .until(() -> getBytes("/local/data.bin", "cadaver/0.24", null), x -> x.statusCode() == 200);

        CountDownLatch hold = new CountDownLatch(1);
        pool.holdMidBody = hold;
        // the read just awaited gives its turn back in a finally, which may run after its client saw the last byte:
        // until then this one is 503 (refused before it reaches the pool), so it is sent again until it streams
        HttpResponse<InputStream> first = await().atMost(WAIT).alias("the first to stream, the last read's turn given back")
                .until(() -> {
                    HttpResponse<InputStream> r = http.sendAsync(HttpRequest.newBuilder(uri("/local/data.bin")).GET()
                            .header("User-Agent", "cadaver/0.24").build(), HttpResponse.BodyHandlers.ofInputStream())
                            .get(30, TimeUnit.SECONDS);
                    if (r.statusCode() != 200) {
                        r.body().close();
                    }
                    return r;
                }, r -> r.statusCode() == 200);
        assertEquals(200, first.statusCode(), "the first streams, held half-way by the pool");
        HttpResponse<byte[]> second = getBytes("/local/data.bin", "cadaver/0.24", null);
        assertEquals(503, second.statusCode());
        assertEquals(PoolProxy.RETRY_AFTER_SECONDS, second.headers().firstValue("Retry-After").orElseThrow());
        hold.countDown();
        try (InputStream body = first.body()) {
            assertArrayEquals(data, body.readAllBytes(), "the first completes");
        }
        pool.holdMidBody = null;
        // the door gives the turn back once its handler returns, which may be just after the client saw the last byte
        await().atMost(WAIT).alias("its turn given back")
                .until(() -> getBytes("/local/data.bin", "cadaver/0.24", null), x -> x.statusCode() == 200);
    }

    @Test
    void poolBreakingMidBodyAbortsTheClient() throws Exception {
        FakePool pool = pool("p1");
        pool.files.put("/local/data.bin", data);
        await().atMost(WAIT).alias("the proxied read").until(() -> getBytes("/local/data.bin", "cadaver/0.24", null), x -> x.statusCode() == 200);
        pool.breakMidBody = true;
        assertThrows(IOException.class, () -> getBytes("/local/data.bin", "cadaver/0.24", null));
    }

    @Test
    void poolUnreachableInProxyModeIs502() throws Exception {
        register("gone", 0, "http://127.0.0.1:" + closedPort());
        HttpResponse<byte[]> r = await().atMost(WAIT).alias("an answer once the pool is known").until(() -> getBytes("/local/data.bin", "cadaver/0.24", null), x -> x.statusCode() != 503);
        assertEquals(502, r.statusCode());
    }

    // --- the door's own paths, methods, bad input ---

    @Test
    void doorServicesNeverReachTheOrigin() throws Exception {
        int before = dav.requests.get();
        HttpResponse<String> r = get("/.gridcache/x", null);
        assertEquals(404, r.statusCode());
        assertTrue(r.body().contains("no such door service"), r.body());
        assertEquals(404, propfind("/.gridcache/", "1").statusCode());
        HttpResponse<String> health = get("/.gridcache/health", null);
        assertEquals(200, health.statusCode());
        assertEquals("ok", health.body().strip());
        assertEquals(before, dav.requests.get());
    }

    @Test
    void badPathsAre400() throws Exception {
        assertEquals(400, rawStatus("GET /local/../../etc/passwd HTTP/1.1"));
        assertEquals(400, rawStatus("GET /local/%zz HTTP/1.1"));
        assertEquals(400, rawStatus("GET /local/a%00b HTTP/1.1"));
        assertEquals(400, rawStatus("PROPFIND /local/%2e%2e/x HTTP/1.1"));
    }

    @Test
    void writesReachTheOriginBadBodiesAre400AndOptionsIsClass2() throws Exception {
        HttpResponse<String> put = http.send(HttpRequest.newBuilder(uri("/local/new.txt"))
                .PUT(HttpRequest.BodyPublishers.ofString("x")).build(), HttpResponse.BodyHandlers.ofString());
        assertEquals(201, put.statusCode(), put.body());
        assertEquals("x", Files.readString(files.resolve("new.txt")));
        // PROPPATCH, LOCK and UNLOCK are answered (DoorPropertiesTest, DoorLockTest): a body that is no propertyupdate or
        // lockinfo, an UNLOCK without Lock-Token, are 400
        for (String method : List.of("PROPPATCH", "LOCK", "UNLOCK")) {
            HttpResponse<String> r = http.send(HttpRequest.newBuilder(uri("/local/data.bin"))
                    .method(method, HttpRequest.BodyPublishers.ofString("x")).build(), HttpResponse.BodyHandlers.ofString());
            assertEquals(400, r.statusCode(), method);
            assertEquals("close", r.headers().firstValue("Connection").orElse(""), "its body unread, the connection is not reused");
        }
        HttpResponse<String> options = http.send(HttpRequest.newBuilder(uri("/local/"))
                .method("OPTIONS", HttpRequest.BodyPublishers.noBody()).build(), HttpResponse.BodyHandlers.ofString());
        assertEquals(200, options.statusCode());
        assertEquals("1, 2", options.headers().firstValue("DAV").orElseThrow());
        assertTrue(options.headers().firstValue("Allow").orElseThrow().contains("PROPFIND"));
        assertTrue(options.headers().firstValue("Allow").orElseThrow().contains("PUT"));
    }

    @Test
    void theDoorRegistersItsUrlInZooKeeper() throws Exception {
        byte[] json = zk.getData().forPath(ZkLayout.door("door1"));
        DoorRecord record = Json.read(json, DoorRecord.class);
        assertEquals(door.url(), record.url());
        // its ticket key's public half, for pools to verify with; never the private part
        assertEquals(1, record.ticketKeys().size());
        assertEquals(key.kid(), record.ticketKeys().get(0).get("kid"));
        assertFalse(record.ticketKeys().get(0).containsKey("d"));
        assertEquals("http://127.0.0.1:" + door.port(), door.url());
    }

    // --- helpers ---

    private URI uri(String rawPath) {
        return URI.create(door.url() + rawPath);
    }

    private HttpResponse<String> propfind(String path, String depth) throws Exception {
        HttpRequest request = HttpRequest.newBuilder(uri(path)).header("Depth", depth)
                .method("PROPFIND", HttpRequest.BodyPublishers.noBody()).build();
        return http.send(request, HttpResponse.BodyHandlers.ofString());
    }

    private HttpResponse<String> get(String path, String agent) throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(uri(path)).GET();
        if (agent != null) {
            b.header("User-Agent", agent);
        }
        return http.send(b.build(), HttpResponse.BodyHandlers.ofString());
    }

    private HttpResponse<byte[]> getBytes(String path, String agent, String range) throws IOException, InterruptedException {
        HttpRequest.Builder b = HttpRequest.newBuilder(uri(path)).GET().header("User-Agent", agent);
        if (range != null) {
            b.header("Range", range);
        }
        return http.send(b.build(), HttpResponse.BodyHandlers.ofByteArray());
    }

    private void register(String id, double load, String url) throws Exception {
        PoolRecord record = new PoolRecord(id, url, "default", 1L << 30, 1L << 29, 0, 0, load, "test", 0);
        EphemeralRegistration reg = new EphemeralRegistration(zk, ZkLayout.pool(id), () -> Json.bytes(record), Duration.ofHours(1));
        closeables.add(reg);
        reg.awaitCreated(WAIT);
    }

    private FakePool pool(String id) throws Exception {
        FakePool pool = new FakePool(id, key);
        closeables.add(pool);
        register(id, 0, pool.url());
        return pool;
    }

    private int rawStatus(String requestLine) throws IOException {
        try (Socket socket = new Socket("127.0.0.1", door.port())) {
            socket.setSoTimeout(10_000);
            OutputStream out = socket.getOutputStream();
            out.write((requestLine + "\r\nHost: localhost\r\nDepth: 1\r\nConnection: close\r\n\r\n").getBytes(StandardCharsets.ISO_8859_1));
            out.flush();
            InputStream in = socket.getInputStream();
            String response = new String(in.readAllBytes(), StandardCharsets.ISO_8859_1);
            return Integer.parseInt(response.substring(9, 12));
        }
    }

    private static int closedPort() throws IOException {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        }
    }
}
