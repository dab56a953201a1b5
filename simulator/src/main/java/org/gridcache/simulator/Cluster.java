package org.gridcache.simulator;

import org.gridcache.common.settings.ClusterSettings;

/**
 * The simulated cluster: {@code pools} pools of {@code capacity} bytes each, {@code concurrency} reads under way at
 * once (see {@link ActiveReads}), and the cluster settings the real policies read (spill load, watermarks).
 */
public record Cluster(int pools, long capacity, int concurrency, ClusterSettings settings) {
    public Cluster {
        if (pools < 1 || capacity < 1 || concurrency < 1 || settings == null) {
            throw new IllegalArgumentException("a cluster needs pools >= 1, capacity >= 1 byte, concurrency >= 1 and settings; got "
                    + pools + ", " + capacity + ", " + concurrency);
        }
    }
}
