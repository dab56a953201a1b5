package org.gridcache.pool;

import static org.awaitility.Awaitility.await;
import org.gridcache.common.settings.ClusterSettings.Keys;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import org.gridcache.common.settings.ClusterSettings;
import org.gridcache.common.Json;
import org.gridcache.common.cluster.PoolRecord;
import org.gridcache.common.ticket.Ticket;
import org.gridcache.common.ticket.TicketSigningKey;
import org.gridcache.common.UrlCodec;
import org.gridcache.pool.peer.Peers;
import org.gridcache.pool.store.StoreKey;
import org.gridcache.zk.ClusterConfig;
import org.gridcache.zk.EphemeralRegistration;
import org.gridcache.zk.layout.ZkLayout;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** Cooperating pools: peer questions, pulls from peers, the seed design's redirects, and every way a peer fails. */
class PoolPeersTest extends PoolTestSupport {
    private final List<AutoCloseable> extra = new ArrayList<>();
    private Pool second;

    @AfterEach
    void stopExtra() throws Exception {
        for (int i = extra.size() - 1; i >= 0; i--) {
            extra.get(i).close();
        }
        ClusterConfig.unset(zk, Keys.PEER_TIMEOUT.key());
    }

    /** The pool under test ({@code pool}) is the one ranked above; {@code second} misses and asks it. */
    private void startTwo() throws Exception {
        startPool(1 << 30);
        second = Pool.start(new PoolSettings(poolName + "-b", "127.0.0.1", 0, null, dir.resolve("store-b"), 1 << 30, "test",
                TicketSigningKey.generate()), zk);
        extra.add(second);
        mountWatchers.add(second);
        await().atMost(WAIT).alias(poolName + " in the pool directory").until(() -> sees(second, poolName));
    }

    private static boolean sees(Pool by, String id) {
        return by.poolsSeen().stream().anyMatch(p -> p.id().equals(id));
    }

    private String ticketFor(Pool target, String path, byte[] data, List<String> peers) {
        String name = target == pool ? poolName : poolName + "-b";
        mount(path, origin.url(path));
        return tickets.sign(new Ticket(path, name, Ticket.READ, Instant.now().getEpochSecond() + 120, "/CN=test", DOOR,
                null, data.length, -1).withPeers(peers));
    }

    private static URI at(Pool target, String path, String token) {
        return URI.create(target.url() + UrlCodec.encodePath(path) + "?" + Ticket.QUERY_PARAMETER + "=" + token);
    }

    private HttpResponse<byte[]> getFrom(Pool target, String path, byte[] data, List<String> peers) throws Exception {
        return http.send(HttpRequest.newBuilder(at(target, path, ticketFor(target, path, data, peers))).timeout(Duration.ofSeconds(60)).build(),
                HttpResponse.BodyHandlers.ofByteArray());
    }

    private HttpResponse<Void> askIfCached(Pool target, String path, byte[] data) throws Exception {
        return http.send(HttpRequest.newBuilder(at(target, path, ticketFor(target, path, data, List.of())))
                .method("HEAD", HttpRequest.BodyPublishers.noBody()).header(Peers.ONLY_IF_CACHED, "1").build(),
                HttpResponse.BodyHandlers.discarding());
    }

    private void register(String id, String url) throws Exception {
        PoolRecord record = new PoolRecord(id, url, "test", 1L << 30, 1L << 30, 0, 0, 0, "test", 0);
        EphemeralRegistration reg = new EphemeralRegistration(zk, ZkLayout.pool(id), () -> Json.bytes(record), Duration.ofHours(1));
        extra.add(reg);
        reg.awaitCreated(Duration.ofSeconds(20));
    }

