package org.gridcache.pool.ops;

/**
 * JMX {@code org.gridcache:type=Pool,name=<name>}: one pool's store and transfers, and what an admin does to it.
 * Counters run since the pool started. {@code ReadOnly} is writable: {@code set ReadOnly true} or, equally, the
 * operation {@code setReadOnly(true)}.
 */
public interface PoolMXBean {
    String getName();

    String getUrl();

    String getSite();

    /** enabled, draining or readonly, as published in {@code /pools/<name>}. */
    String getState();

    long getCapacityBytes();

    long getUsedBytes();

    long getFreeBytes();

    int getFiles();

    long getHits();

    long getMisses();

    long getHitBytes();

    long getMissBytes();

    /** Bytes read from origins into the store. */
    long getOriginBytes();

    /** Bytes read from other pools (none in this version). */
    long getPeerBytes();

    int getActiveTransfers();

    long getEvictions();

    long getEvictedBytes();

    boolean isDraining();

    boolean isReadOnly();

    /** true: serve what the store holds, fetch nothing new (misses get 503); doors prefer other pools. */
    void setReadOnly(boolean readOnly);

    /** Removes the stored copy of a namespace path (resolved through the mount table to its origin URL). */
    String evict(String path);

    /** Takes no new transfer (doors stop choosing this pool; late clients get 503); running ones finish. */
    String drain();

    /** Ends a drain or read-only period: the pool takes every transfer again. */
    String resume();
}
