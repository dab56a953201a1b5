package org.gridcache.pool.fetch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import org.gridcache.pool.fetch.Download.State;
import org.junit.jupiter.api.Test;

/** A fill's state machine: the transition table, and moves that race. */
class TransitionsTest {
    /** Every state's successors, written out: a change to the table must change this test. */
    @Test
    void theTableIsOneLineForwardWithFailureFromEveryStateBeforeTheEnd() {
        assertNext(State.CONNECTING, State.STREAMING, State.FAILED);
        assertNext(State.STREAMING, State.RECEIVED, State.FAILED);
        assertNext(State.RECEIVED, State.WRITTEN, State.FAILED);
        assertNext(State.WRITTEN, State.VERIFYING, State.FAILED);
        assertNext(State.VERIFYING, State.COMPLETE, State.FAILED);
        assertNext(State.COMPLETE);
        assertNext(State.FAILED);
    }

    @Test
    void aMoveTheTableForbidsIsRefusedAndChangesNothing() {
        Transitions t = new Transitions();
        assertThrows(IllegalStateException.class, () -> t.move(State.CONNECTING, State.COMPLETE));
        assertThrows(IllegalStateException.class, () -> t.move(State.STREAMING, State.WRITTEN), "no skipping the disk");
        assertThrows(IllegalStateException.class, () -> t.move(State.FAILED, State.STREAMING), "no way back from an end");
        assertThrows(IllegalStateException.class, () -> t.move(State.COMPLETE, State.FAILED), "a complete fill never fails");
        assertEquals(State.CONNECTING, t.current());
    }

    @Test
    void aMoveFromAnotherStateThanTheCurrentOneDoesNothing() {
        Transitions t = new Transitions();
        assertFalse(t.move(State.STREAMING, State.RECEIVED), "complete() before begin(): not a move");
        assertTrue(t.move(State.CONNECTING, State.STREAMING));
        assertFalse(t.move(State.CONNECTING, State.STREAMING), "once only");
        assertEquals(State.STREAMING, t.current());
    }

    @Test
    void failureEndsEveryStateButTheEnds() {
        for (State from : List.of(State.CONNECTING, State.STREAMING, State.RECEIVED, State.WRITTEN, State.VERIFYING)) {
            Transitions t = walkTo(from);
            assertTrue(t.fail(), from.toString());
            assertEquals(State.FAILED, t.current());
            assertFalse(t.fail(), "failed once");
        }
        Transitions complete = walkTo(State.COMPLETE);
        assertFalse(complete.fail(), "a committed file stays complete");
        assertEquals(State.COMPLETE, complete.current());
    }

    /** The fetcher's complete() and a disk writer's finish race to claim the finish: exactly one does. */
    @Test
    void ofThreadsRacingForOneMoveExactlyOneWins() throws Exception {
        for (int round = 0; round < 200; round++) {
            Transitions t = walkTo(State.RECEIVED);
            AtomicInteger claims = new AtomicInteger();
            CountDownLatch go = new CountDownLatch(1);
            List<Thread> threads = new ArrayList<>();
            for (int i = 0; i < 4; i++) {
                boolean failer = i == 3;
                Thread thread = new Thread(() -> {
                    try {
                        go.await();
                    } catch (InterruptedException e) {
                        return;
                    }
                    if (failer) {
                        t.fail();
                    } else if (t.move(State.RECEIVED, State.WRITTEN)) {
                        claims.incrementAndGet();
                    }
                });
                threads.add(thread);
                thread.start();
            }
            go.countDown();
            for (Thread thread : threads) {
                thread.join();
            }
            assertTrue(claims.get() <= 1, "two threads claimed one finish: " + claims);
            assertEquals(State.FAILED, t.current(), "a claimed finish can still fail");
        }
    }

    private static Transitions walkTo(State target) {
        Transitions t = new Transitions();
        State[] path = {State.CONNECTING, State.STREAMING, State.RECEIVED, State.WRITTEN, State.VERIFYING, State.COMPLETE};
        for (int i = 0; path[i] != target; i++) {
            assertTrue(t.move(path[i], path[i + 1]));
        }
        return t;
    }

    private static void assertNext(State from, State... next) {
        Set<State> allowed = next.length == 0 ? EnumSet.noneOf(State.class) : EnumSet.of(next[0], next);
        for (State to : State.values()) {
            assertEquals(allowed.contains(to), from.canBecome(to), from + " -> " + to);
        }
    }
}
