package org.gridcache.door.ops;

import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import org.gridcache.common.settings.SelectionPolicy;
import org.gridcache.common.settings.ClusterSettings.Keys;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.IntSupplier;
import java.util.function.Supplier;
import org.apache.curator.framework.CuratorFramework;
import org.gridcache.common.ByteSize;
import org.gridcache.common.settings.ClusterSettings;
import org.gridcache.common.Mbeans;
import org.gridcache.common.cluster.PoolRecord;
import org.gridcache.door.liveness.PoolLiveness;
import org.gridcache.zk.ClusterConfig;
import org.gridcache.zk.PoolDirectory;
import org.gridcache.zk.ZooKeeperConnection;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What an admin sees of a door (issue 6): its counters, the MXBeans {@code type=Door} and {@code type=Cluster}, the
 * Prometheus registry behind {@code /.gridcache/metrics}, and the services under {@code /.gridcache/}.
 */
public final class DoorOperations implements DoorMXBean, AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(DoorOperations.class);
    private final String id;
    private final PoolDirectory pools;
    private final PoolLiveness liveness;
    private final Supplier<List<PoolRecord>> selectable;
    private final ClusterConfig config;
    private final CuratorFramework zk;
    private final DoorStats stats;
    private final ZooKeeperConnection zooKeeper;
    private final List<AutoCloseable> registrations = new ArrayList<>();
    private volatile String url = "";
    private volatile IntSupplier openConnections = () -> 0;

    /** {@code selectable}: the pools a new read may go to (ZooKeeper's, less those {@code liveness} holds suspect). */
    public DoorOperations(String id, PoolDirectory pools, PoolLiveness liveness, Supplier<List<PoolRecord>> selectable,
                          ClusterConfig config, CuratorFramework zk) {
        this.id = id;
        this.pools = pools;
        this.liveness = liveness;
        this.selectable = selectable;
        this.config = config;
        this.zk = zk;
        this.stats = new DoorStats(id);
        Gauge.builder("gridcache.door.open.connections", this, d -> d.getOpenConnections())
                .description("client connections open now").register(stats.registry());
        Gauge.builder("gridcache.door.pools.live", pools, p -> p.live().size())
                .description("pools registered in ZooKeeper").register(stats.registry());
        Gauge.builder("gridcache.door.pools.selectable", selectable, s -> s.get().size())
                .description("pools a new read may go to").register(stats.registry());
        Gauge.builder("gridcache.door.pools.suspect", liveness, PoolLiveness::suspectCount)
                .description("registered pools this door cannot reach (refused, closed, or pings unanswered): no new read goes "
                        + "there").register(stats.registry());
        FunctionCounter.builder("gridcache.door.pool.suspicions", liveness, PoolLiveness::suspicions)
                .description("times a pool became suspect").register(stats.registry());
        FunctionCounter.builder("gridcache.door.pool.recoveries", liveness, PoolLiveness::recoveries)
                .description("times a suspect pool answered again").register(stats.registry());
        this.zooKeeper = ZooKeeperConnection.watch(zk);
        registrations.add(zooKeeper);
        for (ZooKeeperConnection.State state : ZooKeeperConnection.State.values()) {
            Gauge.builder("gridcache.door.zookeeper.connection", zooKeeper, c -> c.is(state)).tag("state", state.label())
                    .description("1 for the state of this door's ZooKeeper connection now").register(stats.registry());
        }
        registrations.add(Mbeans.register("type=Door", DoorMXBean.class, this));
        // an MXBean object may be registered once only: the cluster view is an object of its own
        registrations.add(Mbeans.register("type=Cluster", ClusterMXBean.class, new ClusterView()));
    }

    public DoorStats stats() {
        return stats;
    }

    /** Called once the door listens. */
    public void serving(String url, IntSupplier openConnections) {
        this.url = url;
        this.openConnections = openConnections;
    }

    /** How many pools a new read may go to now. */
    public int selectableCount() {
        return selectable.get().size();
    }

    public String scrape() {
        return stats.registry().scrape();
    }

    // --- DoorMXBean ---

    @Override
    public String getId() {
        return id;
    }

    @Override
    public String getUrl() {
        return url;
    }

    @Override
    public java.util.Map<String, Long> getRequests() {
        return stats.requests();
    }

    @Override
    public long getRequestsTotal() {
        return stats.requestsTotal();
    }

    @Override
    public long getRedirects() {
        return stats.redirects();
    }

    @Override
    public long getProxiedBytes() {
        return stats.proxiedBytes();
    }

    @Override
    public int getOpenConnections() {
        return openConnections.getAsInt();
    }

    @Override
    public java.util.Map<String, Long> getAuthenticationFailures() {
        return stats.authenticationFailures();
    }

    static String line(PoolRecord p) {
        double rate = p.hitRate();
        return String.format(Locale.ROOT, "%s site=%s state=%s load=%.2f transfers=%d free=%s of %s hit-rate=%s url=%s",
                p.id(), p.site(), p.state(), p.load(), p.activeMovers(), ByteSize.format(p.freeBytes()),
                ByteSize.format(p.capacityBytes()), rate < 0 ? "-" : String.format(Locale.ROOT, "%.1f%%", rate * 100), p.url());
    }

    /** {@code type=Cluster}: the pools this door sees, the selection policy. */
    private final class ClusterView implements ClusterMXBean {

        @Override
        public String[] getPools() {
            return pools.live().stream().sorted(java.util.Comparator.comparing(PoolRecord::id)).map(DoorOperations::line)
                    .toArray(String[]::new);
        }

        @Override
        public int getLivePools() {
            return pools.live().size();
        }

        @Override
        public int getSelectablePools() {
            return selectable.get().size();
        }

        @Override
        public String[] getSuspectPools() {
            return liveness.suspects().toArray(String[]::new);
        }

        @Override
        public String getPolicy() {
            return config.current().get(Keys.SELECTION_POLICY).label();
        }

        @Override
        public void setPolicy(String policy) {
            String name = policy == null ? "" : policy.trim();
            ClusterSettings.validate(Keys.SELECTION_POLICY.key(), name); // IllegalArgumentException names the known ones
            try {
                ClusterConfig.set(zk, Keys.SELECTION_POLICY.key(), name);
            } catch (IllegalArgumentException e) {
                throw e;
            } catch (Exception e) {
                throw new IllegalStateException("cannot write /config in ZooKeeper: " + e.getMessage());
            }
            LOG.info("selection policy set to {} through JMX of door {}", name, id);
        }

        @Override
        public String[] getPolicies() {
            return SelectionPolicy.labels().toArray(String[]::new);
        }
    }

    @Override
    public void close() {
        for (AutoCloseable r : registrations) {
            try {
                r.close();
            } catch (Exception e) {
                LOG.debug("unregistering: {}", e.toString());
            }
        }
        stats.registry().close();
    }
}
