package org.gridcache.pool.ops;

import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.function.Supplier;
import java.util.function.ToDoubleFunction;
import org.gridcache.common.GridPath;
import org.gridcache.common.Mbeans;
import org.gridcache.common.origin.OriginEntry;
import org.gridcache.common.cluster.PoolRecord;
import org.gridcache.common.ticket.Ticket;
import org.gridcache.pool.mover.Movers;
import org.gridcache.pool.mover.PoolStats;
import org.gridcache.pool.store.Store;
import org.gridcache.pool.store.StoreEntry;
import org.gridcache.pool.store.StoreKey;
import org.gridcache.zk.MountTable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What an admin sees of and does to a pool (issue 6): its state (drained, read-only), its MXBean, its Prometheus
 * gauges, and eviction of one path. A state change is published in {@code /pools/<name>} at once, so doors stop (or
 * resume) sending clients here; the pool itself refuses what its state excludes, for clients that hold a ticket
 * issued just before.
 */
public final class PoolOperations implements PoolMXBean, AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(PoolOperations.class);
    private final String name;
    private final String site;
    private final Supplier<String> url;
    private final Store store;
    private final Movers movers;
    private final PoolStats stats;
    private final MountTable mounts;
    private final Runnable publish;
    private final AutoCloseable mbean;
    private volatile boolean draining;
    private volatile boolean readOnly;

    public PoolOperations(String name, String site, Supplier<String> url, Store store, Movers movers, PoolStats stats, MountTable mounts,
                   Runnable publish) {
        this.name = name;
        this.site = site;
        this.url = url;
        this.store = store;
        this.movers = movers;
        this.stats = stats;
        this.mounts = mounts;
        this.publish = publish;
        bindGauges(stats.registry());
        this.mbean = Mbeans.register("type=Pool,name=" + name, PoolMXBean.class, this);
    }

    private void bindGauges(MeterRegistry registry) {
        gauge(registry, "gridcache.pool.capacity", "bytes", store, s -> s.capacity(), "store capacity");
        gauge(registry, "gridcache.pool.used", "bytes", store, s -> s.used(), "bytes stored or reserved for fetches in flight");
        gauge(registry, "gridcache.pool.free", "bytes", store, s -> s.freeBytes(), "capacity minus used");
        gauge(registry, "gridcache.pool.files", null, store, s -> s.files(), "complete files in the store");
        gauge(registry, "gridcache.pool.unverified.files", null, store, s -> s.unverifiedFiles(),
                "files found at start-up whose sidecars are not yet read (proven before they are served)");
        gauge(registry, "gridcache.pool.store.rebuild", "seconds", store, s -> s.rebuildMillis() / 1000.0,
                "how long the start-up's index rebuild took");
        gauge(registry, "gridcache.pool.partial.files", null, store, s -> s.blocks().size(),
                "partial files in the store (some blocks of a file, from block reads)");
        gauge(registry, "gridcache.pool.active.transfers", null, movers, m -> m.active(), "client transfers in progress");
        gauge(registry, "gridcache.pool.draining", null, this, p -> p.draining ? 1 : 0, "1 while the pool is drained");
        gauge(registry, "gridcache.pool.readonly", null, this, p -> p.readOnly ? 1 : 0, "1 while the pool fetches nothing new");
        gauge(registry, "gridcache.pool.netty.direct", "bytes", org.gridcache.pool.http.AlignedBuffers.ALLOCATOR.metric(),
                m -> m.usedDirectMemory(), "direct memory held by Netty's buffer pool: requests, fills and responses in flight");
        FunctionCounter.builder("gridcache.pool.peer.bytes", store.counters(), org.gridcache.pool.store.StoreCounters::peerBytes).baseUnit("bytes")
                .description("bytes of stored files pulled from other pools").register(stats.registry());
        FunctionCounter.builder("gridcache.pool.origin.bytes", store.counters(), org.gridcache.pool.store.StoreCounters::originBytes).baseUnit("bytes")
                .description("bytes read from origins, each fetch counted once").register(registry);
        FunctionCounter.builder("gridcache.pool.evictions", store.counters(), org.gridcache.pool.store.StoreCounters::evictions)
                .description("files evicted (watermarks or admin)").register(registry);
        FunctionCounter.builder("gridcache.pool.evicted.bytes", store.counters(), org.gridcache.pool.store.StoreCounters::evictedBytes).baseUnit("bytes")
                .description("bytes evicted").register(registry);
        FunctionCounter.builder("gridcache.pool.checksum.mismatches", store.counters(), org.gridcache.pool.store.StoreCounters::checksumMismatches)
                .description("fetches discarded: the bytes did not have the origin's checksum").register(registry);
        FunctionCounter.builder("gridcache.pool.checksums.on.demand", store.counters(), org.gridcache.pool.store.StoreCounters::checksumComputationsOnDemand)
                .description("stored files read to compute a checksum a client asked for that their fill had not computed")
                .register(registry);
    }

    private static <T> void gauge(MeterRegistry registry, String name, String unit, T target, ToDoubleFunction<T> value,
                                  String description) {
        Gauge.builder(name, target, value).baseUnit(unit).description(description).register(registry);
    }

    /** The Prometheus text of {@code /.gridcache/metrics}. */
    public String scrape() {
        return stats.registry().scrape();
    }

    /**
     * Why this pool refuses a new transfer now (a 503 reason), or null when it takes it: drained, or read-only and
     * without a current copy of the file.
     */
    public String refusal(Ticket ticket) {
        if (draining) {
            return "pool " + name + " is drained for maintenance: ask the door again";
        }
        if (readOnly) {
            StoreEntry entry = store.lookup(StoreKey.ofOrigin(ticket.originUrl()));
            if (entry == null || entry.isStaleFor(ticket.size(), ticket.mtime())) {
                return "pool " + name + " is read-only and holds no current copy of " + ticket.path() + ": ask the door again";
            }
        }
        return null;
    }

    public String state() {
        return draining ? PoolRecord.DRAINING : readOnly ? PoolRecord.READONLY : PoolRecord.ENABLED;
    }

    // --- PoolMXBean ---

    @Override
    public String getName() {
        return name;
    }

    @Override
    public String getUrl() {
        return url.get();
    }

    @Override
    public String getSite() {
        return site;
    }

    @Override
    public String getState() {
        return state();
    }

    @Override
    public long getCapacityBytes() {
        return store.capacity();
    }

    @Override
    public long getUsedBytes() {
        return store.used();
    }

    @Override
    public long getFreeBytes() {
        return store.freeBytes();
    }

    @Override
    public int getFiles() {
        return store.files();
    }

    @Override
    public long getHits() {
        return stats.hits();
    }

    @Override
    public long getMisses() {
        return stats.misses();
    }

    @Override
    public long getHitBytes() {
        return stats.hitBytes();
    }

    @Override
    public long getMissBytes() {
        return stats.missBytes();
    }

    @Override
    public long getOriginBytes() {
        return store.counters().originBytes();
    }

    @Override
    public long getPeerBytes() {
        return store.counters().peerBytes();
    }

    @Override
    public int getActiveTransfers() {
        return movers.active();
    }

    @Override
    public long getEvictions() {
        return store.counters().evictions();
    }

    @Override
    public long getEvictedBytes() {
        return store.counters().evictedBytes();
    }

    @Override
    public boolean isDraining() {
        return draining;
    }

    @Override
    public boolean isReadOnly() {
        return readOnly;
    }

    @Override
    public void setReadOnly(boolean readOnly) {
        this.readOnly = readOnly;
        LOG.info("pool {}: read-only {} (by an admin)", name, readOnly ? "on" : "off");
        publish.run();
    }

    @Override
    public String drain() {
        draining = true;
        publish.run();
        int active = movers.active();
        LOG.info("pool {}: draining (by an admin), {} transfers still running", name, active);
        return "pool " + name + " draining: no new transfers; " + active + " still running (see ActiveTransfers)";
    }

    @Override
    public String resume() {
        draining = false;
        readOnly = false;
        publish.run();
        LOG.info("pool {}: enabled again (by an admin)", name);
        return "pool " + name + " enabled";
    }

    @Override
    public String evict(String path) {
        if (path == null || path.isBlank()) {
            throw new IllegalArgumentException("evict needs a namespace path, e.g. /data/file.bin");
        }
        String normalized;
        try {
            normalized = GridPath.normalize(path.trim());
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("bad path '" + path + "': " + e.getMessage());
        }
        OriginEntry origin = mounts.resolve(normalized)
                .orElseThrow(() -> new IllegalArgumentException("no origin is mounted at " + normalized));
        String originUrl = origin.urlOf(normalized);
        long size;
        try {
            size = store.evict(StoreKey.ofOrigin(originUrl));
        } catch (IllegalStateException e) {
            throw new IllegalStateException("cannot evict " + normalized + ": " + e.getMessage());
        }
        if (size < 0) {
            return "not cached in pool " + name + ": " + normalized + " (" + originUrl + ")";
        }
        LOG.info("pool {}: evicted {} ({}, {} bytes) by an admin", name, normalized, originUrl, size);
        return "evicted " + normalized + " (" + size + " bytes) from pool " + name;
    }

    @Override
    public void close() {
        try {
            mbean.close();
        } catch (Exception e) {
            LOG.debug("unregistering the pool MXBean: {}", e.toString());
        }
        stats.registry().close();
    }
}
