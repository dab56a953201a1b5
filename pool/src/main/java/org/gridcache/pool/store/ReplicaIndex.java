package org.gridcache.pool.store;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;

/**
 * The complete replicas in memory: a concurrent map (Caffeine, in LRU order) of {@link StoreEntry}s and the pins of
 * readers, changed only by per-key atomic operations and the entries' {@link ReplicaState} transitions. No system
 * call happens here. A reader pins first and then checks the entry is {@link ReplicaState#COMPLETE}; eviction moves
 * an entry to REMOVED only inside the pin map's per-key {@code compute}, so either the reader sees REMOVED (and
 * lets go) or eviction sees the pin (and skips the entry). A drop or a newer copy moves the entry to REMOVED whatever
 * its pins; a reader that opened its file checks the state once more afterwards ({@link Store#pinAndOpen}).
 *
 * <p>Every entry's bytes count under its origin ({@link OriginUsage}) from just before it enters the index until it
 * leaves (in {@link #gone}, which its one move to REMOVED guards), so the counts add up to the complete replicas.
 *
 * <p>Lock order: a pin map bin (inside {@code pins.compute}), then an index bin. Nothing takes them the other way.
 */
final class ReplicaIndex {
    private final Cache<StoreKey, StoreEntry> index = newIndex();
    private final Map<StoreKey, Integer> pins = new ConcurrentHashMap<>();
    /** Entries found at start-up and not yet proven. */
    private final AtomicInteger unverified = new AtomicInteger();
    private volatile Consumer<StoreEntry> whenGone = e -> { };

    /**
     * The index of complete files. It never expires in practice: the access-order policy is only there to walk
     * files in LRU order; {@link Store#newIndex} hands it to the footprint benchmark.
     */
    static Cache<StoreKey, StoreEntry> newIndex() {
        return Caffeine.newBuilder()
                .expireAfterAccess(Duration.ofDays(36500))
                .executor(Runnable::run)
                .build();
    }

    Cache<StoreKey, StoreEntry> cache() {
        return index;
    }

    /** The key's entry, a use of it (LRU); null when none is indexed. */
    StoreEntry get(StoreKey key) {
        return index.getIfPresent(key);
    }

    /** The key's entry without a use. */
    StoreEntry peek(StoreKey key) {
        return index.policy().getIfPresentQuietly(key);
    }

    boolean contains(StoreKey key) {
        return index.asMap().containsKey(key);
    }

    int size() {
        return index.asMap().size();
    }

    void pin(StoreKey key) {
        pins.merge(key, 1, Integer::sum);
    }

    void unpin(StoreKey key) {
        pins.computeIfPresent(key, (k, n) -> n == 1 ? null : n - 1);
    }

    boolean isPinned(StoreKey key) {
        return pins.containsKey(key);
    }

    int pins(StoreKey key) {
        return pins.getOrDefault(key, 0);
    }

    /** Files found at start-up, in LRU order by the caller's sorting; each COMPLETE and unverified. */
    void found(List<StoreRecovery.Complete> complete) {
        for (StoreRecovery.Complete c : complete) {
            index.put(c.key(), StoreEntry.unverified(c.size()));
        }
        unverified.set(complete.size());
    }

    int unverified() {
        return unverified.get();
    }

    /**
     * Makes the FILLING {@code entry} the key's COMPLETE replica; the one it replaces, if any and not removed by
     * another already, is returned REMOVED (its bytes are the caller's to give back), else null.
     */
    StoreEntry publish(StoreKey key, StoreEntry entry) {
        if (!entry.become(ReplicaState.FILLING, ReplicaState.COMPLETE)) {
            throw new IllegalStateException("only a filling replica is published, not a " + entry.state() + " one");
        }
        OriginUsage.entered(entry);
        StoreEntry old = index.asMap().put(key, entry);
        return old != null && old != entry && retired(old) ? old : null;
    }

    /** Replaces a found entry by its proven self (same size); false when it left the index meanwhile. */
    boolean prove(StoreKey key, StoreEntry found, StoreEntry proven) {
        proven.become(ReplicaState.FILLING, ReplicaState.COMPLETE);
        OriginUsage.entered(proven);
        if (!index.asMap().replace(key, found, proven)) {
            OriginUsage.left(proven);
            return false;
        }
        retired(found);
        return true;
    }

    /**
     * Moves {@code e} to REMOVED and takes it out of the index, whatever its pins (a drop, a stale copy, a copy a newer
     * one replaces); true when this call removed it (the caller gives its bytes back), false when another did.
     */
    boolean remove(StoreKey key, StoreEntry e) {
        boolean removed = retired(e);
        index.asMap().remove(key, e);
        return removed;
    }

    /** Eviction: as {@link #remove}, but only while no reader pins the key; false when pinned or removed already. */
    boolean evict(StoreKey key, StoreEntry e) {
        if (!unlessPinned(key, () -> e.become(ReplicaState.COMPLETE, ReplicaState.REMOVED))) {
            return false;
        }
        index.asMap().remove(key, e);
        gone(e);
        return true;
    }

    /**
     * Runs {@code transition} (a replica's move to REMOVED) inside the pin map's per-key {@code compute}, only when no
     * reader pins the key; its answer, or false when pinned. A reader pins before it checks the state, so it either
     * sees the move or keeps it from happening.
     */
    boolean unlessPinned(StoreKey key, java.util.function.BooleanSupplier transition) {
        boolean[] moved = {false};
        pins.compute(key, (k, n) -> {
            moved[0] = n == null && transition.getAsBoolean();
            return n;
        });
        return moved[0];
    }

    private boolean retired(StoreEntry e) {
        if (!e.remove()) {
            return false;
        }
        gone(e);
        return true;
    }

    private void gone(StoreEntry e) {
        if (!e.isVerified()) {
            unverified.decrementAndGet();
        }
        OriginUsage.left(e);
        whenGone.accept(e);
    }

    void whenGone(Consumer<StoreEntry> listener) {
        this.whenGone = listener;
    }
}
