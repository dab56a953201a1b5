package org.gridcache.pool.store;

import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reservations against both limits of a store: its capacity (the {@link SpaceAllocator}'s accounting, with the
 * watermarks of {@link Eviction}) and its file system, whose free bytes must take this reservation and every other
 * in flight, each counted by its footprint on disk (whole blocks and a sidecar). When either is short the
 * {@link Evictor} makes room, and the request waits for it (holding no lock), then tries again, a few rounds,
 * before it refuses with {@link StoreException.Reason#NO_SPACE}.
 */
final class StoreSpace {
    private static final Logger LOG = LoggerFactory.getLogger(StoreSpace.class);
    /** Rounds of evicting and measuring again before a reservation is refused. */
    private static final int ROUNDS = 3;
    /** The longest a request waits for the evictor; it deletes a few files, in milliseconds. */
    private static final long EVICTION_WAIT_SECONDS = 30;

    private final SpaceAllocator space;
    private final Eviction eviction;
    private final Evictor evictor;
    /** Bytes the store's file system still takes (asked at each reservation: something else may fill the disk). */
    private final LongSupplier diskFree;
    /** Bytes of the reservations in flight already written to disk (and so already out of {@link #diskFree}). */
    private volatile LongSupplier reservationsWritten = () -> 0;

    StoreSpace(SpaceAllocator space, Eviction eviction, Evictor evictor, LongSupplier diskFree) {
        this.space = space;
        this.eviction = eviction;
        this.evictor = evictor;
        this.diskFree = diskFree;
    }

    void reserve(long bytes) throws StoreException {
        if (bytes > space.capacity()) {
            throw StoreException.noSpace("file of " + bytes + " bytes is larger than the pool's capacity of " + space.capacity());
        }
        long needed = eviction.bytesToFree(space.used(), bytes);
        if (needed > 0 && space.used() + bytes <= space.capacity()) {
            evictor.wake(); // room now; the evictor brings the store back under the low watermark meanwhile
            needed = 0;
        }
        for (int round = 0; !space.tryReserve(bytes); round++) {
            if (round == ROUNDS) {
                throw StoreException.noSpace("store full of pinned data");
            }
            if (await(evictor.free(Math.max(needed, space.used() + bytes - space.capacity()), false)) == 0 && round > 0) {
                throw StoreException.noSpace("store full of pinned data");
            }
            needed = 0;
        }
        try {
            fitOnDisk(bytes);
        } catch (StoreException e) {
            space.release(bytes);
            throw e;
        }
    }

    /**
     * Makes sure the file system takes {@code bytes} (reserved already) beside the other reservations, evicting what
     * it lacks by footprint: near a full disk this evicts a little too much rather than let a write run into it.
     */
    private void fitOnDisk(long bytes) throws StoreException {
        for (int round = 0; ; round++) {
            long lacking = lacking(bytes);
            if (lacking <= 0) {
                return;
            }
            List<Eviction.Candidate> victims = evictor.victims(lacking, true);
            if (Evictor.bytesOf(victims) < lacking) { // evicting all that may go would not do: keep it
                throw StoreException.noSpace("the pool's disk is full (" + lacking + " bytes lacking for " + bytes
                        + "; what is left is being read or fetched)");
            }
            if (round == ROUNDS) {
                throw StoreException.noSpace("the pool's disk is full (" + lacking + " bytes lacking for " + bytes + ")");
            }
            LOG.info("store: its file system lacks {} bytes for a reservation of {}; evicting", lacking, bytes);
            await(evictor.free(lacking, true));
        }
    }

    /**
     * What the disk lacks for {@code bytes} (reserved already) and what the other reservations have still to write:
     * positive when short. A fill written to its end but not yet committed is on the disk already, and counts once.
     */
    private long lacking(long bytes) {
        long others = Math.max(0, space.reserved() - bytes - reservationsWritten.getAsLong());
        return SpaceAllocator.footprint(bytes) + (others > 0 ? SpaceAllocator.footprint(others) : 0) - diskFree.getAsLong();
    }

    void reservationsWritten(LongSupplier written) {
        this.reservationsWritten = written;
    }

    /** After ENOSPC: frees {@code footprint} bytes on disk; true when anything was freed. */
    boolean evictForDisk(long footprint) {
        return await(evictor.free(footprint, true)) > 0;
    }

    private static long await(java.util.concurrent.CompletableFuture<Long> freed) {
        try {
            return freed.get(EVICTION_WAIT_SECONDS, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return 0;
        } catch (ExecutionException | TimeoutException e) {
            LOG.warn("store: no answer from the evictor: {}", e.toString());
            return 0;
        }
    }
}
