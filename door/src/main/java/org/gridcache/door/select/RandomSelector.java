package org.gridcache.door.select;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import org.gridcache.common.cluster.PoolRecord;
import org.gridcache.common.ticket.Ticket;

/**
 * Policy {@code random}, the seed design: any pool, uniformly at random. Its ticket says "ask all peers": a pool
 * that misses asks every peer in parallel whether it holds the file and redirects the client to the first that
 * does (within {@code selection.peer-timeout}), else fetches from the origin itself. Spreads load, but a hot new file
 * is fetched from the origin once per pool, and the question goes to every pool of the cluster.
 */
public final class RandomSelector implements PoolSelector {
    private static final List<String> ASK_ALL = List.of(Ticket.ALL_PEERS);

    @Override
    public List<Choice> rank(String path, List<PoolRecord> live, int max) {
        int n = live.size();
        int k = Math.min(max, n);
        List<Choice> out = new ArrayList<>(k);
        ThreadLocalRandom random = ThreadLocalRandom.current();
        int[] picked = new int[k];
        for (int r = 0; r < k; r++) {
            int i;
            do {
                i = random.nextInt(n);
            } while (seen(picked, r, i)); // k is a handful: rejection is cheaper than a shuffle of n
            picked[r] = i;
            out.add(new Choice(live.get(i), ASK_ALL));
        }
        return out;
    }

    private static boolean seen(int[] picked, int count, int i) {
        for (int j = 0; j < count; j++) {
            if (picked[j] == i) {
                return true;
            }
        }
        return false;
    }
}
