package org.gridcache.common.ticket;

import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Tickets whose signature has been checked, by the exact signed string, so that a client reusing its ticket (a
 * job reading many small files, or one file again and again) costs one Ed25519 verification, not one per request:
 * that verification and the JSON parse were most of a small-file hit's time at the pool.
 *
 * <p>Only the signature is remembered. The caller still checks, on every use, that the key is still published (a
 * retired key's tickets stop verifying at once, cached or not) and the ticket's lifetime and expiry against its own
 * clock. The same string is the same signing input and signature, so its signature verifies the same way every time;
 * a ticket differing in one character is another key and is verified afresh.
 *
 * <p>Bounded in entries and in the length of what it keeps (a request line may carry a long ticket): when full, it
 * drops the expired entries at most once a second, and keeps nothing new while the rest are all still valid, so a
 * flood of distinct tickets costs what it cost without this cache and no more memory.
 */
final class VerifiedTickets {
    /** Tickets kept at most: with the longest kept below, a few MiB. */
    static final int CAPACITY = 2048;
    /** Longer signed tickets are verified every time (a door's ticket is well under 2 KiB). */
    static final int LONGEST = 4096;

    /** A ticket whose signature verified with {@code publicKey}, published by its issuer as {@code kid}. */
    record Entry(Ticket ticket, String kid, byte[] publicKey) {
    }

    private final ConcurrentHashMap<String, Entry> bySigned = new ConcurrentHashMap<>();
    private final int capacity;
    private final AtomicLong lastSweepSecond = new AtomicLong(Long.MIN_VALUE);

    VerifiedTickets() {
        this(CAPACITY);
    }

    VerifiedTickets(int capacity) {
        if (capacity < 1) {
            throw new IllegalArgumentException("capacity must be at least 1, not " + capacity);
        }
        this.capacity = capacity;
    }

    /** The entry for exactly this signed string, or null. */
    Entry get(String signed) {
        return bySigned.get(signed);
    }

    /** Remembers a ticket that passed every check at {@code nowSeconds}, room permitting. */
    void put(String signed, Entry entry, long nowSeconds) {
        if (signed.length() > LONGEST) {
            return;
        }
        if (bySigned.size() >= capacity && !sweep(nowSeconds)) {
            return;
        }
        bySigned.put(signed, entry);
    }

    /** An expired ticket leaves at once: it can never verify again. */
    void forget(String signed) {
        bySigned.remove(signed);
    }

    int size() {
        return bySigned.size();
    }

    /** Drops the expired entries, once a second at most; true when that made room. */
    private boolean sweep(long nowSeconds) {
        long last = lastSweepSecond.get();
        if (last >= nowSeconds || !lastSweepSecond.compareAndSet(last, nowSeconds)) {
            return false; // swept this second already, or another thread sweeps now
        }
        bySigned.values().removeIf(e -> nowSeconds >= e.ticket().expiresAt());
        return bySigned.size() < capacity;
    }
}
