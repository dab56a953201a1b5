package org.gridcache.systemtest;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.IntFunction;

/**
 * A bounded load of clients while a part of the cluster fails: each client is a task repeated with a fixed delay
 * (so the load is bounded in rate, and in count by the time it runs), following a door's redirect to the pool by
 * hand so that both answers are counted. Every answer is counted by phase, kind, hop and status; a 5xx other than 503
 * with {@code Retry-After}, a request that outlives the client's timeout, or a 200 whose body is not byte-exact is
 * also a violation, kept with its details. The test sets the phase as it breaks and mends the cluster.
 */
final class OutageLoad implements AutoCloseable {
    /** What a client does. */
    enum Kind { HIT, MISS, PUT, LOCK, PROPFIND }

    static final Duration CLIENT_TIMEOUT = Duration.ofSeconds(20);
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5))
            .followRedirects(HttpClient.Redirect.NEVER).version(HttpClient.Version.HTTP_1_1).build();
    private final ScheduledExecutorService clients;
    private final String door;
    private volatile String phase = "steady";
    private final Map<String, LongAdder> counts = new ConcurrentHashMap<>();
    /** The slowest answer of each count, in milliseconds: indicative (the machine is shared), never asserted. */
    private final Map<String, java.util.concurrent.atomic.LongAccumulator> slowest = new ConcurrentHashMap<>();
    /** How long this thread's last {@link #send} took, for the {@link #count} that follows it. */
    private final ThreadLocal<Long> lastMillis = ThreadLocal.withInitial(() -> 0L);
    private final ConcurrentLinkedQueue<String> violations = new ConcurrentLinkedQueue<>();
    private final LongAdder violationCount = new LongAdder();

    private OutageLoad(String door, int threads) {
        this.door = door;
        this.clients = Executors.newScheduledThreadPool(threads, r -> {
            Thread t = new Thread(r, "outage-client");
            t.setDaemon(true);
            return t;
        });
    }

    /**
     * Starts the clients: {@code hitClients} reading the {@code cached} files in turn, one reading each of the
     * {@code misses} once (files no pool holds yet), one writing (PUT then nothing else), one taking and releasing
     * a lock, and one listing the collection {@code listed}; each waits {@code delay} after its answer.
     */
    static OutageLoad start(String door, Map<String, byte[]> cached, IntFunction<Map.Entry<String, byte[]>> misses,
            String writeDir, String listed, int hitClients, Duration delay) {
        OutageLoad load = new OutageLoad(door, hitClients + 4);
        List<String> hitPaths = List.copyOf(new TreeMap<>(cached).keySet());
        AtomicInteger nextHit = new AtomicInteger();
        for (int i = 0; i < hitClients; i++) {
            load.every(delay, () -> {
                String path = hitPaths.get(Math.floorMod(nextHit.getAndIncrement(), hitPaths.size()));
                load.read(Kind.HIT, path, cached.get(path));
            });
        }
        AtomicInteger nextMiss = new AtomicInteger();
        load.every(delay, () -> {
            Map.Entry<String, byte[]> miss = misses.apply(nextMiss.getAndIncrement());
            if (miss != null) {
                load.read(Kind.MISS, miss.getKey(), miss.getValue());
            }
        });
        AtomicInteger nextPut = new AtomicInteger();
        load.every(delay, () -> load.put(writeDir + "/put-" + nextPut.getAndIncrement() + ".bin"));
        AtomicInteger nextLock = new AtomicInteger();
        load.every(delay, () -> load.lockAndUnlock(writeDir + "/locked-" + nextLock.getAndIncrement() + ".bin"));
        load.every(delay, () -> load.propfind(listed));
        return load;
    }

    private void every(Duration delay, ThrowingTask task) {
        clients.scheduleWithFixedDelay(() -> {
            try {
                task.run();
            } catch (HttpTimeoutException e) {
                violation("a client timed out (" + CLIENT_TIMEOUT.toSeconds() + " s): " + e.getMessage());
            } catch (IOException e) {
                violation("a client's request failed: " + e);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            } catch (RuntimeException e) {
                violation("a client broke: " + e);
            }
        }, 0, delay.toMillis(), TimeUnit.MILLISECONDS);
    }

    @FunctionalInterface
    private interface ThrowingTask {
        void run() throws IOException, InterruptedException;
    }

    void phase(String next) {
        phase = next;
    }

    /** Sends, naming the request in a timeout's message (the client's own says only "request timed out"). */
    private <T> HttpResponse<T> send(HttpRequest request, HttpResponse.BodyHandler<T> body) throws IOException, InterruptedException {
        long start = System.nanoTime();
        try {
            HttpResponse<T> response = http.send(request, body);
            lastMillis.set((System.nanoTime() - start) / 1_000_000);
            return response;
        } catch (HttpTimeoutException e) {
            throw new HttpTimeoutException(phase + " " + request.method() + " " + request.uri() + ": " + e.getMessage());
        }
    }

    private HttpRequest.Builder request(String url) {
        return HttpRequest.newBuilder(URI.create(url)).timeout(CLIENT_TIMEOUT);
    }

    private void read(Kind kind, String path, byte[] expected) throws IOException, InterruptedException {
        String p = phase;
        HttpResponse<byte[]> atDoor = send(request(door + path).GET().build(), HttpResponse.BodyHandlers.ofByteArray());
        count(p, kind, "door", atDoor);
        if (atDoor.statusCode() != 302) {
            if (atDoor.statusCode() != 503) {
                violation(p + " " + kind + " " + path + ": the door answered " + atDoor.statusCode());
            }
            return;
        }
        String location = atDoor.headers().firstValue("Location").orElseThrow();
        HttpResponse<byte[]> atPool = send(request(location).GET().build(), HttpResponse.BodyHandlers.ofByteArray());
        count(p, kind, "pool", atPool);
        if (atPool.statusCode() == 200) {
            if (!Arrays.equals(expected, atPool.body())) {
                violation(p + " " + kind + " " + path + ": 200 with " + atPool.body().length + " bytes that are not the file's "
                        + expected.length);
            }
        } else if (atPool.statusCode() != 503) {
            violation(p + " " + kind + " " + path + ": the pool answered " + atPool.statusCode() + " "
                    + new String(atPool.body(), java.nio.charset.StandardCharsets.UTF_8).strip());
        }
    }

    private void put(String path) throws IOException, InterruptedException {
        String p = phase;
        byte[] body = new byte[4096];
        new java.util.Random(path.hashCode()).nextBytes(body);
        // no Expect: the door proxies the body to the origin itself (a PUT that waits for 100 would go to a pool)
        HttpResponse<String> r = send(request(door + path).PUT(HttpRequest.BodyPublishers.ofByteArray(body)).build(),
                HttpResponse.BodyHandlers.ofString());
        count(p, Kind.PUT, "door", r);
        if (r.statusCode() != 201 && r.statusCode() != 204 && r.statusCode() != 503) {
            violation(p + " PUT " + path + ": " + r.statusCode() + " " + r.body().strip());
        }
    }

    private void lockAndUnlock(String path) throws IOException, InterruptedException {
        String p = phase;
        String body = """
                <?xml version="1.0" encoding="utf-8"?>
                <D:lockinfo xmlns:D="DAV:"><D:lockscope><D:exclusive/></D:lockscope><D:locktype><D:write/></D:locktype>\
                <D:owner>outage</D:owner></D:lockinfo>""";
        HttpResponse<String> r = send(request(door + path).method("LOCK", HttpRequest.BodyPublishers.ofString(body))
                .header("Content-Type", "application/xml").header("Timeout", "Second-60").header("Depth", "0").build(),
                HttpResponse.BodyHandlers.ofString());
        count(p, Kind.LOCK, "door", r);
        if (r.statusCode() == 200 || r.statusCode() == 201) {
            String token = r.headers().firstValue("Lock-Token").orElseThrow();
            HttpResponse<String> u = send(request(door + path).method("UNLOCK", HttpRequest.BodyPublishers.noBody())
                    .header("Lock-Token", token).build(), HttpResponse.BodyHandlers.ofString());
            count(p, Kind.LOCK, "door-unlock", u);
            if (u.statusCode() != 204 && u.statusCode() != 503) {
                violation(p + " UNLOCK " + path + ": " + u.statusCode() + " " + u.body().strip());
            }
        } else if (r.statusCode() != 503) {
            violation(p + " LOCK " + path + ": " + r.statusCode() + " " + r.body().strip());
        }
    }

    private void propfind(String path) throws IOException, InterruptedException {
        String p = phase;
        HttpResponse<String> r = send(request(door + path).method("PROPFIND", HttpRequest.BodyPublishers.noBody())
                .header("Depth", "1").build(), HttpResponse.BodyHandlers.ofString());
        count(p, Kind.PROPFIND, "door", r);
        if (r.statusCode() != 207 && r.statusCode() != 503) {
            violation(p + " PROPFIND " + path + ": " + r.statusCode() + " " + r.body().strip());
        }
    }

    private void count(String p, Kind kind, String hop, HttpResponse<?> r) {
        String key = p + " " + kind + " " + hop + " " + r.statusCode();
        slowest.computeIfAbsent(key, k -> new java.util.concurrent.atomic.LongAccumulator(Math::max, 0)).accumulate(lastMillis.get());
        counts.computeIfAbsent(key, k -> new LongAdder()).increment(); // after slowest: report() finds both
        if (r.statusCode() == 503 && r.headers().firstValue("Retry-After").isEmpty()) {
            violation(p + " " + kind + " " + hop + ": 503 without Retry-After on " + r.uri());
        }
    }

    private void violation(String what) {
        violationCount.increment();
        if (violations.size() < 30) {
            violations.add(what);
        }
    }

    /** The number of answers of {@code kind} at {@code hop} with {@code status} in {@code phase} so far. */
    long count(String inPhase, Kind kind, String hop, int status) {
        LongAdder n = counts.get(inPhase + " " + kind + " " + hop + " " + status);
        return n == null ? 0 : n.sum();
    }

    /** Every count, one "phase kind hop status: n (slowest m ms)" per line, sorted. */
    String report() {
        StringBuilder out = new StringBuilder();
        new TreeMap<>(counts).forEach((k, v) -> out.append(k).append(": ").append(v.sum()).append(" (slowest ")
                .append(slowest.get(k).get()).append(" ms)\n"));
        return out.toString();
    }

    long violationCount() {
        return violationCount.sum();
    }

    List<String> violations() {
        return new ArrayList<>(violations);
    }

    /** Stops scheduling and waits for the requests under way (each bounded by the client's timeout). */
    @Override
    public void close() throws InterruptedException {
        clients.shutdown();
        if (!clients.awaitTermination(CLIENT_TIMEOUT.toSeconds() * 2 + 10, TimeUnit.SECONDS)) {
            clients.shutdownNow();
            violation("clients still waiting " + (CLIENT_TIMEOUT.toSeconds() * 2 + 10) + " s after the load stopped");
        }
    }
}
