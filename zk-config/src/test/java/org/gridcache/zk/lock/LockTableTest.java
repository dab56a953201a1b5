package org.gridcache.zk.lock;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.curator.framework.CuratorFramework;
import org.apache.zookeeper.KeeperException;
import org.gridcache.zk.EmbeddedZooKeeper;
import org.gridcache.zk.Zk;
import org.gridcache.zk.layout.ZkLayout;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The cluster's WebDAV lock table on a real ZooKeeper, two doors' clients at once. */
class LockTableTest {
    private static final String ALICE = "/DC=org/DC=example/CN=Alice";
    private static final String BOB = "/DC=org/DC=example/CN=Bob";
    private static final Duration TEN_MINUTES = Duration.ofMinutes(10);
    @TempDir
    Path dir;
    private EmbeddedZooKeeper server;
    private CuratorFramework door1;
    private CuratorFramework door2;
    private final AtomicReference<Instant> now = new AtomicReference<>(Instant.parse("2026-11-23T12:00:00Z"));
    private final Clock clock = new Clock() {
        @Override
        public ZoneOffset getZone() {
            return ZoneOffset.UTC;
        }

        @Override
        public Clock withZone(java.time.ZoneId zone) {
            return this;
        }

        @Override
        public Instant instant() {
            return now.get();
        }
    };
    private LockTable atDoor1;
    private LockTable atDoor2;

    @BeforeEach
    void start() throws Exception {
        server = EmbeddedZooKeeper.start(dir, "127.0.0.1", 0);
        door1 = Zk.connect(server.connectString());
        door2 = Zk.connect(server.connectString());
        atDoor1 = new LockTable(door1, clock);
        atDoor2 = new LockTable(door2, clock);
    }

    @AfterEach
    void stop() throws Exception {
        door1.close();
        door2.close();
        server.close();
    }

    @Test
    void anExclusiveLockAtOneDoorHoldsAtTheOther() throws Exception {
        DavLock lock = atDoor1.lock("/atlas/f.txt", true, false, "<D:href>alice</D:href>", ALICE, TEN_MINUTES);
        assertTrue(lock.token().startsWith(LockTable.TOKEN_PREFIX), lock.token());
        LockConflictException e = assertThrows(LockConflictException.class,
                () -> atDoor2.lock("/atlas/f.txt", false, false, null, BOB, TEN_MINUTES));
        assertEquals("/atlas/f.txt is locked", e.getMessage());
        assertEquals(List.of(lock), atDoor2.covering("/atlas/f.txt"));
        // writes: refused without the token, refused with it for another subject, allowed for its holder
        assertThrows(LockConflictException.class, () -> atDoor2.checkWrite("/atlas/f.txt", false, Set.of(), ALICE));
        assertThrows(LockConflictException.class, () -> atDoor2.checkWrite("/atlas/f.txt", false, Set.of(lock.token()), BOB));
        atDoor2.checkWrite("/atlas/f.txt", false, Set.of(lock.token()), ALICE);
        atDoor2.checkWrite("/atlas/other.txt", false, Set.of(), BOB);
    }

    @Test
    void sharedLocksCoexistButNotWithAnExclusiveOne() throws Exception {
        atDoor1.lock("/d/f", false, false, null, ALICE, TEN_MINUTES);
        atDoor2.lock("/d/f", false, false, null, BOB, TEN_MINUTES);
        assertEquals(2, atDoor1.covering("/d/f").size());
        assertThrows(LockConflictException.class, () -> atDoor1.lock("/d/f", true, false, null, ALICE, TEN_MINUTES));
    }

    @Test
    void anInfiniteLockCoversEverythingBelowAndIsRefusedOverALockBelow() throws Exception {
        DavLock tree = atDoor1.lock("/d", true, true, null, ALICE, TEN_MINUTES);
        LockConflictException below = assertThrows(LockConflictException.class,
                () -> atDoor2.lock("/d/sub/f", true, false, null, BOB, TEN_MINUTES));
        assertEquals("/d/sub/f is within a lock of /d", below.getMessage());
        assertThrows(LockConflictException.class, () -> atDoor2.checkWrite("/d/new.txt", false, Set.of(), BOB));
        atDoor1.lock("/dx", true, false, null, BOB, TEN_MINUTES); // a sibling whose name starts alike is not below
        assertTrue(atDoor1.unlock(tree.token(), ALICE));

        atDoor1.lock("/e/sub/f", true, false, null, BOB, TEN_MINUTES);
        assertThrows(LockConflictException.class, () -> atDoor2.lock("/e", true, true, null, ALICE, TEN_MINUTES));
        atDoor2.lock("/e", true, false, null, ALICE, TEN_MINUTES); // depth 0 on the parent does not reach the child
        // a DELETE of /e/sub (recursive) meets Bob's lock below it
        assertThrows(LockConflictException.class, () -> atDoor2.checkWrite("/e/sub", true, Set.of(), ALICE));
        atDoor2.checkWrite("/e/sub", false, Set.of(), ALICE);
    }

