package org.gridcache.simulator;

import java.util.Arrays;

/**
 * What one policy did with one trace. Every read ends in exactly one way: a {@code hit} (a complete copy on the pool
 * that served it, also after random's redirect to a peer that holds it), {@code joined} (a fetch already under way on
 * that pool: no new origin read, but a miss, as the pool's transfer record says), {@code pulled} from a peer pool,
 * fetched from the {@code origin}, or {@code refused} (larger than a pool's whole store: 507).
 * {@code originBytes} counts each origin fetch once, including the fetch an owner pool makes for a peer that pulls
 * through it. {@code questions}: "do you hold it?" asked of peer pools, the price of cooperation the hit ratio does
 * not show (random asks every peer on each miss, affinity only the pools ranked above the one chosen).
 */
public record Result(String policy, String workload, long reads, long hits, long joined, long pulled, long origin,
                     long refused, long originBytes, long questions, String[] poolIds, long[] requests, long[] bytesServed, long evictions) {

    public Result {
        if (hits + joined + pulled + origin + refused != reads) {
            throw new IllegalStateException(policy + "/" + workload + ": " + reads + " reads but " + hits + " hits, " + joined
                    + " joined, " + pulled + " pulled, " + origin + " from the origin, " + refused + " refused");
        }
        if (Arrays.stream(requests).sum() != reads - refused) {
            throw new IllegalStateException(policy + "/" + workload + ": pools served " + Arrays.stream(requests).sum()
                    + " of " + (reads - refused) + " reads");
        }
    }

    /** Reads served from a complete copy, over all reads; 0 for an empty trace. */
    public double hitRatio() {
        return reads == 0 ? 0 : (double) hits / reads;
    }

    /**
     * The busiest pool's bytes over the mean: 1 is perfectly even, the pool count means one pool served everything.
     * Bytes rather than requests, because a pool's bottleneck is its network; 1 when nothing was served.
     */
    public double imbalance() {
        long total = Arrays.stream(bytesServed).sum();
        if (total == 0) {
            return 1;
        }
        long max = Arrays.stream(bytesServed).max().orElse(0);
        return max / ((double) total / bytesServed.length);
    }
}
