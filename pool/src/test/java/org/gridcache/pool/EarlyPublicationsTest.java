package org.gridcache.pool;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class EarlyPublicationsTest {
    private static final long INTERVAL = Duration.ofMillis(100).toNanos();
    private static final long SETTLE = Duration.ofMillis(20).toNanos();
    private final AtomicLong now = new AtomicLong(1_000_000_000L);
    private final AtomicInteger published = new AtomicInteger();
    /** What was scheduled, with its delay: the test runs the tasks itself, as the publisher thread would. */
    private final List<Runnable> tasks = new ArrayList<>();
    private final List<Long> delays = new ArrayList<>();
    private final EarlyPublications early = new EarlyPublications(published::incrementAndGet, (task, delay) -> {
        tasks.add(task);
        delays.add(delay);
    }, now::get, Duration.ofNanos(INTERVAL), Duration.ofNanos(SETTLE));

    @Test
    void theFirstGoesOutAfterTheSettleAndABurstCollapsesIntoOne() {
        early.request();
        early.request();
        early.request();
        assertEquals(List.of(SETTLE), delays, "one publication queued, after the settle");
        tasks.remove(0).run();
        assertEquals(1, published.get());
    }

    @Test
    void laterOnesWaitForTheInterval() {
        early.request();
        tasks.remove(0).run();
        now.addAndGet(30_000_000L);
        early.request();
        early.request();
        assertEquals(List.of(SETTLE, INTERVAL - 30_000_000L), delays, "the next waits out the rest of the interval");
        tasks.remove(0).run();
        assertEquals(2, published.get());
        now.addAndGet(INTERVAL * 5);
        early.request();
        assertEquals(SETTLE, delays.get(2), "after a quiet spell after the settle again");
    }

    @Test
    void aChangeWhilePublishingAsksForTheNext() {
        EarlyPublications[] self = new EarlyPublications[1];
        self[0] = new EarlyPublications(() -> {
            published.incrementAndGet();
            self[0].request(); // a mover changed while the record was written
        }, (task, delay) -> tasks.add(task), now::get, Duration.ofNanos(INTERVAL), Duration.ofNanos(SETTLE));
        self[0].request();
        tasks.remove(0).run();
        assertEquals(1, tasks.size(), "the change is not lost");
    }

    @Test
    void aClosingSchedulerLeavesNothingQueued() {
        AtomicInteger attempts = new AtomicInteger();
        EarlyPublications closing = new EarlyPublications(published::incrementAndGet, (task, delay) -> {
            attempts.incrementAndGet();
            throw new RejectedExecutionException("closed");
        }, now::get, Duration.ofNanos(INTERVAL), Duration.ofNanos(SETTLE));
        closing.request();
        closing.request();
        assertEquals(2, attempts.get(), "a refused request is not taken as queued");
        assertTrue(published.get() == 0);
    }
}