    @Test
    void anExpiredLockIsIgnoredAndRemovedByTheNextGrant() throws Exception {
        DavLock old = atDoor1.lock("/f", true, false, null, ALICE, Duration.ofSeconds(60));
        now.set(now.get().plusSeconds(61));
        atDoor2.checkWrite("/f", false, Set.of(), BOB);
        assertEquals(List.of(), atDoor2.covering("/f"));
        assertTrue(atDoor2.refresh(old.token(), ALICE, TEN_MINUTES).isEmpty(), "an expired lock cannot be refreshed");
        atDoor2.lock("/f", true, false, null, BOB, TEN_MINUTES);
        assertEquals(1, door1.getChildren().forPath(ZkLayout.LOCKS).size(), "the expired lock's znode is gone");
    }

    @Test
    void aRefreshExtendsTheLockAndOnlyItsSubjectRefreshesOrUnlocks() throws Exception {
        DavLock lock = atDoor1.lock("/f", true, false, null, ALICE, Duration.ofSeconds(60));
        now.set(now.get().plusSeconds(50));
        assertThrows(LockOwnerException.class, () -> atDoor2.refresh(lock.token(), BOB, TEN_MINUTES));
        DavLock refreshed = atDoor2.refresh(lock.token(), ALICE, TEN_MINUTES).orElseThrow();
        assertEquals(now.get().plus(TEN_MINUTES).toEpochMilli(), refreshed.expiresAtMillis());
        now.set(now.get().plusSeconds(120));
        assertThrows(LockConflictException.class, () -> atDoor1.checkWrite("/f", false, Set.of(), BOB), "still locked");
        assertThrows(LockOwnerException.class, () -> atDoor1.unlock(lock.token(), BOB));
        assertTrue(atDoor2.unlock(lock.token(), ALICE));
        assertFalse(atDoor1.unlock(lock.token(), ALICE), "already gone");
        atDoor1.checkWrite("/f", false, Set.of(), BOB);
    }

    @Test
    void aSubjectHoldsAtMostSoManyLiveLocksAtEveryDoorAndOthersAreNotHeldBack() throws Exception {
        for (int i = 0; i < LockTable.MAX_PER_SUBJECT; i++) {
            (i % 2 == 0 ? atDoor1 : atDoor2).lock("/many/" + i, true, false, null, ALICE, Duration.ofSeconds(60));
        }
        LockLimitException refused = assertThrows(LockLimitException.class,
                () -> atDoor2.lock("/many/more", true, false, null, ALICE, TEN_MINUTES));
        assertTrue(refused.getMessage().endsWith("the most one subject may: unlock some first"), refused.getMessage());
        assertTrue(atDoor1.covering("/many/more").isEmpty(), "nothing written");
        atDoor1.lock("/many/bobs", true, false, null, BOB, TEN_MINUTES);
        now.set(now.get().plusSeconds(61));
        atDoor2.lock("/many/more", true, false, null, ALICE, TEN_MINUTES); // expired locks count no more
    }

    @Test
    void aTokenThatIsNotOursFindsNothing() throws Exception {
        assertFalse(atDoor1.unlock("opaquelocktoken:../../pools/p1", ALICE));
        assertFalse(atDoor1.unlock("urn:uuid:0f8fad5b-d9cb-469f-a165-70867728950e", ALICE));
        assertTrue(atDoor1.refresh(null, ALICE, TEN_MINUTES).isEmpty());
    }

    @Test
    void aBadLockRecordIsIgnored() throws Exception {
        door1.create().forPath(ZkLayout.LOCKS + "/0f8fad5b-d9cb-469f-a165-70867728950e", "{\"path\":\"/f\"}".getBytes());
        atDoor2.checkWrite("/f", false, Set.of(), BOB);
        atDoor2.lock("/f", true, false, null, BOB, TEN_MINUTES);
    }

