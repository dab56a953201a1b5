package org.gridcache.zk;

import org.gridcache.zk.layout.ZkLayout;
import java.io.Closeable;
import java.time.Clock;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import org.apache.curator.framework.CuratorFramework;
import org.gridcache.common.cluster.PoolRecord;
import org.gridcache.common.ticket.Ticket;
import org.gridcache.common.ticket.TicketKeys;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The ticket keys a pool verifies with, as the cluster publishes them: each door's in its {@code /doors/<id>} record
 * (the current key and, during a roll-over, the previous one), each pool's in its {@code /pools/<name>} record. A key
 * counts for the issuer whose znode holds it (ZooKeeper's ACLs let only that node write there), never for the name a
 * record claims; a key that is no longer published verifies nothing from that moment on. Both kinds of record are
 * checked ({@link RecordChecks#doorTicketKeys}, {@link RecordChecks#pool}); a bad one is left out with an error line,
 * and its issuer's tickets verify with nothing.
 *
 * <p>A door record that vanishes lets its keys verify for {@link #VANISHED_LINGER} more. After a ZooKeeper outage
 * longer than the sessions, the ensemble expires the door's old session and deletes its record just before the door's
 * new session creates it again ({@code EphemeralRegistration}): without the linger, the tickets a live door handed out
 * a moment ago are refused in between (seen under load in {@code ZooKeeperOutageTest}). A key retired by a rewrite of
 * the record (the end of a roll-over) stops verifying at once, as before; only a record's disappearance lingers, so a
 * door removed by an admin, or dead, is trusted for that long more (its tickets lived up to 10 minutes anyway).
 */
public final class PublishedTicketKeys implements TicketKeys, Closeable {
    /** How long a vanished door record's keys still verify: a re-registration takes a round trip or two, not this. */
    public static final Duration VANISHED_LINGER = Duration.ofSeconds(30);
    private static final Logger LOG = LoggerFactory.getLogger(PublishedTicketKeys.class);
    private final WatchedJsonTree<Map<String, byte[]>> doors;
    private final PoolDirectory pools;
    /** By door id, then kid. */
    private volatile Map<String, Map<String, byte[]>> doorKeys = Map.of();
    /** The keys of door records that vanished less than {@link #linger} ago, by door id. */
    private volatile Map<String, Vanished> vanished = Map.of();
    private final Clock clock;
    private final Duration linger;

    private record Vanished(Map<String, byte[]> keys, long untilMillis) {
    }

    public PublishedTicketKeys(CuratorFramework client, PoolDirectory pools) {
        this(client, pools, Clock.systemUTC(), VANISHED_LINGER);
    }

    PublishedTicketKeys(CuratorFramework client, PoolDirectory pools, Clock clock, Duration linger) {
        this.pools = pools;
        this.clock = clock;
        this.linger = linger;
        this.doors = new WatchedJsonTree<>(client, ZkLayout.DOORS, WatchedJsonTree.Scope.CHILDREN, "door",
                RecordChecks::doorTicketKeys, this::rebuild);
    }

    /** Waits for the first reading of {@code /doors}; throws {@link IllegalStateException} when it takes longer. */
    public PublishedTicketKeys start(Duration initialWait) throws InterruptedException {
        doors.start(initialWait);
        return this;
    }

    private synchronized void rebuild(Map<String, Map<String, byte[]>> nodes) {
        Map<String, Map<String, byte[]>> next = new HashMap<>();
        nodes.forEach((path, byKid) -> next.put(path.substring(path.lastIndexOf('/') + 1), byKid));
        long now = clock.millis();
        Map<String, Vanished> gone = new HashMap<>();
        vanished.forEach((door, v) -> {
            if (!next.containsKey(door) && v.untilMillis() > now) {
                gone.put(door, v);
            }
        });
        doorKeys.forEach((door, keys) -> {
            if (!next.containsKey(door)) {
                LOG.info("the record of door {} is gone: its ticket keys verify for {} s more unless it registers again",
                        door, linger.toSeconds());
                gone.put(door, new Vanished(keys, now + linger.toMillis()));
            }
        });
        vanished = Map.copyOf(gone);
        doorKeys = Map.copyOf(next);
    }

    @Override
    public byte[] publicKey(String issuer, String kid) {
        if (issuer.startsWith(Ticket.POOL_ISSUER)) {
            String name = issuer.substring(Ticket.POOL_ISSUER.length());
            for (PoolRecord p : pools.live()) {
                if (p.id().equals(name) && p.ticketKey() != null) {
                    try {
                        TicketKeys.Published key = TicketKeys.parsePublished(p.ticketKey());
                        return key.kid().equals(kid) ? key.publicKey() : null;
                    } catch (IllegalArgumentException e) {
                        return null; // RecordChecks.pool refused such a record already
                    }
                }
            }
            return null;
        }
        Map<String, byte[]> keys = doorKeys.get(issuer);
        if (keys == null) {
            Vanished v = vanished.get(issuer);
            keys = v != null && clock.millis() < v.untilMillis() ? v.keys() : null;
        }
        return keys == null ? null : keys.get(kid);
    }

    @Override
    public void close() {
        doors.close();
    }
}
