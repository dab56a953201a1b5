package org.gridcache.pool;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.curator.framework.CuratorFramework;
import org.awaitility.Awaitility;
import org.gridcache.common.ticket.Ticket;
import org.gridcache.common.origin.FileOriginRoots;
import org.gridcache.common.Json;
import org.gridcache.common.origin.OriginEntry;
import org.gridcache.common.ticket.TicketCodec;
import org.gridcache.common.ticket.TicketSigningKey;
import org.gridcache.common.UrlCodec;
import org.gridcache.pool.store.StoreKey;
import org.gridcache.zk.EmbeddedZooKeeper;
import org.gridcache.zk.MountTable;
import org.gridcache.zk.Zk;
import org.gridcache.zk.layout.ZkLayout;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** A real ZooKeeper per test class, a real pool and a test origin per test, and helpers to sign and send. */
@Timeout(120)
abstract class PoolTestSupport {
    private static final AtomicInteger POOLS = new AtomicInteger();
    /** How long a test waits for state that propagates asynchronously (ZooKeeper, a fetch committing). */
    static final Duration WAIT = Duration.ofSeconds(30);
    /** The key of the door that issues the tests' tickets ({@value #DOOR}), published as a door publishes it. */
    static final TicketSigningKey DOOR_KEY = TicketSigningKey.generate();
    static final String DOOR = "door1";
    static EmbeddedZooKeeper zookeeper;
    static CuratorFramework zk;

