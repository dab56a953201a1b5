package org.gridcache.zk;

import org.gridcache.zk.layout.ZkLayout;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.curator.framework.CuratorFramework;
import org.apache.zookeeper.CreateMode;
import org.gridcache.common.Json;
import org.gridcache.common.cluster.PoolRecord;
import org.gridcache.common.ticket.Ticket;
import org.gridcache.common.ticket.TicketCodec;
import org.gridcache.common.ticket.TicketException;
import org.gridcache.common.ticket.TicketKeys;
import org.gridcache.common.ticket.TicketSigningKey;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.slf4j.LoggerFactory;

/** The ticket keys pools verify with, as doors and pools publish them in ZooKeeper: roll-over and retirement. */
class PublishedTicketKeysTest {
    private static final Duration WAIT = Duration.ofSeconds(10);
    @RegisterExtension
    final ZooKeeperServer zooKeeper = new ZooKeeperServer();

    private static String sign(TicketSigningKey key, String issuer) {
        long now = Instant.now().getEpochSecond();
        return new TicketCodec(key, TicketKeys.of(issuer, List.of(key)), TicketCodec.DEFAULT_MAX_LIFETIME, Clock.systemUTC())
                .sign(new Ticket("/f", "p1", Ticket.READ, now, now + 60, "anonymous", issuer, null, 1, 1, null, List.of(),
                        null, null, List.of()));
    }

    private static byte[] doorRecord(TicketSigningKey... keys) {
        return Json.bytes(Map.of("id", "door1", "url", "http://door", "ticketKeys",
                java.util.Arrays.stream(keys).map(TicketSigningKey::publicJwk).toList()));
    }

    private static boolean verifies(TicketCodec codec, String token) {
        try {
            codec.verify(token);
            return true;
        } catch (TicketException e) {
            return false;
        }
    }

    @Test
    void thePreviousKeyVerifiesWhilePublishedAndNotAfter() throws Exception {
        CuratorFramework client = zooKeeper.client();
        TicketSigningKey previous = TicketSigningKey.generate();
        TicketSigningKey current = TicketSigningKey.generate();
        client.create().creatingParentsIfNeeded().withMode(CreateMode.EPHEMERAL).forPath(ZkLayout.door("door1"),
                doorRecord(current, previous));
        try (PoolDirectory pools = new PoolDirectory(client).start(WAIT);
             PublishedTicketKeys keys = new PublishedTicketKeys(client, pools).start(WAIT)) {
            TicketCodec pool = new TicketCodec(null, keys, TicketCodec.DEFAULT_MAX_LIFETIME, Clock.systemUTC());
            String old = sign(previous, "door1");
            String fresh = sign(current, "door1");
            assertTrue(verifies(pool, old) && verifies(pool, fresh), "both keys published: both verify");
            assertTrue(!verifies(pool, sign(current, "door2")), "a key counts for the door whose znode holds it");

            client.setData().forPath(ZkLayout.door("door1"), doorRecord(current)); // the roll-over is over
            await().atMost(WAIT).until(() -> !verifies(pool, old));
            assertTrue(verifies(pool, fresh));
            TicketException e = assertThrows(TicketException.class, () -> pool.verify(old));
            assertTrue(e.getMessage().contains("unknown or retired key"), e.getMessage());

        }
    }

