package org.gridcache.door.ops;

import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Tags;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;

/**
 * The door's counters since it started, read by its MXBean and its Prometheus registry (owned here;
 * {@code gridcache_door_…}, tagged {@code door=<id>}): requests by method and status, redirects, bytes streamed in
 * proxy mode, authentication failures by reason.
 */
public final class DoorStats {
    private final Map<String, LongAdder> requests = new ConcurrentHashMap<>();
    private final Map<String, LongAdder> authFailures = new ConcurrentHashMap<>();
    private final LongAdder redirects = new LongAdder();
    private final LongAdder proxiedBytes = new LongAdder();
    private final PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);

    DoorStats(String doorId) {
        registry.config().commonTags(Tags.of("door", doorId));
        FunctionCounter.builder("gridcache.door.redirects", redirects, LongAdder::sum)
                .description("reads redirected to a pool").register(registry);
        FunctionCounter.builder("gridcache.door.proxied.bytes", proxiedBytes, LongAdder::sum).baseUnit("bytes")
                .description("bytes the door streamed itself (proxy mode)").register(registry);
    }

    PrometheusMeterRegistry registry() {
        return registry;
    }

    public void request(String method, int status) {
        requests.computeIfAbsent(method + " " + status, key -> {
            LongAdder count = new LongAdder();
            FunctionCounter.builder("gridcache.door.requests", count, LongAdder::sum)
                    .tags("method", method, "status", String.valueOf(status))
                    .description("requests answered, by method and status").register(registry);
            return count;
        }).increment();
    }

    public void redirect() {
        redirects.increment();
    }

    public void proxied(long bytes) {
        proxiedBytes.add(bytes);
    }

    /** A request refused for want of valid credentials (401/403 before any data); the reason is a short label. */
    public void authenticationFailure(String reason) {
        authFailures.computeIfAbsent(reason, key -> {
            LongAdder count = new LongAdder();
            FunctionCounter.builder("gridcache.door.authentication.failures", count, LongAdder::sum).tag("reason", reason)
                    .description("requests refused for want of valid credentials, by reason").register(registry);
            return count;
        }).increment();
    }

    Map<String, Long> requests() {
        return snapshot(requests);
    }

    long requestsTotal() {
        return requests.values().stream().mapToLong(LongAdder::sum).sum();
    }

    Map<String, Long> authenticationFailures() {
        return snapshot(authFailures);
    }

    long redirects() {
        return redirects.sum();
    }

    long proxiedBytes() {
        return proxiedBytes.sum();
    }

    private static Map<String, Long> snapshot(Map<String, LongAdder> counters) {
        Map<String, Long> out = new TreeMap<>();
        counters.forEach((key, count) -> out.put(key, count.sum()));
        return out;
    }
}