    @TempDir
    Path dir;
    TestOrigin origin;
    Pool pool;
    /** The directories the next pool started reads {@code file://} origins from (its {@code --file-origin-root}). */
    FileOriginRoots fileOriginRoots = FileOriginRoots.NONE;
    String poolName;
    final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(10)).build();
    final TicketCodec tickets = TicketCodec.of(DOOR, DOOR_KEY, List.of(DOOR_KEY));
    /** Pools besides {@link #pool} that must see the mounts the tests' tickets need. */
    final List<Pool> mountWatchers = new ArrayList<>();

    @BeforeAll
    static void startZooKeeper(@TempDir Path zkDir) throws Exception {
        zookeeper = EmbeddedZooKeeper.start(zkDir, "127.0.0.1", 0);
        zk = Zk.connect(zookeeper.connectString());
        zk.create().creatingParentsIfNeeded().forPath(ZkLayout.door(DOOR),
                Json.bytes(Map.of("id", DOOR, "ticketKeys", List.of(DOOR_KEY.publicJwk()))));
        // the conditions turn true within milliseconds; Awaitility's default 100 ms first poll would slow every test
        Awaitility.setDefaultPollDelay(Duration.ZERO);
        Awaitility.setDefaultPollInterval(Duration.ofMillis(10));
    }

    @AfterAll
    static void stopZooKeeper() {
        zk.close();
        zookeeper.close();
    }

    @BeforeEach
    void startOrigin() throws IOException {
        origin = new TestOrigin();
    }

    @AfterEach
    void stop() throws IOException {
        if (pool != null) {
            pool.close();
        }
        origin.close();
    }

    Pool startPool(long capacity) throws Exception {
        return startPool(capacity, dir.resolve("store"));
    }

    Pool startPool(long capacity, Path store) throws Exception {
        if (poolName == null) {
            poolName = "pool" + POOLS.incrementAndGet();
        }
        pool = Pool.start(new PoolSettings(poolName, "127.0.0.1", 0, null, store, capacity, "test", TicketSigningKey.generate())
                .withFileOriginRoots(fileOriginRoots), zk);
        return pool;
    }

    String ticket(String path, String originUrl, long size) {
        return ticket(path, poolName, originUrl, size, Instant.now().getEpochSecond() + 120);
    }

    String ticket(String path, String forPool, String originUrl, long size, long expiresAt) {
        mount(path, originUrl);
        return signedTicket(path, forPool, size, expiresAt);
    }

    /** A door's ticket for {@code path}, whatever the mount table holds for it. */
    String signedTicket(String path, String forPool, long size, long expiresAt) {
        return tickets.sign(new Ticket(path, forPool, Ticket.READ, expiresAt, "/CN=test", DOOR, null, size, -1));
    }

    /**
     * Mounts the origin directory of {@code originUrl} at the parent of {@code path}, as an operator would, and waits
     * until the pools resolve {@code path} to {@code originUrl}: a ticket names no origin, the pool finds it by path.
     */
    void mount(String path, String originUrl) {
        String prefix = path.substring(0, Math.max(1, path.lastIndexOf('/')));
        OriginEntry entry = OriginEntry.of("m" + Integer.toHexString(prefix.hashCode()), prefix,
                originUrl.substring(0, originUrl.lastIndexOf('/')), "none");
        assertEquals(originUrl, entry.urlOf(path), "a test ticket's origin must be what the mount table gives for its path");
        try {
            MountTable.put(zk, entry);
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
        List<Pool> watching = new ArrayList<>(mountWatchers);
        if (pool != null) {
            watching.add(pool);
        }
        for (Pool p : watching) {
            await().atMost(WAIT).alias("the mount of " + path).until(
                    () -> p.mounts().resolve(path).map(e -> e.urlOf(path)).filter(originUrl::equals).isPresent());
        }
    }

    /** Waits for {@code latch}: a task that holds up a pool's thread until the test lets it go. */
    static void awaitQuietly(java.util.concurrent.CountDownLatch latch) {
        try {
            latch.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    URI uri(String path, String token) {
        return URI.create(pool.url() + UrlCodec.encodePath(path) + (token == null ? "" : "?" + Ticket.QUERY_PARAMETER + "=" + token));
    }

    HttpResponse<byte[]> get(String path, String token, String... headers) throws IOException, InterruptedException {
        HttpRequest.Builder b = HttpRequest.newBuilder(uri(path, token)).timeout(Duration.ofSeconds(60));
        if (headers.length > 0) {
            b.headers(headers);
        }
        return http.send(b.build(), HttpResponse.BodyHandlers.ofByteArray());
    }

    /**
     * GET of a file served by the test origin at the same path, with a ticket of the right size. After a complete
     * miss, waits until the fetch is committed: a client has all bytes slightly before the file becomes a hit
     * (fsync, rename), and a request in between would join the fetch and be served as a MISS.
     */
    HttpResponse<byte[]> fetch(String path, byte[] expected, String... headers) throws IOException, InterruptedException {
        HttpResponse<byte[]> r = get(path, ticket(path, origin.url(path), expected.length), headers);
        if (r.statusCode() == 200 && cache(r).equals("MISS")) {
            StoreKey key = StoreKey.ofOrigin(origin.url(path));
            await().atMost(WAIT).alias("the fetch of " + path + " to be committed").until(() -> pool.store().contains(key));
        }
        return r;
    }

    /** Waits until the file the test origin serves at {@code path} is a complete copy in the store. */
    void awaitCommitted(String path) throws InterruptedException {
        StoreKey key = StoreKey.ofOrigin(origin.url(path));
        await().atMost(WAIT).alias("the fetch of " + path + " to be committed").until(() -> pool.store().contains(key));
    }

    static byte[] randomBytes(int n, long seed) {
        byte[] b = new byte[n];
        new Random(seed).nextBytes(b);
        return b;
    }

    static String sha256(byte[] data) throws Exception {
        return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(data));
    }

    static String body(HttpResponse<byte[]> response) {
        return new String(response.body(), StandardCharsets.UTF_8);
    }

    static String cache(HttpResponse<?> response) {
        return response.headers().firstValue("X-Cache").orElse("");
    }

    /** RFC 9211's Cache-Status of the pool's answer. */
    static String cacheStatus(HttpResponse<?> response) {
        return response.headers().firstValue("Cache-Status").orElse("");
    }

    static long filesUnder(Path root, String suffix) throws IOException {
        try (var walk = Files.walk(root)) {
            return walk.filter(p -> p.getFileName().toString().endsWith(suffix)).count();
        }
    }
}
