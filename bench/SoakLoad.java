import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.Semaphore;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.LongAdder;

/**
 * The load of bench/soak.sh (issue 15, R7): CONNECTIONS requests always in flight against a door for SECONDS, each
 * following the door's redirect to a pool like a client does, a mix of hits (a small hot set), misses (names spread
 * over more than the pools hold, so eviction keeps them missing), ranged reads of a large file and PROPFIND listings.
 * Usage: java SoakLoad.java DOOR SECONDS CONNECTIONS HOT MISS. Every 10 s a line "progress,SECONDS,REQUESTS,ERRORS";
 * at the end "requests,N", "errors,N" and one "status,CODE,N" or "failure,KIND,N" line per outcome.
 */
public class SoakLoad {
    public static void main(String[] args) throws Exception {
        URI door = URI.create(args[0]);
        long seconds = Long.parseLong(args[1]);
        int connections = Integer.parseInt(args[2]);
        int hot = Integer.parseInt(args[3]);
        int miss = Integer.parseInt(args[4]);
        HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
                .followRedirects(HttpClient.Redirect.NORMAL).connectTimeout(Duration.ofSeconds(30))
                .executor(Executors.newFixedThreadPool(4)).build();
        Semaphore inFlight = new Semaphore(connections);
        LongAdder requests = new LongAdder();
        LongAdder errors = new LongAdder();
        Map<String, LongAdder> outcomes = new ConcurrentHashMap<>();
        long start = System.nanoTime();
        long end = start + Duration.ofSeconds(seconds).toNanos();
        long nextReport = start + Duration.ofSeconds(10).toNanos();
        while (System.nanoTime() < end) {
            if (!inFlight.tryAcquire(100, java.util.concurrent.TimeUnit.MILLISECONDS)) {
                continue;
            }
            if (System.nanoTime() > nextReport) {
                System.out.printf("progress,%d,%d,%d%n", (System.nanoTime() - start) / 1_000_000_000L, requests.sum(), errors.sum());
                nextReport += Duration.ofSeconds(10).toNanos();
            }
            client.sendAsync(next(door, hot, miss), HttpResponse.BodyHandlers.discarding()).whenComplete((response, failure) -> {
                requests.increment();
                String outcome;
                if (failure != null) {
                    Throwable cause = failure.getCause() != null ? failure.getCause() : failure;
                    outcome = "failure," + cause.getClass().getSimpleName();
                    errors.increment();
                } else {
                    outcome = "status," + response.statusCode();
                    if (response.statusCode() >= 300) {
                        errors.increment();
                    }
                }
                outcomes.computeIfAbsent(outcome, k -> new LongAdder()).increment();
                inFlight.release();
            });
        }
        inFlight.acquire(connections); // the last ones finish (each bounded by its timeout)
        System.out.printf("requests,%d%nerrors,%d%n", requests.sum(), errors.sum());
        new TreeMap<>(outcomes).forEach((k, v) -> System.out.printf("%s,%d%n", k, v.sum()));
        System.exit(0);
    }

    /** 50 % hits, 20 % misses, 20 % ranges of the large file, 10 % PROPFIND of a directory. */
    private static HttpRequest next(URI door, int hot, int miss) {
        ThreadLocalRandom random = ThreadLocalRandom.current();
        int kind = random.nextInt(10);
        HttpRequest.Builder b = HttpRequest.newBuilder().timeout(Duration.ofSeconds(120));
        if (kind < 5) {
            return b.uri(door.resolve("/soak/hot/h" + random.nextInt(hot) + ".bin")).GET().build();
        }
        if (kind < 7) {
            return b.uri(door.resolve("/soak/miss/m" + random.nextInt(miss) + ".bin")).GET().build();
        }
        if (kind < 9) {
            long from = random.nextLong(64L << 20);
            return b.uri(door.resolve("/soak/big.bin")).header("Range", "bytes=" + from + "-" + (from + random.nextInt(1 << 20))).GET().build();
        }
        return b.uri(door.resolve("/soak/hot/")).header("Depth", "1").method("PROPFIND", HttpRequest.BodyPublishers.noBody()).build();
    }
}
