package org.gridcache.door.select;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.function.DoubleSupplier;
import org.gridcache.common.cluster.PoolRecord;

/**
 * Policy {@code affinity} (the default): weighted rendezvous hashing (Thaler and Ravishankar, "Using name-based
 * mappings to increase hit rates", IEEE/ACM ToN 1998; weighted form as in Schindelhauer and Schomaker, "Weighted
 * distributed hash tables", SPAA 2005). Every pool scores each path {@code weight / -ln(u)}, with {@code u} in
 * (0, 1) a hash of (pool, path) and the weight its capacity; the path belongs to the highest score. So a file
 * normally lives on one pool, and when a pool joins or leaves only the paths it wins or held move.
 *
 * <p>Spill: a pool whose published load is over {@code selection.spill-load} is passed over for the next in the
 * ranking, so a hot file gains copies under load; when every pool is over it, the plain ranking applies. Each
 * choice's ticket names the pools that score higher for the path (at most {@value #MAX_PEERS}, best first): a
 * pool that misses pulls from one of them that holds the file before it goes to the origin.
 */
public final class AffinitySelector implements PoolSelector {
    static final int MAX_PEERS = 3;
    private static final double BYTES_PER_WEIGHT_UNIT = 1L << 30;
    private final DoubleSupplier spillLoad;
    /** Per-pool hash seeds and weights, derived once per pool-directory snapshot (the list is immutable). */
    private volatile Prepared prepared = new Prepared(List.of(), new long[0], new double[0], new double[0], 0, new Counts());

    /**
     * {@code redirected}: clients this door sent to each pool since the snapshot, added to its published load, so that
     * a burst spills before the pools publish again (every change of any pool's record makes a new snapshot). Idle
     * pools publish nothing new, so the count also starts afresh after {@link #COUNT_WINDOW_NANOS}, by which time a
     * busy pool's own publication (every 2 s) includes those clients.
     */
    private record Prepared(List<PoolRecord> live, long[] seeds, double[] weights, double[] loads, double maxWeight,
                            Counts counts) {
        AtomicIntegerArray redirected() {
            return counts.current(seeds.length);
        }
    }

    private static final long COUNT_WINDOW_NANOS = 2_000_000_000L;

    /** The redirect counts of one snapshot, replaced when older than the window. */
    private static final class Counts {
        private volatile AtomicIntegerArray counts;
        private volatile long since = System.nanoTime();

        AtomicIntegerArray current(int n) {
            AtomicIntegerArray c = counts;
            long now = System.nanoTime();
            if (c == null || now - since > COUNT_WINDOW_NANOS) {
                c = new AtomicIntegerArray(n); // a racing thread may lose a count or two: harmless
                counts = c;
                since = now;
            }
            return c;
        }
    }

    public AffinitySelector(DoubleSupplier spillLoad) {
        this.spillLoad = spillLoad;
    }

    @Override
    public List<Choice> rank(String path, List<PoolRecord> live, int max) {
        Prepared p = prepare(live);
        int n = live.size();
        int k = Math.min(max, n);
        double spill = spillLoad.getAsDouble();
        AtomicIntegerArray redirected = p.redirected();
        long pathHash = hash(path);
        TopK all = new TopK(Math.min(n, k + MAX_PEERS));
        TopK calm = new TopK(k);
        // Most pools cannot enter the top few: a draw at or below exp(-maxWeight / threshold) rules a pool out without
        // its logarithm, or its load. The cuts are kept as draw bits (see drawBits), so that the loop over the pools
        // is a hash and a comparison for nearly all of them.
        long[] seeds = p.seeds;
        long cutAll = -1;
        long cutCalm = -1;
        long cutEither = -1; // min(cutAll, cutCalm): below it no pool enters either ranking
        for (int i = 0; i < seeds.length; i++) {
            long bits = drawBits(seeds[i], pathHash);
            if (bits <= cutEither) {
                continue;
            }
            boolean isCalm = p.loads[i] + redirected.get(i) <= spill;
            if (!isCalm && bits <= cutAll) {
                continue;
            }
            double score = p.weights[i] / -Math.log(uniform(bits));
            if (all.offer(i, score)) {
                cutAll = cutoffBits(p.maxWeight, all.threshold());
            }
            if (isCalm && calm.offer(i, score)) {
                cutCalm = cutoffBits(p.maxWeight, calm.threshold());
            }
            cutEither = Math.min(cutAll, cutCalm);
        }
        List<Choice> out = new ArrayList<>(k);
        for (int r = 0; r < calm.size(); r++) {
            out.add(choice(live, all, calm.index(r), calm.score(r)));
        }
        if (out.size() < k) {
            // every calm pool is named; the loaded ones after, the least loaded of the best-ranked first (ties: by rank)
            List<Integer> loaded = new ArrayList<>();
            for (int r = 0; r < all.size(); r++) {
                if (!calm.contains(all.index(r))) {
                    loaded.add(r);
                }
            }
            loaded.sort(java.util.Comparator.comparingDouble((Integer r) -> p.loads[all.index(r)] + redirected.get(all.index(r)))
                    .thenComparingInt(r -> r));
            for (int j = 0; j < loaded.size() && out.size() < k; j++) {
                int r = loaded.get(j);
                out.add(choice(live, all, all.index(r), all.score(r)));
            }
        }
        return out;
    }

