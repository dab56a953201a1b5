package org.gridcache.door.ops;

/**
 * JMX {@code org.gridcache:type=Cluster}: the pools this door sees and the selection policy. {@code Policy} is
 * writable ({@code set Policy random}, or the operation {@code setPolicy(random)}); the change goes to ZooKeeper
 * {@code /config}, so every door applies it, as {@code gridcache config set selection.policy random} would.
 */
public interface ClusterMXBean {
    /** One line per live pool: id, site, state, load, transfers, free and capacity, hit rate, URL. */
    String[] getPools();

    int getLivePools();

    /** Pools a new read may go to (not draining, not suspect). */
    int getSelectablePools();

    /** One line per pool this door cannot reach now (id, why, for how long, URL): it sends them no new read. */
    String[] getSuspectPools();

    String getPolicy();

    void setPolicy(String policy);

    String[] getPolicies();
}
