package org.gridcache.door.liveness;

import java.io.IOException;
import java.nio.channels.ClosedChannelException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.IntSupplier;
import java.util.function.Supplier;
import org.eclipse.jetty.client.HttpClient;
import org.eclipse.jetty.client.Request;
import org.eclipse.jetty.client.Result;
import org.eclipse.jetty.io.Connection;
import org.gridcache.common.cluster.PoolRecord;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Whether this door can reach each registered pool, learnt long before ZooKeeper expires a dead pool's session
 * (issue 15, R1): a pool killed or cut off keeps its {@code /pools/<id>} znode for the seconds its session has left,
 * and every read sent there meanwhile fails. The door keeps one connection to each pool and asks
 * {@code GET /.gridcache/health} over it every {@code door.pool-ping-period}:
 * <ul>
 * <li>a pool process that dies has its sockets closed by its kernel: the door sees its connection close at once,
 * pings every pool without a ping in flight straight away, and the new connection to the dead one is refused — the
 * pool is <em>suspect</em> within milliseconds;</li>
 * <li>a host that vanishes without closing anything leaves the pings unanswered: after {@code door.pool-ping-misses}
 * periods in a row without an answer the door tries a bare TCP connection to the pool's port ({@link PortCheck}),
 * and when that is not made within a period either (at least 500 ms), the pool is suspect. A pool that is merely slow to answer (a
 * starved or busy JVM) still has its kernel complete the handshake at once, so it is not suspected for being busy —
 * which would only move its load onto the others;</li>
 * <li>a failed proxied read ({@link #doubt}) asks the pool at once, as a close does.</li>
 * </ul>
 * A suspect pool gets no new read ({@link SelectablePools}) until a ping is answered again, or its znode is
 * re-created (a restart). Any HTTP answer counts as alive: the process serves, and whether it takes reads is its
 * record's business. One timer thread and one selector thread (the ping client's) serve every pool: no thread per
 * pool, and a ping is a few hundred bytes on a kept-alive connection.
 */
public final class PoolLiveness implements AutoCloseable {
    /** The pool's unauthenticated health service (it reveals nothing but "ok"). */
    public static final String HEALTH = "/.gridcache/health";
    private static final Logger LOG = LoggerFactory.getLogger(PoolLiveness.class);
    /** A ping left unanswered this long is given up (its misses were counted by the ticks meanwhile). */
    private static final long MIN_PING_TIMEOUT_MILLIS = 2_000;
    /** A bare connect is given at least this long: a SYN-ACK is microseconds away, but the door itself may be starved. */
    private static final long MIN_CONNECT_TIMEOUT_MILLIS = 500;
    /** Early pings of one pool (after a close, a doubt) are at least this far apart: a pool closing every connection is not pinged in a loop. */
    private static final long PROBE_SPACING_NANOS = 50_000_000;
    private final HttpClient http;
    private final Supplier<List<PoolRecord>> registered;
    private final Supplier<Duration> period;
    private final IntSupplier misses;
    private final ScheduledExecutorService timer;
    private final PortCheck ports;
    private final Map<String, Watched> pools = new ConcurrentHashMap<>();
    /** Bumped on every change of the suspect set, so that {@link SelectablePools} recomputes only then. */
    private final AtomicLong version = new AtomicLong();
    private final LongAdder suspicions = new LongAdder();
    private final LongAdder recoveries = new LongAdder();
    private volatile boolean closed;

    /**
     * {@code http}: a client not yet started, for pings only (see {@link Pings#client}); owned from now on.
     * {@code registered}: the pools in ZooKeeper now, whatever their state. {@code period} and {@code misses} are
     * read at every tick (live settings).
     */
    public PoolLiveness(HttpClient http, Supplier<List<PoolRecord>> registered, Supplier<Duration> period, IntSupplier misses)
            throws IOException {
        this.http = http;
        this.registered = registered;
        this.period = period;
        this.misses = misses;
        this.timer = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "door-pool-liveness");
            t.setDaemon(true);
            return t;
        });
        this.ports = new PortCheck(timer);
        // every connection of this client is a liveness connection: its close is news about its pool
        http.addBean(new Connection.Listener() {
            @Override
            public void onClosed(Connection connection) {
                soon(PoolLiveness.this::probeAll);
            }
        });
    }

    public PoolLiveness start() throws Exception {
        http.start();
        soon(this::tick);
        return this;
    }

    /** Whether {@code pool} (this very registration of it) is suspect now. */
    public boolean isSuspect(PoolRecord pool) {
        Watched w = pools.get(pool.id());
        return w != null && w.suspect && w.sameRegistration(pool);
    }

    /** Changes whenever a pool becomes suspect or is cleared. */
    public long version() {
        return version.get();
    }

    /** Something went wrong with {@code poolId} (a failed proxied read): ask it now rather than at the next tick. */
    public void doubt(String poolId) {
        Watched w = pools.get(poolId);
        if (w != null) {
            soon(w::probe);
        }
    }

    public int suspectCount() {
        int n = 0;
        for (Watched w : pools.values()) {
            n += w.suspect ? 1 : 0;
        }
        return n;
    }

    /** Times a pool became suspect since the door started. */
    public long suspicions() {
        return suspicions.sum();
    }

    /** Times a suspect pool answered again. */
    public long recoveries() {
        return recoveries.sum();
    }

    /** One line per suspect pool: id, why, since when (for JMX). */
    public List<String> suspects() {
        List<String> out = new ArrayList<>();
        pools.values().stream().filter(w -> w.suspect).sorted(Comparator.comparing(w -> w.id)).forEach(w -> out.add(w.line()));
        return out;
    }

    private void soon(Runnable task) {
        if (closed) {
            return;
        }
        try {
            timer.execute(task);
        } catch (RejectedExecutionException e) {
            // closing: nothing more to learn
        }
    }

    private void schedule(Runnable task, long delayNanos) {
        try {
            timer.schedule(task, delayNanos, TimeUnit.NANOSECONDS);
        } catch (RejectedExecutionException e) {
            // closing
        }
    }

    private void tick() {
        try {
            watchRegistered();
            int limit = Math.max(1, misses.getAsInt());
            long every = period.get().toMillis();
            for (Watched w : pools.values()) {
                w.tick(limit, every);
            }
        } catch (RuntimeException e) {
            LOG.warn("pool liveness round failed: {}", e.toString());
        } finally {
            if (!closed) {
                schedule(this::tick, period.get().toNanos());
            }
        }
    }

    private long pingTimeoutMillis() {
        return Math.max(MIN_PING_TIMEOUT_MILLIS, period.get().toMillis() * 10);
    }

    private void probeAll() {
        for (Watched w : pools.values()) {
            w.probe();
        }
    }

    /** Starts watching new registrations; forgets pools gone from ZooKeeper and the earlier lives of restarted ones. */
    private void watchRegistered() {
        List<PoolRecord> now = registered.get();
        Set<String> ids = new HashSet<>();
        for (PoolRecord record : now) {
            ids.add(record.id());
            Watched old = pools.get(record.id());
            if (old == null || !old.sameRegistration(record)) {
                pools.put(record.id(), new Watched(record));
                if (old != null) {
                    old.abandon();
                }
                if (old != null && old.suspect) {
                    LOG.info("pool {} registered anew ({}): no longer suspect", record.id(), record.url());
                    version.incrementAndGet();
                }
            }
        }
        pools.values().removeIf(w -> {
            if (ids.contains(w.id)) {
                return false;
            }
            if (w.suspect) {
                version.incrementAndGet();
            }
            w.abandon();
            return true;
        });
    }

    @Override
    public void close() {
        closed = true;
        timer.shutdownNow();
        ports.close();
        try {
            http.stop();
        } catch (Exception e) {
            LOG.debug("stopping the ping client: {}", e.toString());
        }
    }

    /** One pool as registered (id, URL, start time) and what its pings say. */
    private final class Watched {
        final String id;
        final String url;
        final long startedAt;
        final String health;
        volatile boolean suspect;
        private Request inFlight;
        private int missed;
        /** A bare connection to the pool's port is being tried. */
        private boolean checking;
        private boolean abandoned;
        /** A close or a doubt came while a ping was in flight: ping again when it is answered. */
        private boolean probeAgain;
        private boolean probeScheduled;
        private long lastSent = System.nanoTime() - PROBE_SPACING_NANOS;
        /** The last ping failed on a connection that was open: it was asked again at once. */
        private boolean askedAgain;
        private long suspectSince;
        private String reason;

        Watched(PoolRecord record) {
            id = record.id();
            url = record.url();
            startedAt = record.startedAt();
            health = (url.endsWith("/") ? url.substring(0, url.length() - 1) : url) + HEALTH;
        }

        boolean sameRegistration(PoolRecord record) {
            return url.equals(record.url()) && startedAt == record.startedAt();
        }

        synchronized void tick(int limit, long periodMillis) {
            if (inFlight == null) {
                ping();
                return;
            }
            missed++;
            if (missed >= limit && !checking && !suspect) {
                checking = true;
                int unanswered = missed;
                ports.check(url, Math.max(MIN_CONNECT_TIMEOUT_MILLIS, periodMillis), why -> portChecked(why, unanswered, limit));
            }
        }

        synchronized void portChecked(String why, int unanswered, int limit) {
            checking = false;
            if (abandoned) {
                return;
            }
            if (why == null) {
                // slow, not gone: count afresh (the ping stays in flight and may still be answered)
                LOG.debug("pool {} left {} pings unanswered but takes connections", id, unanswered);
                missed = 0;
            } else if (missed >= limit) {
                suspect("no answer to " + unanswered + " pings in a row and " + why);
            } // answered meanwhile
        }

        /**
         * A ping now, unless one is in flight: then another as soon as it is answered, since the close that asked for
         * this may have come after that ping's answer was read but before it was handled.
         */
        synchronized void probe() {
            if (abandoned) {
                return;
            }
            if (inFlight != null) {
                probeAgain = true;
                return;
            }
            long wait = lastSent + PROBE_SPACING_NANOS - System.nanoTime();
            if (wait > 0) {
                if (!probeScheduled) {
                    probeScheduled = true;
                    schedule(() -> {
                        synchronized (this) {
                            probeScheduled = false;
                        }
                        probe();
                    }, wait);
                }
                return;
            }
            ping();
        }

        /** Holding the monitor; the answer may come on this very thread (a synchronous failure): the monitor is reentrant. */
        private void ping() {
            Request request = http.newRequest(health).timeout(pingTimeoutMillis(), TimeUnit.MILLISECONDS).agent(Pings.AGENT);
            inFlight = request;
            lastSent = System.nanoTime();
            request.send(result -> answered(request, result));
        }

        synchronized void answered(Request request, Result result) {
            if (inFlight != request || closed) {
                return; // abandoned, or the door is closing
            }
            inFlight = null;
            if (probeAgain) {
                probeAgain = false;
                soon(this::probe);
            }
            Throwable failure = result.getFailure();
            if (failure != null) {
                LOG.debug("pool {}: ping failed after {} ms: {}", id, (System.nanoTime() - lastSent) / 1_000_000, failure.toString());
            }
            if (failure == null) {
                missed = 0;
                askedAgain = false;
                clear();
            } else if (failure instanceof TimeoutException) {
                return; // a ping given up: the ticks have counted it
            } else if (!Pings.refused(failure) && !askedAgain) {
                // a kept-alive connection may have been closed under this ping: only a second failure in a row counts
                askedAgain = true;
                ping();
            } else {
                suspect(Pings.describe(failure));
            }
        }

        synchronized void abandon() {
            abandoned = true;
            Request request = inFlight;
            inFlight = null;
            if (request != null) {
                request.abort(new ClosedChannelException());
            }
        }

        private void suspect(String why) {
            if (suspect) {
                return;
            }
            reason = why;
            suspectSince = System.nanoTime();
            suspect = true;
            suspicions.increment();
            version.incrementAndGet();
            LOG.info("pool {} suspect: {} ({}); no new read goes there until it answers", id, why, health);
        }

        private void clear() {
            if (!suspect) {
                return;
            }
            suspect = false;
            recoveries.increment();
            version.incrementAndGet();
            LOG.info("pool {} answers again after {} ms suspect: it takes new reads", id,
                    (System.nanoTime() - suspectSince) / 1_000_000);
        }

        synchronized String line() {
            return id + ": " + reason + ", for " + (System.nanoTime() - suspectSince) / 1_000_000 + " ms (" + url + ")";
        }
    }


}