    @Test
    void aVanishedDoorRecordsKeysVerifyForTheLingerOnlyAndARecordCreatedAgainKeepsThemGoing() throws Exception {
        Logger log = (Logger) LoggerFactory.getLogger(PublishedTicketKeys.class);
        ListAppender<ILoggingEvent> appender = new ListAppender<>();
        appender.start();
        log.addAppender(appender);
        java.util.concurrent.atomic.AtomicLong millis = new java.util.concurrent.atomic.AtomicLong(1_000_000);
        Clock clock = new Clock() {
            @Override
            public java.time.ZoneId getZone() {
                return java.time.ZoneOffset.UTC;
            }

            @Override
            public Clock withZone(java.time.ZoneId zone) {
                return this;
            }

            @Override
            public Instant instant() {
                return Instant.ofEpochMilli(millis.get());
            }
        };
        CuratorFramework client = zooKeeper.client();
        TicketSigningKey key = TicketSigningKey.generate();
        client.create().creatingParentsIfNeeded().withMode(CreateMode.EPHEMERAL).forPath(ZkLayout.door("door1"), doorRecord(key));
        try (PoolDirectory pools = new PoolDirectory(client).start(WAIT);
             PublishedTicketKeys keys = new PublishedTicketKeys(client, pools, clock, Duration.ofSeconds(30)).start(WAIT)) {
            TicketCodec pool = new TicketCodec(null, keys, TicketCodec.DEFAULT_MAX_LIFETIME, Clock.systemUTC());
            String ticket = sign(key, "door1");
            assertTrue(verifies(pool, ticket));

            // the old session's record expires; the door's new session creates it again a moment later
            client.delete().forPath(ZkLayout.door("door1"));
            await().atMost(WAIT).until(() -> appender.list.stream().anyMatch(e -> e.getFormattedMessage().contains("door door1 is gone")));
            assertTrue(verifies(pool, ticket), "in between, the live door's tickets still verify");
            client.create().withMode(CreateMode.EPHEMERAL).forPath(ZkLayout.door("door1"), doorRecord(key));
            millis.addAndGet(Duration.ofMinutes(5).toMillis());
            await().atMost(WAIT).until(() -> verifies(pool, ticket)); // published again: no linger involved

            // the door is gone for good: so are its keys, once the linger is over
            appender.list.clear();
            client.delete().forPath(ZkLayout.door("door1"));
            await().atMost(WAIT).until(() -> appender.list.stream().anyMatch(e -> e.getFormattedMessage().contains("door door1 is gone")));
            millis.addAndGet(Duration.ofSeconds(29).toMillis());
            assertTrue(verifies(pool, ticket), "within the linger");
            millis.addAndGet(Duration.ofSeconds(2).toMillis());
            TicketException e = assertThrows(TicketException.class, () -> pool.verify(ticket));
            assertTrue(e.getMessage().contains("unknown or retired key"), e.getMessage());
        } finally {
            log.detachAppender(appender);
        }
    }

    @Test
    void aPoolsKeyVerifiesOnlyThatPoolsTicketsAndABadKeyIsIgnored() throws Exception {
        CuratorFramework client = zooKeeper.client();
        TicketSigningKey poolKey = TicketSigningKey.generate();
        PoolRecord record = new PoolRecord("p2", "http://p2", "default", 1, 1, 0, 0, 0, "test", 0, PoolRecord.ENABLED, 0, 0,
                null, poolKey.publicJwk());
        client.create().creatingParentsIfNeeded().withMode(CreateMode.EPHEMERAL).forPath(ZkLayout.pool("p2"), Json.bytes(record));
        // a door record whose key claims another key's id: ignored with a log line
        Map<String, Object> forged = new java.util.HashMap<>(TicketSigningKey.generate().publicJwk());
        forged.put("kid", poolKey.kid());
        client.create().creatingParentsIfNeeded().withMode(CreateMode.EPHEMERAL).forPath(ZkLayout.door("door1"),
                Json.bytes(Map.of("id", "door1", "ticketKeys", List.of(forged))));
        try (PoolDirectory pools = new PoolDirectory(client).start(WAIT);
             PublishedTicketKeys keys = new PublishedTicketKeys(client, pools).start(WAIT)) {
            await().atMost(WAIT).until(() -> !pools.live().isEmpty());
            TicketCodec verifier = new TicketCodec(null, keys, TicketCodec.DEFAULT_MAX_LIFETIME, Clock.systemUTC());
            assertTrue(verifies(verifier, sign(poolKey, Ticket.POOL_ISSUER + "p2")));
            assertTrue(!verifies(verifier, sign(poolKey, "door1")), "a pool's key never verifies a door's ticket");
            assertTrue(!verifies(verifier, sign(poolKey, Ticket.POOL_ISSUER + "p3")), "nor another pool's");
        }
    }