    @Test
    void theQuestionOfAPeerNeverStartsAFetch() throws Exception {
        startPool(1 << 30);
        byte[] data = randomBytes(100_000, 1);
        origin.serve("/q", data);
        assertEquals(404, askIfCached(pool, "/q", data).statusCode());
        assertEquals(0, origin.gets("/q"), "a HEAD with " + Peers.ONLY_IF_CACHED + " must not fetch");
        assertEquals(200, fetch("/q", data).statusCode());
        HttpResponse<Void> held = askIfCached(pool, "/q", data);
        assertEquals(200, held.statusCode());
        assertEquals("HIT", cache(held));
    }

    @Test
    void aMissIsPulledFromThePeerRankedAboveNotFromTheOrigin() throws Exception {
        startTwo();
        byte[] data = randomBytes(3 * 1024 * 1024 + 7, 2);
        origin.serve("/f", data);
        assertEquals(200, fetch("/f", data).statusCode());
        assertEquals(1, origin.gets("/f"));

        HttpResponse<byte[]> pulled = getFrom(second, "/f", data, List.of(poolName));
        assertEquals(200, pulled.statusCode());
        assertEquals(sha256(data), sha256(pulled.body()));
        assertEquals("MISS", cache(pulled), "a miss on the second pool");
        assertEquals("gridcache; fwd=uri-miss; stored; detail=peer", cacheStatus(pulled));
        assertEquals(1, origin.gets("/f"), "served by the peer, not the origin");
        await().atMost(WAIT).alias("the pulled copy to be committed").until(() -> second.store().contains(StoreKey.ofOrigin(origin.url("/f"))));
        assertEquals("HIT", cache(getFrom(second, "/f", data, List.of(poolName))));
        assertEquals(data.length, second.store().counters().peerBytes(), "counted as peer bytes (JMX PeerBytes, gridcache_pool_peer_bytes)");
        assertEquals(0, second.store().counters().originBytes());
        assertEquals(data.length, pool.store().counters().originBytes());
    }

    @Test
    void aBurstOnTwoPoolsReachesTheOriginOnce() throws Exception {
        startTwo();
        byte[] data = randomBytes(4 * 1024 * 1024 + 1, 3);
        CountDownLatch gate = new CountDownLatch(1);
        origin.serveGated("/burst", data, 64 * 1024, gate);
        List<CompletableFuture<HttpResponse<byte[]>>> clients = new CopyOnWriteArrayList<>();
        String owner = ticketFor(pool, "/burst", data, List.of());
        for (int i = 0; i < 10; i++) {
            clients.add(http.sendAsync(HttpRequest.newBuilder(at(pool, "/burst", owner)).build(), HttpResponse.BodyHandlers.ofByteArray()));
        }
        await().atMost(WAIT).alias("the owner's fetch from the origin").until(() -> origin.gets("/burst") == 1);
        String spilled = ticketFor(second, "/burst", data, List.of(poolName));
        for (int i = 0; i < 10; i++) {
            clients.add(http.sendAsync(HttpRequest.newBuilder(at(second, "/burst", spilled)).build(), HttpResponse.BodyHandlers.ofByteArray()));
        }
        await().atMost(WAIT).alias("10 clients on the second pool").until(() -> second.activeMovers() == 10);
        await().atMost(WAIT).alias("the second pool's pull on the owner").until(() -> pool.activeMovers() == 11);
        gate.countDown();
        for (CompletableFuture<HttpResponse<byte[]>> c : clients) {
            HttpResponse<byte[]> r = c.join();
            assertEquals(200, r.statusCode());
            assertEquals(sha256(data), sha256(r.body()));
        }
        assertEquals(1, origin.gets("/burst"), "one origin GET for both pools");
    }

    @Test
    void whenNoPeerHoldsItTheMissIsPulledThroughTheOwnerWhichFetchesItOnce() throws Exception {
        startTwo();
        byte[] data = randomBytes(1024 * 1024 + 3, 9);
        origin.serve("/o", data);
        HttpResponse<byte[]> r = getFrom(second, "/o", data, List.of(poolName));
        assertEquals(200, r.statusCode());
        assertEquals(sha256(data), sha256(r.body()));
        assertEquals(1, origin.gets("/o"));
        await().atMost(WAIT).alias("the owner to hold it too").until(() -> pool.store().contains(StoreKey.ofOrigin(origin.url("/o"))));
    }

