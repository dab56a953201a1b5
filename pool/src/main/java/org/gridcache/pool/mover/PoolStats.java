package org.gridcache.pool.mover;

import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Tags;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.DoubleSupplier;
import java.util.function.LongSupplier;
import org.gridcache.zk.ZooKeeperConnection;

/**
 * The pool's transfer counters since it started, read by its MXBean, its {@code /pools} record and its Prometheus
 * registry (which this class owns; {@code gridcache_pool_…}, tagged {@code pool=<name>}). Counting is a LongAdder
 * increment on the event loop, nothing more. No label is taken from a request (no method, path or reason): the
 * only one, the status, is bounded to 0 and 100–599, anything else counting as {@code other}.
 */
public final class PoolStats {
    private final LongAdder hits = new LongAdder();
    private final LongAdder misses = new LongAdder();
    private final LongAdder hitBytes = new LongAdder();
    private final LongAdder missBytes = new LongAdder();
    private final LongAdder pipeliningLimits = new LongAdder();
    private final LongAdder tpcPullBytes = new LongAdder();
    private final LongAdder tpcPushBytes = new LongAdder();
    private final LongAdder tpcFailures = new LongAdder();
    private final Map<Integer, LongAdder> responses = new ConcurrentHashMap<>();
    private final PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    private volatile List<LongSupplier> gridFtpConnectionCounts = List.of();
    private volatile List<LongSupplier> receiveMemoryCounts = List.of();
    private volatile List<DoubleSupplier> watermarks = List.of();

    public PoolStats(String poolName) {
        registry.config().commonTags(Tags.of("pool", poolName));
        counter("gridcache.pool.hits", null, hits, "transfers served from the store");
        counter("gridcache.pool.misses", null, misses, "transfers that needed (or joined) a fetch from the origin");
        counter("gridcache.pool.hit.bytes", "bytes", hitBytes, "bytes sent to clients from complete stored files");
        counter("gridcache.pool.miss.bytes", "bytes", missBytes, "bytes sent to clients while or after fetching them");
        counter("gridcache.pool.pipelining.limits", null, pipeliningLimits,
                "connections that pipelined more requests than may wait (answered 503 and closed)");
        FunctionCounter.builder("gridcache.pool.tpc.bytes", tpcPullBytes, LongAdder::sum).baseUnit("bytes").tag("direction", "pull")
                .description("bytes moved by third-party copies").register(registry);
        FunctionCounter.builder("gridcache.pool.tpc.bytes", tpcPushBytes, LongAdder::sum).baseUnit("bytes").tag("direction", "push")
                .description("bytes moved by third-party copies").register(registry);
        counter("gridcache.pool.tpc.failures", null, tpcFailures, "third-party copies that ended with a failure line");
    }

    private void counter(String name, String unit, LongAdder value, String description) {
        FunctionCounter.builder(name, value, LongAdder::sum).baseUnit(unit).description(description).register(registry);
    }

    /**
     * GridFTP reads' control connections: {@code opened} (each a GSI handshake) and {@code reused} (an idle one taken
     * instead) count up, {@code idle} is how many wait for reuse now.
     */
    public void gridFtpConnections(LongSupplier opened, LongSupplier reused, LongSupplier idle) {
        // micrometer holds a meter's state object weakly: the suppliers (often method references made for this call)
        // must be held here, or a collection turns the meters into NaN
        gridFtpConnectionCounts = List.of(opened, reused, idle);
        FunctionCounter.builder("gridcache.pool.gridftp.connections", opened, LongSupplier::getAsLong).tag("outcome", "opened")
                .description("GSI control connections for GridFTP reads: opened (a handshake) or reused (an idle one)").register(registry);
        FunctionCounter.builder("gridcache.pool.gridftp.connections", reused, LongSupplier::getAsLong).tag("outcome", "reused")
                .description("GSI control connections for GridFTP reads: opened (a handshake) or reused (an idle one)").register(registry);
        Gauge.builder("gridcache.pool.gridftp.idle.connections", idle, s -> s.getAsLong())
                .description("authenticated GridFTP control connections kept idle for reuse").register(registry);
    }