    @Test
    void aBadDoorRecordIsLeftOutWithOneErrorLineAndTheOtherDoorsTicketsStillVerify() throws Exception {
        String secret = "c2VjcmV0LXByaXZhdGUta2V5LW9mLWEtZG9vci0wMDAx";
        Logger log = (Logger) LoggerFactory.getLogger(WatchedJsonTree.class);
        ListAppender<ILoggingEvent> appender = new ListAppender<>();
        appender.start();
        log.addAppender(appender);
        CuratorFramework client = zooKeeper.client();
        TicketSigningKey good = TicketSigningKey.generate();
        TicketSigningKey leaked = TicketSigningKey.generate();
        TicketSigningKey impostor = TicketSigningKey.generate();
        Map<String, Object> withPrivate = new HashMap<>(leaked.publicJwk());
        withPrivate.put("d", secret);
        client.create().creatingParentsIfNeeded().withMode(CreateMode.EPHEMERAL).forPath(ZkLayout.door("door1"), doorRecord(good));
        client.create().withMode(CreateMode.EPHEMERAL).forPath(ZkLayout.door("door2"),
                Json.bytes(Map.of("id", "door2", "url", "http://door2", "ticketKeys", List.of(withPrivate))));
        client.create().withMode(CreateMode.EPHEMERAL).forPath(ZkLayout.door("door3"),
                Json.bytes(Map.of("id", "door1", "url", "http://door3", "ticketKeys", List.of(impostor.publicJwk()))));
        try (PoolDirectory pools = new PoolDirectory(client).start(WAIT);
             PublishedTicketKeys keys = new PublishedTicketKeys(client, pools).start(WAIT)) {
            TicketCodec pool = new TicketCodec(null, keys, TicketCodec.DEFAULT_MAX_LIFETIME, Clock.systemUTC());
            assertTrue(verifies(pool, sign(good, "door1")), "the good door keeps working");
            assertTrue(!verifies(pool, sign(leaked, "door2")), "a record carrying a private key is refused whole");
            assertTrue(!verifies(pool, sign(impostor, "door1")) && !verifies(pool, sign(impostor, "door3")),
                    "a record in another door's name is refused");
            List<String> lines = appender.list.stream().map(ILoggingEvent::getFormattedMessage).toList();
            assertEquals(1, lines.stream().filter(l -> l.contains("ignoring door /doors/door2")).count(), lines.toString());
            assertTrue(appender.list.stream().filter(e -> e.getFormattedMessage().contains("/doors/door2"))
                    .allMatch(e -> e.getLevel() == Level.ERROR && e.getFormattedMessage().contains("private part")), lines.toString());
            assertEquals(1, lines.stream().filter(l -> l.contains("ignoring door /doors/door3") && l.contains("stored as 'door3'")).count(),
                    lines.toString());
            assertTrue(lines.stream().noneMatch(l -> l.contains(secret)), "the private part is never logged");
        } finally {
            log.detachAppender(appender);
        }
    }

    @Test
    void aPoolRecordWithAnUnusableTicketKeyIsLeftOutAndItsTicketsVerifyWithNothing() throws Exception {
        CuratorFramework client = zooKeeper.client();
        TicketSigningKey goodKey = TicketSigningKey.generate();
        TicketSigningKey badKey = TicketSigningKey.generate();
        Map<String, Object> otherKid = new HashMap<>(badKey.publicJwk());
        otherKid.put("kid", goodKey.kid());
        client.create().creatingParentsIfNeeded().withMode(CreateMode.EPHEMERAL).forPath(ZkLayout.pool("p1"), Json.bytes(
                new PoolRecord("p1", "http://p1", "default", 1, 1, 0, 0, 0, "test", 0, PoolRecord.ENABLED, 0, 0, null, goodKey.publicJwk())));
        client.create().withMode(CreateMode.EPHEMERAL).forPath(ZkLayout.pool("p2"), Json.bytes(
                new PoolRecord("p2", "http://p2", "default", 1, 1, 0, 0, 0, "test", 0, PoolRecord.ENABLED, 0, 0, null, otherKid)));
        try (PoolDirectory pools = new PoolDirectory(client).start(WAIT);
             PublishedTicketKeys keys = new PublishedTicketKeys(client, pools).start(WAIT)) {
            await().atMost(WAIT).until(() -> !pools.live().isEmpty());
            assertEquals(List.of("p1"), pools.live().stream().map(PoolRecord::id).toList());
            TicketCodec verifier = new TicketCodec(null, keys, TicketCodec.DEFAULT_MAX_LIFETIME, Clock.systemUTC());
            assertTrue(verifies(verifier, sign(goodKey, Ticket.POOL_ISSUER + "p1")));
            assertTrue(!verifies(verifier, sign(badKey, Ticket.POOL_ISSUER + "p2")));
        }
    }
}
