package org.gridcache.pool.store;

import java.util.Comparator;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;

/**
 * The bytes of complete replicas per origin, for the door's storage report: an origin is the URL of a mount, the one
 * a replica's origin URL lies under ({@code originOf}, from the pool's mount table). Each {@link StoreEntry} carries
 * its origin's {@link Account}; the {@link ReplicaIndex} adds an entry's size as the entry enters and takes it off
 * when the entry leaves (once: its move to REMOVED decides), so the sums follow fills, uploads, copies, eviction, drops
 * and newer copies. An account is an atomic counter: no lock, and a hit touches none.
 *
 * <p>After a restart a file counts nowhere until its sidecar, which names its origin URL, has been read (by the
 * store's verifier, or at first use); partial files (blocks), and replicas of an origin no longer mounted, count only
 * in the store's used bytes. Accounts are never removed (one per origin ever mounted while the pool ran).
 */
public final class OriginUsage {
    /** One origin's bytes, shared by its entries. */
    static final class Account {
        private final AtomicLong bytes = new AtomicLong();
    }

    private final Function<String, String> originOf;
    private final Map<String, Account> accounts = new ConcurrentHashMap<>();

    /** {@code originOf}: a file's origin URL to its origin (a mount's URL), or null when none holds it. */
    OriginUsage(Function<String, String> originOf) {
        this.originOf = originOf;
    }

    /** The entry a sidecar describes, FILLING, counted under the origin of its URL once it enters the index. */
    public StoreEntry entryOf(Sidecar sidecar) {
        String origin = sidecar.originUrl() == null ? null : originOf.apply(sidecar.originUrl());
        return new StoreEntry(sidecar.size(), sidecar.mtime(), sidecar.etag(), origin == null ? null : accountOf(origin));
    }

    /** A plain read once the account exists: fills of one origin take no map bin's lock together. */
    private Account accountOf(String origin) {
        Account account = accounts.get(origin);
        return account != null ? account : accounts.computeIfAbsent(origin, o -> new Account());
    }

    /** {@code e} entered the index. */
    static void entered(StoreEntry e) {
        if (e.origin != null) {
            e.origin.bytes.addAndGet(e.size());
        }
    }

    /** {@code e} left the index (or never entered it after {@link #entered}). */
    static void left(StoreEntry e) {
        if (e.origin != null) {
            e.origin.bytes.addAndGet(-e.size());
        }
    }

    /** The bytes of each origin holding any, at most {@code limit} of them: the largest. */
    public Map<String, Long> largest(int limit) {
        Map<String, Long> out = new TreeMap<>();
        accounts.entrySet().stream().map(e -> Map.entry(e.getKey(), e.getValue().bytes.get()))
                .filter(e -> e.getValue() > 0)
                .sorted(Map.Entry.<String, Long>comparingByValue(Comparator.reverseOrder()).thenComparing(Map.Entry.comparingByKey()))
                .limit(limit)
                .forEach(e -> out.put(e.getKey(), e.getValue()));
        return out;
    }
}