    @Override
    public void redirected(Choice choice) {
        Prepared p = prepared;
        int i = indexOf(p.live, choice.pool());
        if (i >= 0) {
            p.redirected().incrementAndGet(i);
        }
    }

    private static int indexOf(List<PoolRecord> live, PoolRecord pool) {
        for (int i = 0; i < live.size(); i++) {
            if (live.get(i) == pool) {
                return i;
            }
        }
        return -1;
    }

    /** The pool at {@code i}, with the pools that score above it for the path as its peers. */
    private static Choice choice(List<PoolRecord> live, TopK all, int i, double score) {
        List<String> peers = List.of();
        for (int r = 0; r < all.size() && all.score(r) > score && r < MAX_PEERS; r++) {
            if (peers.isEmpty()) {
                peers = new ArrayList<>(MAX_PEERS);
            }
            peers.add(live.get(all.index(r)).id());
        }
        return new Choice(live.get(i), peers);
    }

    private Prepared prepare(List<PoolRecord> live) {
        Prepared p = prepared;
        if (p.live == live) {
            return p;
        }
        long[] seeds = new long[live.size()];
        double[] weights = new double[live.size()];
        double[] loads = new double[live.size()];
        double maxWeight = 0;
        for (int i = 0; i < seeds.length; i++) {
            PoolRecord pool = live.get(i);
            seeds[i] = hash(pool.id());
            weights[i] = weight(pool);
            loads[i] = pool.load();
            maxWeight = Math.max(maxWeight, weights[i]);
        }
        p = new Prepared(live, seeds, weights, loads, maxWeight, new Counts());
        prepared = p; // a race only rebuilds the same thing twice
        return p;
    }

    /** Capacity in GiB; a pool that publishes none still gets a share. */
    static double weight(PoolRecord pool) {
        return Math.max(1.0, pool.capacityBytes() / BYTES_PER_WEIGHT_UNIT);
    }

    /** {@code weight / -ln(u)}: the larger, the better the pool for this path. */
    static double score(double weight, long poolSeed, long pathHash) {
        return weight / -Math.log(uniform(drawBits(poolSeed, pathHash)));
    }

    /** The pool's draw for the path as 53 bits; the draw itself ({@link #uniform}) grows with them. */
    private static long drawBits(long poolSeed, long pathHash) {
        return mix(poolSeed ^ pathHash) >>> 11;
    }

    /** The draw of {@code bits}, in (0, 1), never 0 or 1. */
    private static double uniform(long bits) {
        return (bits + 0.5) * 0x1.0p-53;
    }

    /**
     * The draw bits at or below which no pool can score above {@code threshold}: {@code w / -ln(u) > t} needs
     * {@code u > exp(-w / t)}, and {@code uniform(bits) <= c} is {@code bits <= c * 2^53 - 0.5}. Slightly low, so that
     * rounding never rules out a pool that would have entered; -1 (no draw) while the ranking has room.
     */
    private static long cutoffBits(double maxWeight, double threshold) {
        if (threshold <= 0) {
            return -1;
        }
        double cut = Math.exp(-maxWeight / threshold) * (1 - 1e-9);
        return (long) Math.floor(cut * 0x1.0p53 - 0.5);
    }

    /** FNV-1a over the UTF-16 code units, then a finalizer so that similar paths spread. */
    static long hash(String s) {
        long h = 0xcbf29ce484222325L;
        for (int i = 0; i < s.length(); i++) {
            h = (h ^ s.charAt(i)) * 0x100000001b3L;
        }
        return mix(h);
    }

    /** SplitMix64's finalizer (Steele, Lea, Flood, OOPSLA 2014): every input bit affects every output bit. */
    static long mix(long z) {
        z = (z ^ (z >>> 30)) * 0xbf58476d1ce4e5b9L;
        z = (z ^ (z >>> 27)) * 0x94d049bb133111ebL;
        return z ^ (z >>> 31);
    }
}