    @Test
    void ofManyDoorsLockingOnePathAtOnceExactlyOneWins() throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(8);
        try {
            List<Callable<Boolean>> attempts = new ArrayList<>();
            for (int i = 0; i < 16; i++) {
                LockTable table = i % 2 == 0 ? atDoor1 : atDoor2;
                String who = "/CN=user" + i;
                attempts.add(() -> {
                    try {
                        table.lock("/contended", true, false, null, who, TEN_MINUTES);
                        return true;
                    } catch (LockConflictException e) {
                        return false;
                    }
                });
            }
            int granted = 0;
            for (Future<Boolean> f : pool.invokeAll(attempts)) {
                granted += f.get() ? 1 : 0;
            }
            assertEquals(1, granted);
            assertEquals(1, atDoor1.covering("/contended").size());
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void aDeleteOrMoveDropsTheLocksAtAndBelowThePathAtEveryDoor() throws Exception {
        atDoor1.lock("/atlas/dir", false, true, null, ALICE, TEN_MINUTES);
        atDoor1.lock("/atlas/dir/f.txt", false, false, null, BOB, TEN_MINUTES);
        atDoor1.lock("/atlas/dir2", true, false, null, ALICE, TEN_MINUTES);
        assertEquals(3, atDoor2.live().size());
        assertEquals(2, atDoor2.dropAt("/atlas/dir"));
        assertEquals(List.of("/atlas/dir2"), atDoor1.live().stream().map(DavLock::path).toList(), "a sibling's lock stays");
        assertEquals(0, atDoor1.dropAt("/atlas/dir"));
    }

    @Test
    void liveLeavesOutExpiredLocks() throws Exception {
        atDoor1.lock("/atlas/short", true, false, null, ALICE, Duration.ofSeconds(5));
        atDoor1.lock("/atlas/long", true, false, null, ALICE, TEN_MINUTES);
        now.set(now.get().plusSeconds(6));
        assertEquals(List.of("/atlas/long"), atDoor2.live().stream().map(DavLock::path).toList());
    }

    @Test
    void whileZooKeeperIsUnreachableEveryCallFailsWithinSecondsAndWorksAgainWhenItIsBack() throws Exception {
        DavLock lock = atDoor1.lock("/atlas/kept", true, false, null, ALICE, TEN_MINUTES);
        int port = server.port();
        server.close();
        // a call made as the ensemble goes away: Curator's retries are bounded in time (before: ten connection timeouts)
        long start = System.nanoTime();
        assertThrows(KeeperException.ConnectionLossException.class, () -> atDoor2.live());
        assertTrue(Duration.ofNanos(System.nanoTime() - start).compareTo(Duration.ofSeconds(20)) < 0,
                "bounded: " + Duration.ofNanos(System.nanoTime() - start));
        await().atMost(Duration.ofSeconds(30)).until(() -> !door1.getZookeeperClient().isConnected());
        // once the client knows: at once, without waiting for the connection (Zk.OPERATION_WAIT)
        start = System.nanoTime();
        assertThrows(KeeperException.ConnectionLossException.class, () -> atDoor1.live());
        assertThrows(KeeperException.ConnectionLossException.class, () -> atDoor1.checkWrite("/atlas/kept", false, Set.of(), BOB));
        assertThrows(KeeperException.ConnectionLossException.class, () -> atDoor1.lock("/atlas/other", true, false, null, BOB, TEN_MINUTES));
        assertThrows(KeeperException.ConnectionLossException.class, () -> atDoor1.unlock(lock.token(), ALICE));
        assertTrue(Duration.ofNanos(System.nanoTime() - start).compareTo(Duration.ofSeconds(2)) < 0,
                "four calls refused without waiting: " + Duration.ofNanos(System.nanoTime() - start));

        server = EmbeddedZooKeeper.start(dir, "127.0.0.1", port);
        await().atMost(Duration.ofSeconds(60)).ignoreExceptions()
                .until(() -> atDoor1.live().equals(List.of(lock)) && atDoor2.live().equals(List.of(lock)));
        assertThrows(LockConflictException.class, () -> atDoor2.checkWrite("/atlas/kept", false, Set.of(), BOB));
    }

    @Test
    void aGrantRunAgainAfterItsAnswerWasLostReturnsItsOwnLockInsteadOfAConflict() throws Exception {
        String uuid = java.util.UUID.randomUUID().toString();
        DavLock granted = atDoor1.lock("/atlas/once", true, false, null, ALICE, TEN_MINUTES, uuid);
        // the same grant again, as after a connection loss that hid the commit: the lock it made, not 423
        assertEquals(granted, atDoor1.lock("/atlas/once", true, false, null, ALICE, TEN_MINUTES, uuid));
        assertEquals(List.of(granted), atDoor2.live(), "one lock, not two");
        assertThrows(LockConflictException.class, () -> atDoor2.lock("/atlas/once", true, false, null, ALICE, TEN_MINUTES),
                "another grant still conflicts");
    }
}
