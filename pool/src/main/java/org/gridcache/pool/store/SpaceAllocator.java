package org.gridcache.pool.store;

import java.util.concurrent.atomic.AtomicLong;

/**
 * The store's room, lock-free: bytes in use (committed files plus reservations of writes in flight) against the
 * capacity, changed only by compare-and-set, so a reservation either fits whole or takes nothing. Reservations are
 * also counted apart, with their footprint on disk ({@link #footprint}: whole file-system blocks plus a sidecar),
 * for the file-system check: the disk must take every reservation in flight, whatever the capacity says.
 */
final class SpaceAllocator {
    /** The file system's block: a file takes whole blocks on disk (ext4, xfs and tmpfs pages are 4 KiB). */
    static final long BLOCK = 4096;
    /** A sidecar: one block (its JSON is a few hundred bytes). */
    static final long SIDECAR = BLOCK;

    private final long capacity;
    /** Committed bytes plus reservations: what the capacity is compared with. */
    private final AtomicLong used = new AtomicLong();
    /** Reservations alone, in bytes as reserved. */
    private final AtomicLong reserved = new AtomicLong();

    SpaceAllocator(long capacity) {
        this.capacity = capacity;
    }

    long capacity() {
        return capacity;
    }

    /** The bytes {@code bytes} of data take on disk: rounded up to whole blocks, and a sidecar. */
    static long footprint(long bytes) {
        return (bytes + BLOCK - 1) / BLOCK * BLOCK + SIDECAR;
    }

    /** Reserves {@code bytes} if they fit under the capacity; false (nothing taken) when they do not. */
    boolean tryReserve(long bytes) {
        while (true) {
            long now = used.get();
            if (now + bytes > capacity) {
                return false;
            }
            if (used.compareAndSet(now, now + bytes)) {
                reserved.addAndGet(bytes);
                return true;
            }
        }
    }

    /** Gives back a reservation that will not be written. */
    void release(long bytes) {
        reserved.addAndGet(-bytes);
        used.addAndGet(-bytes);
    }

    /** Turns a reservation of {@code reservedBytes} into {@code bytes} stored. */
    void commit(long reservedBytes, long bytes) {
        reserved.addAndGet(-reservedBytes);
        used.addAndGet(bytes - reservedBytes);
    }

    /** Bytes stored without a reservation (found at start-up). */
    void add(long bytes) {
        used.addAndGet(bytes);
    }

    /** Bytes stored that left the store (evicted, dropped, replaced). */
    void remove(long bytes) {
        used.addAndGet(-bytes);
    }

    long used() {
        return used.get();
    }

    long reserved() {
        return reserved.get();
    }
}