    /**
     * The direct memory fetches receive into, outside Netty's pool: {@code allocated} counts up, {@code held} is what is
     * in use or kept for reuse now, {@code waiting} the part kept for reuse.
     */
    public void receiveMemory(LongSupplier allocated, LongSupplier held, LongSupplier waiting) {
        receiveMemoryCounts = List.of(allocated, held, waiting); // held strongly: see gridFtpConnections
        FunctionCounter.builder("gridcache.pool.receive.memory.allocated", allocated, LongSupplier::getAsLong).baseUnit("bytes")
                .description("direct memory allocated for the bytes fetches receive (new slabs of 1 MiB)").register(registry);
        Gauge.builder("gridcache.pool.receive.memory", held, LongSupplier::getAsLong).baseUnit("bytes")
                .description("direct memory held for the bytes fetches receive: in use, or kept for reuse").register(registry);
        Gauge.builder("gridcache.pool.receive.memory.waiting", waiting, LongSupplier::getAsLong).baseUnit("bytes")
                .description("direct memory kept for the bytes the next fetches receive").register(registry);
    }

    /** The eviction watermarks now, as fractions of the capacity: {@code used} past {@code high} starts an eviction. */
    public void watermarks(DoubleSupplier high, DoubleSupplier low) {
        watermarks = List.of(high, low); // held strongly: see gridFtpConnections
        Gauge.builder("gridcache.pool.watermark.high", high, DoubleSupplier::getAsDouble).baseUnit("ratio")
                .description("the fraction of the capacity past which eviction starts").register(registry);
        Gauge.builder("gridcache.pool.watermark.low", low, DoubleSupplier::getAsDouble).baseUnit("ratio")
                .description("the fraction of the capacity eviction brings the store back to").register(registry);
    }

    /** The pool's ZooKeeper connection: one gauge per state, 1 for the state now. */
    public void zooKeeper(ZooKeeperConnection connection) {
        for (ZooKeeperConnection.State state : ZooKeeperConnection.State.values()) {
            Gauge.builder("gridcache.pool.zookeeper.connection", connection, c -> c.is(state)).tag("state", state.label())
                    .description("1 for the state of this pool's ZooKeeper connection now").register(registry);
        }
    }

    public PrometheusMeterRegistry registry() {
        return registry;
    }

    /** A mover ended: what it sent, and whether from a stored file. */
    public void transfer(boolean hit, long bytes) {
        (hit ? hits : misses).increment();
        (hit ? hitBytes : missBytes).add(bytes);
    }

    /** A third-party copy ended: its direction, outcome and the bytes it moved. */
    public void thirdPartyCopy(boolean pull, boolean succeeded, long bytes) {
        (pull ? tpcPullBytes : tpcPushBytes).add(bytes);
        if (!succeeded) {
            tpcFailures.increment();
        }
    }

    /** Any answer the pool sent, by status (0: the connection ended before a status went out). */
    public void response(int status) {
        // the pool chooses its statuses, yet the label set stays fixed whatever a bug or a relayed origin status does
        responses.computeIfAbsent(status == 0 || (status >= 100 && status <= 599) ? status : -1, s -> {
            LongAdder count = new LongAdder();
            FunctionCounter.builder("gridcache.pool.responses", count, LongAdder::sum).tag("status", s < 0 ? "other" : String.valueOf(s))
                    .description("answers to clients by HTTP status").register(registry);
            return count;
        }).increment();
    }

    /** A connection pipelined more requests than may wait behind the one in progress. */
    public void pipeliningLimitReached() {
        pipeliningLimits.increment();
    }

    public long hits() {
        return hits.sum();
    }

    public long misses() {
        return misses.sum();
    }

    public long hitBytes() {
        return hitBytes.sum();
    }

    public long missBytes() {
        return missBytes.sum();
    }

}
