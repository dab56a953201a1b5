package org.gridcache.zk;

import java.io.Closeable;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import org.apache.curator.framework.CuratorFramework;
import org.gridcache.common.PoolRecord;
import org.gridcache.common.Ticket;
import org.gridcache.common.TicketKeys;

/**
 * The ticket keys a pool verifies with, as the cluster publishes them: each door's in its {@code /doors/<id>} record
 * (the current key and, during a roll-over, the previous one), each pool's in its {@code /pools/<name>} record. A key
 * counts for the issuer whose znode holds it (ZooKeeper's ACLs let only that node write there), never for the name a
 * record claims; a key that is no longer published verifies nothing from that moment on. Both kinds of record are
 * checked ({@link RecordChecks#doorTicketKeys}, {@link RecordChecks#pool}); a bad one is left out with an error line,
 * and its issuer's tickets verify with nothing.
 */
public final class PublishedTicketKeys implements TicketKeys, Closeable {
    private final WatchedJsonTree<Map<String, byte[]>> doors;
    private final PoolDirectory pools;
    /** By door id, then kid. */
    private volatile Map<String, Map<String, byte[]>> doorKeys = Map.of();

    public PublishedTicketKeys(CuratorFramework client, PoolDirectory pools) {
        this.pools = pools;
        this.doors = new WatchedJsonTree<>(client, ZkLayout.DOORS, WatchedJsonTree.Scope.CHILDREN, "door",
                RecordChecks::doorTicketKeys, this::rebuild);
    }

    /** Waits for the first reading of {@code /doors}; throws {@link IllegalStateException} when it takes longer. */
    public PublishedTicketKeys start(Duration initialWait) throws InterruptedException {
        doors.start(initialWait);
        return this;
    }

    private void rebuild(Map<String, Map<String, byte[]>> nodes) {
        Map<String, Map<String, byte[]>> next = new HashMap<>();
        nodes.forEach((path, byKid) -> next.put(path.substring(path.lastIndexOf('/') + 1), byKid));
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
        return keys == null ? null : keys.get(kid);
    }

    @Override
    public void close() {
        doors.close();
    }
}
