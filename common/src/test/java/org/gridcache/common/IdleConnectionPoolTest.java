package org.gridcache.common;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/** Idle connections by key: reuse by the same key only, a liveness check before reuse, idle expiry, bounds (fake connections, a fake clock). */
class IdleConnectionPoolTest {
    /** A connection: answers NOOP while {@code answers}, and remembers being closed. */
    static final class Fake {
        final String name;
        boolean answers = true;
        int noops;
        volatile boolean closed;

        Fake(String name) {
            this.name = name;
        }

        boolean alive() {
            noops++;
            return answers && !closed;
        }

        void close() {
            closed = true;
        }

        @Override
        public String toString() {
            return name;
        }
    }

    private final AtomicLong now = new AtomicLong(1_000_000_000L);

    private IdleConnectionPool<String, Fake> pool(int perKey, int total) {
        return new IdleConnectionPool<>(Duration.ofSeconds(60), perKey, total, Fake::alive, Fake::close, now::get);
    }

    @Test
    void theSameUserGetsItsConnectionBackCheckedWithNoop() {
        try (IdleConnectionPool<String, Fake> pool = pool(4, 64)) {
            assertNull(pool.take("alice"), "nothing idle yet: the caller opens one");
            Fake a = new Fake("a");
            pool.give("alice", a);
            assertEquals(1, pool.idle("alice"));
            Fake again = pool.take("alice");
            assertSame(a, again);
            assertEquals(1, a.noops, "checked with NOOP before reuse");
            assertFalse(a.closed);
            assertEquals(0, pool.idle(), "in use: no longer in the pool, so nobody else can get it meanwhile");
            assertNull(pool.take("alice"), "one connection, one user of it at a time");
        }
    }

    @Test
    void anotherUserNeverGetsIt() {
        try (IdleConnectionPool<String, Fake> pool = pool(4, 64)) {
            Fake a = new Fake("a");
            pool.give("alice", a);
            assertNull(pool.take("bob"));
            assertFalse(a.closed);
            assertEquals(0, a.noops, "not even probed for another user");
            assertSame(a, pool.take("alice"));
        }
    }

    @Test
    void aConnectionThatFailsNoopIsClosedAndTheNextOrNoneIsGiven() {
        try (IdleConnectionPool<String, Fake> pool = pool(4, 64)) {
            Fake older = new Fake("older");
            Fake newer = new Fake("newer");
            pool.give("alice", older);
            now.addAndGet(1_000_000);
            pool.give("alice", newer);
            newer.answers = false;
            assertSame(older, pool.take("alice"), "the most recently used first; a dead one is skipped");
            assertTrue(newer.closed, "a connection that does not answer NOOP is closed");
            pool.give("alice", older);
            older.answers = false;
            assertNull(pool.take("alice"), "none alive: the caller opens a new connection");
            assertTrue(older.closed);
            assertEquals(0, pool.idle());
        }
    }

    @Test
    void connectionsIdleLongerThanTheIdleTimeAreClosed() {
        try (IdleConnectionPool<String, Fake> pool = pool(4, 64)) {
            Fake old = new Fake("old");
            pool.give("alice", old);
            now.addAndGet(Duration.ofSeconds(50).toNanos());
            Fake recent = new Fake("recent");
            pool.give("bob", recent);
            pool.closeIdle();
            assertFalse(old.closed, "50 s idle: kept");
            now.addAndGet(Duration.ofSeconds(10).toNanos());
            pool.closeIdle();
            assertTrue(old.closed, "60 s idle: closed by the sweep");
            assertFalse(recent.closed);
            assertEquals(0, pool.idle("alice"));
            assertEquals(1, pool.idle("bob"));
            now.addAndGet(Duration.ofSeconds(60).toNanos());
            assertNull(pool.take("bob"), "an expired one is not handed out even before the sweep");
            assertTrue(recent.closed);
            assertEquals(0, recent.noops, "nor probed");
        }
    }

    @Test
    void thePoolIsBoundedPerKeyAndInAllClosingTheOldest() {
        try (IdleConnectionPool<String, Fake> pool = pool(2, 3)) {
            Fake a1 = new Fake("a1");
            Fake a2 = new Fake("a2");
            Fake a3 = new Fake("a3");
            pool.give("alice", a1);
            now.incrementAndGet();
            pool.give("alice", a2);
            now.incrementAndGet();
            pool.give("alice", a3);
            assertTrue(a1.closed, "two per key: the oldest of alice's goes");
            assertEquals(2, pool.idle("alice"));
            now.incrementAndGet();
            Fake b1 = new Fake("b1");
            pool.give("bob", b1);
            now.incrementAndGet();
            Fake c1 = new Fake("c1");
            pool.give("carol", c1);
            assertTrue(a2.closed, "three in all: the oldest of any key goes");
            assertEquals(3, pool.idle());
            assertFalse(a3.closed || b1.closed || c1.closed);
        }
    }

    @Test
    void closingThePoolClosesItsIdleConnectionsAndAnyGivenLater() {
        IdleConnectionPool<String, Fake> pool = pool(4, 64);
        Fake a = new Fake("a");
        pool.give("alice", a);
        pool.close();
        assertTrue(a.closed);
        Fake late = new Fake("late"); // a fetch that ended after the pool shut down
        pool.give("alice", late);
        assertTrue(late.closed);
        assertNull(pool.take("alice"));
    }

    @Test
    void boundsMustMakeSense() {
        assertThrows(IllegalArgumentException.class, () -> new IdleConnectionPool<String, Fake>(Duration.ZERO, 1, 1, Fake::alive,
                Fake::close, now::get));
        assertThrows(IllegalArgumentException.class, () -> new IdleConnectionPool<String, Fake>(Duration.ofSeconds(1), 4, 2,
                Fake::alive, Fake::close, now::get));
    }

    @Test
    void itsSweeperClosesWhatIdledOutWithoutBeingAskedAndStopsWithThePool() {
        IdleConnectionPool<String, Fake> pool = new IdleConnectionPool<String, Fake>(Duration.ofSeconds(1), 4, 64, Fake::alive,
                Fake::close, System::nanoTime).sweptBy("test-idle-sweeper");
        Fake idled = new Fake("idled");
        pool.give("alice", idled);
        org.awaitility.Awaitility.await().atMost(Duration.ofSeconds(10)).until(() -> idled.closed);
        assertEquals(0, pool.idle());
        pool.close();
        org.awaitility.Awaitility.await().atMost(Duration.ofSeconds(10)).until(() -> Thread.getAllStackTraces().keySet().stream()
                .noneMatch(t -> t.getName().equals("test-idle-sweeper")));
    }
}
