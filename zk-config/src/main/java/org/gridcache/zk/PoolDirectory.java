package org.gridcache.zk;

import org.gridcache.zk.layout.ZkLayout;
import java.io.Closeable;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.state.ConnectionState;
import org.apache.curator.framework.state.ConnectionStateListener;
import org.gridcache.common.Json;
import org.gridcache.common.cluster.PoolRecord;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The live pools as a door sees them: a Curator cache of {@code /pools}, turned into an immutable snapshot on every
 * change so that choosing a pool per request reads one volatile field and allocates nothing.
 *
 * <p>While ZooKeeper is unreachable the snapshot is the last one known, and it is used for a grace period
 * ({@code door.zk-grace}): pools keep serving without ZooKeeper, so a short outage of the whole ensemble should not
 * stop reads. Past the grace, the list is too old to trust (pools may have died) and {@link #live()} is empty.
 */
public final class PoolDirectory implements Closeable {
    private static final Logger LOG = LoggerFactory.getLogger(PoolDirectory.class);
    private final WatchedJsonTree<PoolRecord> tree;
    private final CuratorFramework client;
    private final Clock clock;
    private final ConnectionStateListener connection = this::connectionChanged;
    private volatile List<PoolRecord> pools = List.of();
    private volatile List<PoolRecord> selectable = List.of();
    private volatile Duration grace = Duration.ofMinutes(5);
    /** When the connection was lost (millis of {@link #clock}); -1 while connected. */
    private volatile long disconnectedAt = -1;

    public PoolDirectory(CuratorFramework client) {
        this(client, Clock.systemUTC());
    }

    PoolDirectory(CuratorFramework client, Clock clock) {
        this.client = client;
        this.clock = clock;
        this.tree = new WatchedJsonTree<>(client, ZkLayout.POOLS, WatchedJsonTree.Scope.CHILDREN, "pool",
                RecordChecks::pool, this::rebuild);
    }

    /** How long the last known pools stay usable while ZooKeeper is unreachable. */
    public void setGrace(Duration grace) {
        this.grace = grace;
    }

    private void connectionChanged(CuratorFramework c, ConnectionState state) {
        if (state.isConnected()) {
            if (disconnectedAt >= 0) {
                LOG.info("ZooKeeper is back after {} ms", clock.millis() - disconnectedAt);
            }
            disconnectedAt = -1;
        } else if (disconnectedAt < 0) {
            disconnectedAt = clock.millis();
            LOG.warn("ZooKeeper unreachable ({}): redirecting to the {} pools last known for up to {} s",
                    state, pools.size(), grace.toSeconds());
        }
    }

    /** Waits for the first reading of {@code /pools}; throws {@link IllegalStateException} when it takes longer. */
    public PoolDirectory start(Duration initialWait) throws InterruptedException {
        client.getConnectionStateListenable().addListener(connection);
        try {
            tree.start(initialWait);
        } catch (IllegalStateException e) {
            client.getConnectionStateListenable().removeListener(connection);
            throw e;
        }
        return this;
    }

    private void rebuild(Map<String, PoolRecord> nodes) {
        List<PoolRecord> next = List.copyOf(nodes.values());
        List<PoolRecord> enabled = next.stream().filter(p -> PoolRecord.ENABLED.equals(p.state())).toList();
        // read-only pools serve hits only: chosen when no enabled pool is left; draining pools never
        selectable = !enabled.isEmpty() ? enabled : next.stream().filter(PoolRecord::readOnly).toList();
        pools = List.copyOf(next);
    }

    /**
     * The pools registered now, whatever their state (empty when none is, or when ZooKeeper has been unreachable for
     * longer than the grace).
     */
    public List<PoolRecord> live() {
        return pastGrace() ? List.of() : pools;
    }

    private boolean pastGrace() {
        long since = disconnectedAt;
        return since >= 0 && clock.millis() - since > grace.toMillis();
    }

    /**
     * The pools a door may send a new read to: the enabled ones, or when there are none the read-only ones (they
     * serve what they hold); never a draining pool.
     */
    public List<PoolRecord> selectable() {
        return pastGrace() ? List.of() : selectable;
    }

    /** How long ZooKeeper has been unreachable, if it is now. */
    public Optional<Duration> disconnectedFor() {
        long since = disconnectedAt;
        return since < 0 ? Optional.empty() : Optional.of(Duration.ofMillis(clock.millis() - since));
    }

    @Override
    public void close() {
        client.getConnectionStateListenable().removeListener(connection);
        tree.close();
    }
}
