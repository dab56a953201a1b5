package org.gridcache.zk;

import org.gridcache.zk.layout.ZkLayout;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.gridcache.common.origin.CredentialMode;
import org.gridcache.common.Json;
import org.gridcache.common.origin.OriginEntry;
import org.gridcache.common.cluster.PoolRecord;
import org.gridcache.common.ticket.TicketSigningKey;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.slf4j.LoggerFactory;

/** What a node refuses to use of the records it reads from ZooKeeper, and that the rest of a table goes on working. */
class RecordChecksTest {
    private static final Duration WAIT = Duration.ofSeconds(10);
    @RegisterExtension
    final ZooKeeperServer zooKeeper = new ZooKeeperServer();

    private static byte[] json(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    private static String refusal(Runnable r) {
        return assertThrows(IllegalArgumentException.class, r::run).getMessage();
    }

    @Test
    void anOriginEntryAsGridcacheOriginsAddWritesItIsAccepted() {
        OriginEntry written = OriginEntry.of("atlas", "/atlas/", "https://se.example.org/atlas/", "user");
        OriginEntry read = RecordChecks.origin("atlas", Json.bytes(written));
        assertEquals(written, read);
        assertEquals(CredentialMode.NONE, RecordChecks.origin("old",
                json("{\"name\":\"old\",\"prefix\":\"/old\",\"url\":\"https://se.example.org/old\",\"protocol\":\"https\"}")).credentialMode(),
                "an entry from before grid security reads as credential none, as it always did");
        assertEquals("file", RecordChecks.origin("local", Json.bytes(OriginEntry.of("local", "/l", "file:///srv/data"))).protocol());
        OriginEntry ofAVo = written.withVo("atlas");
        assertEquals(ofAVo, RecordChecks.origin("atlas", Json.bytes(ofAVo)), "the declared VO is kept");
    }

    @Test
    void originEntriesThatDoNotHoldTogetherAreRefusedWithTheReason() {
        assertTrue(refusal(() -> RecordChecks.origin("x", json("{\"name\":\"x\",\"prefix\":\"/x\",\"url\":\"ftp://h/\"}")))
                .contains("must be http://, https://, gsiftp:// or file://"));
        assertTrue(refusal(() -> RecordChecks.origin("x", Json.bytes(OriginEntry.of("y", "/y", "http://h/"))))
                .contains("stored as 'x'"));
        assertTrue(refusal(() -> RecordChecks.origin("x",
                json("{\"name\":\"x\",\"prefix\":\"/x\",\"url\":\"file:///etc\",\"protocol\":\"https\"}"))).contains("protocol"));
        assertTrue(refusal(() -> RecordChecks.origin("x",
                json("{\"name\":\"x\",\"prefix\":\"/x\",\"url\":\"https://u:secret@h/\",\"protocol\":\"https\"}"))).contains("user or password"));
        assertTrue(refusal(() -> RecordChecks.origin("x", json("{\"name\":\"x\",\"prefix\":\"/x\",\"url\":\"http:///nohost\"}")))
                .contains("needs a host"));
        assertTrue(refusal(() -> RecordChecks.origin("x", json("{\"name\":\"x\",\"prefix\":\"/x\",\"url\":\"file://otherhost/etc\"}")))
                .contains("file:///absolute/path"));
        assertTrue(refusal(() -> RecordChecks.origin("x",
                json("{\"name\":\"x\",\"prefix\":\"/x\",\"url\":\"file:///srv\",\"credential\":\"service\"}"))).contains("credential service needs"));
        assertTrue(refusal(() -> RecordChecks.origin("x",
                json("{\"name\":\"x\",\"prefix\":\"/x\",\"url\":\"http://h/\",\"vo\":\"at las\"}"))).contains("a VO name may hold"));
        assertTrue(refusal(() -> RecordChecks.origin("x", json("{\"name\":\"x\"}"))).contains("needs name, prefix and url"));
        assertTrue(refusal(() -> RecordChecks.origin("x", json("not json"))).contains("malformed"));
    }

    @Test
    void aTokenOriginIsAcceptedForHttpAndHttpsOnly() {
        for (String url : new String[] {"https://se.example.org/t", "http://se.example.org/t"}) {
            OriginEntry written = OriginEntry.of("t", "/t", url, "token");
            assertEquals(CredentialMode.TOKEN, RecordChecks.origin("t", Json.bytes(written)).credentialMode());
        }
        for (String url : new String[] {"gsiftp://se.example.org/t", "file:///srv/t"}) {
            assertTrue(refusal(() -> RecordChecks.origin("t", json("{\"name\":\"t\",\"prefix\":\"/t\",\"url\":\"" + url
                    + "\",\"credential\":\"token\"}"))).contains("credential token needs an http:// or https:// origin"), url);
        }
    }

    private static PoolRecord pool(String id, String url, String state, double load) {
        return new PoolRecord(id, url, "default", 100, 50, 0, 0, load, "t", 0, state, 0, 0, null);
    }

    @Test
    void aPoolRecordAsAPoolPublishesItIsAccepted() {
        PoolRecord r = pool("p1", "https://pool1.example.org:20000", PoolRecord.ENABLED, 0.5);
        assertEquals(r, RecordChecks.pool("p1", Json.bytes(r)));
        assertEquals(PoolRecord.ENABLED, RecordChecks.pool("p2",
                json("{\"id\":\"p2\",\"url\":\"http://127.0.0.1:1\",\"site\":\"s\"}")).state(), "an older record without state");
    }

    @Test
    void poolRecordsThatWouldSendClientsOrTicketsElsewhereAreRefused() {
        assertTrue(refusal(() -> RecordChecks.pool("p1", Json.bytes(pool("p1", "file:///etc/grid-security", PoolRecord.ENABLED, 0))))
                .contains("must be http:// or https://"));
        assertTrue(refusal(() -> RecordChecks.pool("p1", Json.bytes(pool("p1", "gsiftp://h/", PoolRecord.ENABLED, 0))))
                .contains("must be http:// or https://"));
        assertTrue(refusal(() -> RecordChecks.pool("p1", Json.bytes(pool("p2", "https://h", PoolRecord.ENABLED, 0))))
                .contains("stored as 'p1'"), "a record cannot speak for another pool");
        assertTrue(refusal(() -> RecordChecks.pool("p1", Json.bytes(pool("p1", "https://h/?x=1", PoolRecord.ENABLED, 0))))
                .contains("http(s)://host"));
        assertTrue(refusal(() -> RecordChecks.pool("p1", Json.bytes(pool("p1", "https://h", "hijacked", 0)))).contains("unknown pool state"));
        assertTrue(refusal(() -> RecordChecks.pool("p1", Json.bytes(pool("p1", "https://h", PoolRecord.ENABLED, -1)))).contains("negative"));
        assertTrue(refusal(() -> RecordChecks.pool("p1", json("{\"id\":\"p1\"}"))).contains("needs a url"));
    }

    private static PoolRecord poolWithKey(String id, java.util.Map<String, Object> ticketKey) {
        return new PoolRecord(id, "https://h", "default", 100, 50, 0, 0, 0, "t", 0, PoolRecord.ENABLED, 0, 0, null, ticketKey);
    }

    @Test
    void aPoolRecordWithAnUnusableTicketKeyIsRefused() {
        TicketSigningKey key = TicketSigningKey.generate();
        assertEquals(key.publicJwk(), RecordChecks.pool("p1", Json.bytes(poolWithKey("p1", key.publicJwk()))).ticketKey());
        Map<String, Object> otherKid = new HashMap<>(key.publicJwk());
        otherKid.put("kid", TicketSigningKey.generate().kid());
        assertTrue(refusal(() -> RecordChecks.pool("p1", Json.bytes(poolWithKey("p1", otherKid)))).contains("thumbprint"));
        Map<String, Object> withPrivate = new HashMap<>(key.publicJwk());
        withPrivate.put("d", SECRET);
        String privateRefused = refusal(() -> RecordChecks.pool("p1", Json.bytes(poolWithKey("p1", withPrivate))));
        assertTrue(privateRefused.contains("private part") && !privateRefused.contains(SECRET), privateRefused);
        String broken = "{\"id\":\"p1\",\"url\":\"https://h\",\"ticketKey\":{\"d\":" + SECRET + "}}";
        String malformed = refusal(() -> RecordChecks.pool("p1", json(broken)));
        assertTrue(malformed.startsWith("malformed pool record JSON (line 1") && !malformed.contains(SECRET), malformed);
        Map<String, Object> notEd25519 = new HashMap<>(key.publicJwk());
        notEd25519.put("crv", "X25519");
        assertTrue(refusal(() -> RecordChecks.pool("p1", Json.bytes(poolWithKey("p1", notEd25519)))).contains("not an Ed25519 key"));
    }

    /** What a door's private part would look like: a log line or refusal must never quote it. */
    private static final String SECRET = "c2VjcmV0LXByaXZhdGUta2V5LW9mLWEtZG9vci0wMDAx";

    private static byte[] door(String id, String url, List<?> ticketKeys) {
        Map<String, Object> record = new HashMap<>();
        record.put("id", id);
        record.put("url", url);
        record.put("version", "t");
        record.put("startedAt", 1);
        record.put("ticketKeys", ticketKeys);
        return Json.bytes(record);
    }

    @Test
    void aDoorRecordAsADoorPublishesItIsAcceptedWithItsKeys() {
        TicketSigningKey current = TicketSigningKey.generate();
        TicketSigningKey previous = TicketSigningKey.generate();
        Map<String, byte[]> keys = RecordChecks.doorTicketKeys("door1",
                door("door1", "https://door.example.org:2880", List.of(current.publicJwk(), previous.publicJwk())));
        assertEquals(java.util.Set.of(current.kid(), previous.kid()), keys.keySet());
        assertEquals(1, RecordChecks.doorTicketKeys("door1", door("door1", null, List.of(current.publicJwk()))).size(),
                "a record without a url still names its keys");
    }

    @Test
    void doorRecordsThatDoNotHoldTogetherAreRefusedWithTheReason() {
        Map<String, Object> key = TicketSigningKey.generate().publicJwk();
        assertTrue(refusal(() -> RecordChecks.doorTicketKeys("door1", door("door2", "https://h", List.of(key))))
                .contains("stored as 'door1'"), "a record cannot speak for another door");
        assertTrue(refusal(() -> RecordChecks.doorTicketKeys("door1", door(null, "https://h", List.of(key)))).contains("stored as"));
        assertTrue(refusal(() -> RecordChecks.doorTicketKeys("door1", door("door1", "file:///etc", List.of(key))))
                .contains("must be http:// or https://"));
        assertTrue(refusal(() -> RecordChecks.doorTicketKeys("door1", door("door1", "https://u:p@h", List.of(key))))
                .contains("http(s)://host"));
        assertTrue(refusal(() -> RecordChecks.doorTicketKeys("door1", door("door1", "https://h", List.of())))
                .contains("needs its ticket keys"));
        assertTrue(refusal(() -> RecordChecks.doorTicketKeys("door1", door("door1", "https://h", null)))
                .contains("needs its ticket keys"));
        List<Map<String, Object>> five = java.util.stream.Stream.generate(() -> TicketSigningKey.generate().publicJwk()).limit(5).toList();
        assertTrue(refusal(() -> RecordChecks.doorTicketKeys("door1", door("door1", "https://h", five))).contains("at most 4"));
        Map<String, Object> otherKid = new HashMap<>(key);
        otherKid.put("kid", TicketSigningKey.generate().kid());
        assertTrue(refusal(() -> RecordChecks.doorTicketKeys("door1", door("door1", "https://h", List.of(key, otherKid))))
                .contains("ticket key 2 of door door1: kid is not the key's thumbprint"), "one bad key refuses the record");
        Map<String, Object> rsa = new HashMap<>(key);
        rsa.put("kty", "RSA");
        assertTrue(refusal(() -> RecordChecks.doorTicketKeys("door1", door("door1", "https://h", List.of(rsa)))).contains("malformed JWK"));
        assertTrue(refusal(() -> RecordChecks.doorTicketKeys("door1", door("door1", "https://h", List.of("a string"))))
                .contains("malformed door record"));
        assertTrue(refusal(() -> RecordChecks.doorTicketKeys("door1", json("not json"))).contains("malformed door record"));
    }

    @Test
    void aDoorRecordCarryingAPrivateKeyIsRefusedWithoutQuotingIt() {
        Map<String, Object> withPrivate = new HashMap<>(TicketSigningKey.generate().publicJwk());
        withPrivate.put("d", SECRET);
        String reason = refusal(() -> RecordChecks.doorTicketKeys("door1", door("door1", "https://h", List.of(withPrivate))));
        assertTrue(reason.contains("private part") && reason.contains("must be replaced"), reason);
        assertTrue(!reason.contains(SECRET), reason);
        // a record broken right at its secret: the parser's message (which quotes the token) is not passed on
        String broken = "{\"id\":\"door1\",\"ticketKeys\":[{\"kty\":\"OKP\",\"d\":" + SECRET + "}]}";
        String malformed = refusal(() -> RecordChecks.doorTicketKeys("door1", json(broken)));
        assertTrue(malformed.contains("malformed door record JSON (line 1") && !malformed.contains(SECRET), malformed);
    }

    @Test
    void aBadOriginEntryIsLeftOutOfTheMountTableWithALogLineAndTheOthersServe() throws Exception {
        Logger log = (Logger) LoggerFactory.getLogger(WatchedJsonTree.class);
        ListAppender<ILoggingEvent> appender = new ListAppender<>();
        appender.start();
        log.addAppender(appender);
        try (MountTable mounts = new MountTable(zooKeeper.client()).start(WAIT)) {
            MountTable.put(zooKeeper.client(), OriginEntry.of("good", "/good", "https://se.example.org/good"));
            zooKeeper.client().create().forPath(ZkLayout.origin("bad"),
                    json("{\"name\":\"bad\",\"prefix\":\"/bad\",\"url\":\"file://internal/etc\",\"protocol\":\"file\"}"));
            await().atMost(WAIT).until(() -> appender.list.stream().anyMatch(e -> e.getFormattedMessage().contains("ignoring origin /origins/bad")));
            await().atMost(WAIT).until(() -> mounts.resolve("/good/f").isPresent());
            assertTrue(mounts.resolve("/bad/f").isEmpty());
            assertEquals(List.of("good"), mounts.entries().stream().map(OriginEntry::name).toList());
        } finally {
            log.detachAppender(appender);
        }
    }

    @Test
    void aPoolRecordInAnotherPoolsNameIsLeftOutOfTheDirectory() throws Exception {
        try (PoolDirectory pools = new PoolDirectory(zooKeeper.client()).start(WAIT)) {
            zooKeeper.client().create().creatingParentsIfNeeded().forPath(ZkLayout.pool("p1"), Json.bytes(pool("p1", "http://127.0.0.1:1", PoolRecord.ENABLED, 0)));
            zooKeeper.client().create().forPath(ZkLayout.pool("rogue"), Json.bytes(pool("p1", "http://evil.example.org", PoolRecord.ENABLED, 0)));
            zooKeeper.client().create().forPath(ZkLayout.pool("p3"), Json.bytes(pool("p3", "http://127.0.0.1:3", PoolRecord.ENABLED, 0)));
            await().atMost(WAIT).until(() -> pools.live().size() == 2);
            assertEquals(List.of("http://127.0.0.1:1", "http://127.0.0.1:3"), pools.live().stream().map(PoolRecord::url).toList());
        }
    }
}
