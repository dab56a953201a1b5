package org.gridcache.door.ops;

import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Tags;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.LongSupplier;
import org.gridcache.common.HttpMethods;

/**
 * The door's counters since it started, read by its MXBean and its Prometheus registry (owned here;
 * {@code gridcache_door_…}, tagged {@code door=<id>}): requests by method and status, redirects, bytes streamed in
 * proxy mode, authentication failures by reason.
 *
 * <p>Every label comes from a fixed set, never from the request itself: a client can send any method name and any
 * path, and each new label value is a new time series kept for the life of the process (issue 11). Methods outside
 * {@link #METHODS} count as {@code other}, statuses outside 100–599 as {@code other}, refusals by {@link AuthFailure}.
 */
public final class DoorStats {
    /** The methods counted by name: HTTP's and WebDAV's. */
    static final Set<String> METHODS = HttpMethods.KNOWN;
    static final String OTHER = "other";

    /** Why a request was refused for want of valid credentials: the label values of the authentication failures. */
    public enum AuthFailure {
        /** No certificate was presented where one is needed. */
        NO_CREDENTIAL,
        /** The certificate or proxy presented was refused (expired, untrusted CA, bad chain, not a pool's host certificate). */
        CREDENTIAL_REFUSED,
        /** An origin read with the user's own credential, and no delegation of theirs. */
        DELEGATION_REQUIRED;

        public String label() {
            return name().toLowerCase(Locale.ROOT).replace('_', '-');
        }
    }

    private final Map<String, LongAdder> requests = new ConcurrentHashMap<>();
    private final Map<String, LongAdder> authFailures = new ConcurrentHashMap<>();
    private final LongAdder redirects = new LongAdder();
    private final LongAdder proxiedBytes = new LongAdder();
    private final PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    private List<LongSupplier> gridFtpConnectionCounts = List.of();

    DoorStats(String doorId) {
        registry.config().commonTags(Tags.of("door", doorId));
        FunctionCounter.builder("gridcache.door.redirects", redirects, LongAdder::sum)
                .description("reads redirected to a pool").register(registry);
        FunctionCounter.builder("gridcache.door.proxied.bytes", proxiedBytes, LongAdder::sum).baseUnit("bytes")
                .description("bytes the door streamed itself (proxy mode)").register(registry);
    }

    /**
     * The lister's GridFTP control connections: {@code opened} (each a GSI handshake) and {@code reused} (an idle one
     * taken instead) count up, {@code idle} is how many wait for reuse now.
     */
    public void gridFtpConnections(LongSupplier opened, LongSupplier reused, LongSupplier idle) {
        // micrometer holds a meter's state weakly: the suppliers are held here, or a collection turns them into NaN
        gridFtpConnectionCounts = List.of(opened, reused, idle);
        String what = "GSI control connections for GridFTP lookups: opened (a handshake) or reused (an idle one)";
        FunctionCounter.builder("gridcache.door.gridftp.connections", opened, LongSupplier::getAsLong).tag("outcome", "opened")
                .description(what).register(registry);
        FunctionCounter.builder("gridcache.door.gridftp.connections", reused, LongSupplier::getAsLong).tag("outcome", "reused")
                .description(what).register(registry);
        Gauge.builder("gridcache.door.gridftp.idle.connections", idle, LongSupplier::getAsLong)
                .description("authenticated GridFTP control connections kept idle for the next lookup").register(registry);
    }

    PrometheusMeterRegistry registry() {
        return registry;
    }

    public void request(String method, int status) {
        String methodLabel = METHODS.contains(method) ? method : OTHER;
        String statusLabel = status >= 100 && status <= 599 ? String.valueOf(status) : OTHER;
        requests.computeIfAbsent(methodLabel + " " + statusLabel, key -> {
            LongAdder count = new LongAdder();
            FunctionCounter.builder("gridcache.door.requests", count, LongAdder::sum)
                    .tags("method", methodLabel, "status", statusLabel)
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

    /** A request refused for want of valid credentials (a 401). */
    public void authenticationFailure(AuthFailure why) {
        String reason = why.label();
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