    @Test
    void aDeadPeerMeansTheOrigin() throws Exception {
        startPool(1 << 30);
        int closed;
        try (ServerSocket s = new ServerSocket(0)) {
            closed = s.getLocalPort();
        }
        register("ghost", "http://127.0.0.1:" + closed);
        await().atMost(WAIT).alias("ghost" + " in the pool directory").until(() -> sees(pool, "ghost"));
        byte[] data = randomBytes(200_000, 4);
        origin.serve("/d", data);
        HttpResponse<byte[]> r = getFrom(pool, "/d", data, List.of("ghost", "never-registered"));
        assertEquals(200, r.statusCode());
        assertEquals(sha256(data), sha256(r.body()));
        assertEquals(1, origin.gets("/d"));
    }

    @Test
    void aSilentPeerIsGivenUpAfterThePeerTimeout() throws Exception {
        ClusterConfig.set(zk, Keys.PEER_TIMEOUT.key(), "700ms");
        startPool(1 << 30);
        await().atMost(WAIT).alias("the pool to read the peer timeout").until(() -> pool.settings().get(Keys.PEER_TIMEOUT).equals(Duration.ofMillis(700)));
        ServerSocket silent = new ServerSocket(0); // accepts, never answers
        extra.add(silent);
        List<Socket> accepted = new CopyOnWriteArrayList<>();
        Thread acceptor = new Thread(() -> {
            try {
                while (true) {
                    accepted.add(silent.accept());
                }
            } catch (Exception e) {
                // closed
            }
        });
        acceptor.setDaemon(true);
        acceptor.start();
        register("silent", "http://127.0.0.1:" + silent.getLocalPort());
        await().atMost(WAIT).alias("silent" + " in the pool directory").until(() -> sees(pool, "silent"));
        byte[] data = randomBytes(200_000, 5);
        origin.serve("/s", data);
        long start = System.nanoTime();
        HttpResponse<byte[]> r = getFrom(pool, "/s", data, List.of("silent"));
        long millis = (System.nanoTime() - start) / 1_000_000;
        assertEquals(200, r.statusCode());
        assertEquals(sha256(data), sha256(r.body()));
        assertEquals(1, origin.gets("/s"));
        assertTrue(millis >= 650 && millis < 10_000, "waited for the peer timeout, then went to the origin: " + millis + " ms");
        assertTrue(!accepted.isEmpty(), "the peer was asked");
        for (Socket s : accepted) {
            s.close();
        }
    }

    @Test
    void theSeedDesignRedirectsTheClientToAPeerThatHoldsTheFile() throws Exception {
        startTwo();
        byte[] data = randomBytes(500_000, 6);
        origin.serve("/r", data);
        assertEquals(200, fetch("/r", data).statusCode());

        HttpResponse<byte[]> redirect = getFrom(second, "/r", data, List.of(Ticket.ALL_PEERS));
        assertEquals(302, redirect.statusCode());
        String location = redirect.headers().firstValue("Location").orElseThrow();
        assertTrue(location.startsWith(pool.url() + "/r?"), location);
        HttpResponse<byte[]> followed = http.send(HttpRequest.newBuilder(URI.create(location)).build(), HttpResponse.BodyHandlers.ofByteArray());
        assertEquals(200, followed.statusCode(), "the pool-signed ticket is good at the peer");
        assertEquals("HIT", cache(followed));
        assertEquals(sha256(data), sha256(followed.body()));
        assertEquals(1, origin.gets("/r"));

        byte[] other = randomBytes(100_000, 7);
        origin.serve("/nobody", other);
        HttpResponse<byte[]> self = getFrom(second, "/nobody", other, List.of(Ticket.ALL_PEERS));
        assertEquals(200, self.statusCode(), "no peer holds it: fetched here");
        assertEquals(sha256(other), sha256(self.body()));
        assertEquals(1, origin.gets("/nobody"));
    }
}
