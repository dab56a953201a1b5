package org.gridcache.simulator;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.gridcache.common.cluster.PoolRecord;
import org.gridcache.common.ticket.Ticket;
import org.gridcache.door.select.PoolSelector;
import org.gridcache.door.select.PoolSelector.Choice;

/**
 * One policy replaying one trace on a fresh cluster, one read per step. The door's part is the real policy; the
 * pools' part follows what a pool does with the ticket's peers on a miss (ARCHITECTURE.md, "Choosing a pool"):
 * <ul>
 *   <li>a fetch already under way on the pool is joined (coalescing, every policy);</li>
 *   <li>{@code [*]} (random, the seed design): the pool asks every peer and redirects the client to one that holds a
 *       complete copy, which serves it as a hit; else it fetches from the origin itself. A copy still in flight does
 *       not count, so overlapping misses on several pools each read the origin;</li>
 *   <li>named peers (affinity): the pool pulls from the first that holds the file or is fetching it; when none does,
 *       through the first named, the path's owner, which fetches it from the origin once for the cluster. Both keep a
 *       copy;</li>
 *   <li>no peers (least-loaded, or affinity on the owner itself): the origin.</li>
 * </ul>
 * Peers always answer in time here: the simulator has no failures and no timeouts.
 */
final class Simulation {
    /** As many pools as the door's FileReads ranks: the policy sees the same question. */
    private static final int RANKED = 4;
    private final String policyName;
    private final PoolSelector policy;
    private final List<PoolModel> pools = new ArrayList<>();
    private final Map<String, Integer> index = new HashMap<>();
    private final ActiveReads active;
    private long hits;
    private long joined;
    private long pulled;
    private long origin;
    private long refused;
    private long questions;
    private long originBytes;

    Simulation(String policy, Cluster cluster) {
        this.policyName = policy;
        this.policy = Policies.named(policy, cluster::settings);
        for (int p = 0; p < cluster.pools(); p++) {
            String id = "p" + (p + 1);
            pools.add(new PoolModel(id, cluster.capacity(), cluster::settings));
            index.put(id, p);
        }
        this.active = new ActiveReads(cluster.pools(), cluster.concurrency());
    }

    /** Runs {@code trace} through a new cluster under {@code policy}. */
    static Result run(String policy, Cluster cluster, Trace trace) {
        Simulation s = new Simulation(policy, cluster);
        long[] reads = {0};
        try (Stream<Read> stream = trace.reads()) {
            stream.forEachOrdered(read -> { // not peek + count: count() may skip peek on a sized stream
                s.read(read);
                reads[0]++;
            });
        }
        return s.result(trace.name(), reads[0]);
    }

    private void read(Read read) {
        long now = active.advance();
        List<Choice> ranked = policy.rank(read.path(), snapshot(), RANKED);
        Choice choice = ranked.get(0);
        policy.redirected(choice);
        int p = index.get(choice.pool().id());
        PoolModel pool = pools.get(p);
        String path = read.path();
        int servedBy = p;
        if (pool.holds(path, now)) {
            hits++;
            pool.touch(path);
        } else if (pool.fetching(path, now)) {
            joined++;
            pool.touch(path);
        } else if (read.size() > pool.capacity) {
            refused++;
            servedBy = -1;
        } else if (choice.peers().contains(Ticket.ALL_PEERS)) {
            questions += pools.size() - 1;
            int holder = firstHolder(p, path, now);
            if (holder >= 0) {
                hits++;
                pools.get(holder).touch(path);
                servedBy = holder;
            } else {
                fromOrigin(p, read);
            }
        } else if (!choice.peers().isEmpty()) {
            pull(p, choice.peers(), read, now);
        } else {
            fromOrigin(p, read);
        }
        if (servedBy >= 0) {
            pools.get(servedBy).served(read.size());
            active.start(servedBy);
        }
    }

    /** Random's question to every peer: the first (in directory order) with a complete copy, or -1. */
    private int firstHolder(int self, String path, long now) {
        for (int q = 0; q < pools.size(); q++) {
            if (q != self && pools.get(q).holds(path, now)) {
                return q;
            }
        }
        return -1;
    }

    private void pull(int p, List<String> peers, Read read, long now) {
        List<Integer> named = new ArrayList<>();
        for (String id : peers) {
            Integer q = index.get(id);
            if (q != null && q != p) {
                named.add(q);
            }
        }
        if (named.isEmpty()) {
            fromOrigin(p, read);
            return;
        }
        questions += named.size(); // asked all at once: the first answer that holds it wins
        int from = named.get(0); // nobody holds it: the owner fetches and this pool joins that one fetch
        for (int q : named) {
            PoolModel peer = pools.get(q);
            if (peer.holds(read.path(), now) || peer.fetching(read.path(), now)) {
                from = q;
                break;
            }
        }
        PoolModel source = pools.get(from);
        if (source.has(read.path())) {
            source.touch(read.path());
        } else {
            keep(source, read); // the owner's own fetch, for this pull
            originBytes += read.size();
        }
        keep(pools.get(p), read);
        pulled++;
        active.start(from); // serving the pull is a mover on the peer
    }

    private void fromOrigin(int p, Read read) {
        keep(pools.get(p), read);
        origin++;
        originBytes += read.size();
    }

    /** A copy that is ready when a read started now ends; sizes over a store were refused before. */
    private void keep(PoolModel pool, Read read) {
        if (!pool.store(read.path(), read.size(), active.endOfNow())) {
            throw new IllegalStateException(pool.id + " refused " + read + " although it fits in " + pool.capacity + " bytes");
        }
    }

    /** The pool directory as the door would see it now: each pool's load is its active reads. */
    private List<PoolRecord> snapshot() {
        List<PoolRecord> live = new ArrayList<>(pools.size());
        for (int p = 0; p < pools.size(); p++) {
            PoolModel pool = pools.get(p);
            int load = active.load(p);
            live.add(new PoolRecord(pool.id, "sim://" + pool.id + "/", "sim", pool.capacity, pool.capacity - pool.used(),
                    load, 0, load, "simulator", 0));
        }
        return List.copyOf(live);
    }

    private Result result(String workload, long reads) {
        String[] ids = new String[pools.size()];
        long[] requests = new long[pools.size()];
        long[] bytes = new long[pools.size()];
        long evictions = 0;
        for (int p = 0; p < pools.size(); p++) {
            PoolModel pool = pools.get(p);
            ids[p] = pool.id;
            requests[p] = pool.requests;
            bytes[p] = pool.bytesServed;
            evictions += pool.evictions();
        }
        return new Result(policyName, workload, reads, hits, joined, pulled, origin, refused, originBytes, questions, ids,
                requests, bytes, evictions);
    }
}
