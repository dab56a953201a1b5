package org.gridcache.common;

import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import java.util.function.LongSupplier;
import java.util.function.Predicate;

/**
 * Idle connections by key, for reuse by whoever asks with the same key next. A connection is in the pool only while
 * nobody uses it: {@link #take} removes it (so it is never shared), {@link #give} puts it back. {@code take} hands out
 * the most recently given first (the likeliest to be alive, and the older ones idle out) and checks each with
 * {@code alive} (outside the lock: a NOOP is a round trip), closing those that fail. Bounded per key and in all (the
 * oldest idle connection is closed to make room); {@link #closeIdle} closes those idle longer than the idle time.
 */
public final class IdleConnectionPool<K, C> implements AutoCloseable {
    private final long idleNanos;
    private final int perKey;
    private final int total;
    private final Predicate<C> alive;
    private final Consumer<C> closer;
    private final LongSupplier nanoTime;
    private final Map<K, Deque<Idle<C>>> idle = new HashMap<>();
    private int count;
    private boolean closed;
    private java.util.concurrent.ScheduledExecutorService sweeper;

    private record Idle<C>(C connection, long since) {
    }

    public IdleConnectionPool(Duration idleTime, int perKey, int total, Predicate<C> alive, Consumer<C> closer, LongSupplier nanoTime) {
        if (idleTime.isNegative() || idleTime.isZero() || perKey < 1 || total < perKey) {
            throw new IllegalArgumentException("idle time > 0 and 1 <= per key <= total");
        }
        this.idleNanos = idleTime.toNanos();
        this.perKey = perKey;
        this.total = total;
        this.alive = alive;
        this.closer = closer;
        this.nanoTime = nanoTime;
    }

    /** An idle connection for {@code key} that still answers, taken out of the pool; null when there is none. */
    public C take(K key) {
        while (true) {
            Idle<C> candidate;
            synchronized (this) {
                Deque<Idle<C>> q = idle.get(key);
                candidate = q == null ? null : q.pollLast();
                if (candidate == null) {
                    return null;
                }
                count--;
                if (q.isEmpty()) {
                    idle.remove(key);
                }
            }
            if (nanoTime.getAsLong() - candidate.since() < idleNanos && alive.test(candidate.connection())) {
                return candidate.connection();
            }
            closeQuietly(candidate.connection());
        }
    }

    /**
     * Puts a connection that just served {@code key} without an error back; closes the oldest idle one of that key (or of
     * any key) when the pool is full, and {@code connection} itself when the pool is closed.
     */
    public void give(K key, C connection) {
        List<C> evicted = new ArrayList<>(2);
        synchronized (this) {
            if (closed) {
                evicted.add(connection);
            } else {
                Deque<Idle<C>> q = idle.computeIfAbsent(key, k -> new ArrayDeque<>());
                q.addLast(new Idle<>(connection, nanoTime.getAsLong()));
                count++;
                if (q.size() > perKey) {
                    evicted.add(q.pollFirst().connection());
                    count--;
                }
                if (count > total) {
                    evicted.add(pollOldest());
                }
            }
        }
        evicted.forEach(this::closeQuietly);
    }

    /**
     * Starts a daemon thread named {@code threadName} that calls {@link #closeIdle} four times per idle time (at
     * least a second apart), until {@link #close}; this pool, for chaining.
     */
    public synchronized IdleConnectionPool<K, C> sweptBy(String threadName) {
        if (sweeper == null) {
            sweeper = java.util.concurrent.Executors.newSingleThreadScheduledExecutor(r -> {
                Thread t = new Thread(r, threadName);
                t.setDaemon(true);
                return t;
            });
            long every = Math.max(1, java.util.concurrent.TimeUnit.NANOSECONDS.toSeconds(idleNanos) / 4);
            sweeper.scheduleWithFixedDelay(this::closeIdle, every, every, java.util.concurrent.TimeUnit.SECONDS);
        }
        return this;
    }

    /** Closes the connections idle for longer than the idle time; the sweeper ({@link #sweptBy}) calls it now and then. */
    public void closeIdle() {
        List<C> expired = new ArrayList<>();
        long now = nanoTime.getAsLong();
        synchronized (this) {
            for (Iterator<Deque<Idle<C>>> qs = idle.values().iterator(); qs.hasNext(); ) {
                Deque<Idle<C>> q = qs.next();
                while (!q.isEmpty() && now - q.peekFirst().since() >= idleNanos) {
                    expired.add(q.pollFirst().connection());
                    count--;
                }
                if (q.isEmpty()) {
                    qs.remove();
                }
            }
        }
        expired.forEach(this::closeQuietly);
    }

    public synchronized int idle() {
        return count;
    }

    public synchronized int idle(K key) {
        Deque<Idle<C>> q = idle.get(key);
        return q == null ? 0 : q.size();
    }

    /** The oldest idle connection of all keys, removed; called with more than zero idle. */
    private C pollOldest() {
        K oldestKey = null;
        long oldest = Long.MAX_VALUE;
        for (Map.Entry<K, Deque<Idle<C>>> e : idle.entrySet()) {
            long since = e.getValue().peekFirst().since();
            if (oldestKey == null || since - oldest < 0) {
                oldestKey = e.getKey();
                oldest = since;
            }
        }
        Deque<Idle<C>> q = idle.get(oldestKey);
        C c = q.pollFirst().connection();
        if (q.isEmpty()) {
            idle.remove(oldestKey);
        }
        count--;
        return c;
    }

    private void closeQuietly(C c) {
        try {
            closer.accept(c);
        } catch (RuntimeException ignored) {
            // a connection being dropped: nothing to keep of it
        }
    }

    @Override
    public void close() {
        List<C> all = new ArrayList<>();
        synchronized (this) {
            closed = true;
            if (sweeper != null) {
                sweeper.shutdownNow();
            }
            idle.values().forEach(q -> q.forEach(i -> all.add(i.connection())));
            idle.clear();
            count = 0;
        }
        all.forEach(this::closeQuietly);
    }
}
