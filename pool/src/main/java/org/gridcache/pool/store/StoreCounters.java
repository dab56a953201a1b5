package org.gridcache.pool.store;

import java.util.concurrent.atomic.LongAdder;

/** What the store counts for the pool's metrics and JMX: bytes filled from where, evictions, checksum work. */
public final class StoreCounters {
    private final LongAdder evictions = new LongAdder();
    private final LongAdder evictedBytes = new LongAdder();
    private final LongAdder originBytes = new LongAdder();
    private final LongAdder peerBytes = new LongAdder();
    private final LongAdder checksumMismatches = new LongAdder();
    private final LongAdder checksumsOnDemand = new LongAdder();

    void filled(long bytes, boolean fromPeer) {
        (fromPeer ? peerBytes : originBytes).add(bytes);
    }

    void evicted(long bytes) {
        evictions.increment();
        evictedBytes.add(bytes);
    }

    /** Bytes read from an origin that no commit counts: blocks (proven or not), and what failed fetches had read. */
    public void countOriginBytes(long bytes) {
        originBytes.add(bytes);
    }

    /** A fetch was discarded because its bytes did not have the origin's checksum. */
    public void checksumMismatch() {
        checksumMismatches.increment();
    }

    /** A stored file was read to compute checksums that a client asked for and its fill had not computed. */
    void checksumsComputedOnDemand() {
        checksumsOnDemand.increment();
    }

    public long evictions() {
        return evictions.sum();
    }

    public long evictedBytes() {
        return evictedBytes.sum();
    }

    /** Bytes read from origins into this store since start: complete fetches, and what failed fetches had read. */
    public long originBytes() {
        return originBytes.sum();
    }

    /** Bytes of stored files that were pulled from other pools rather than the origin. */
    public long peerBytes() {
        return peerBytes.sum();
    }

    public long checksumMismatches() {
        return checksumMismatches.sum();
    }

    public long checksumComputationsOnDemand() {
        return checksumsOnDemand.sum();
    }
}
