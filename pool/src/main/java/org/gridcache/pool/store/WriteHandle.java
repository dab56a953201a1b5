package org.gridcache.pool.store;

import java.io.IOException;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongPredicate;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One write into the store, the handle every writer holds from the room it reserved until its bytes are part of a
 * replica or given up: a fill's part file, an upload's or a third-party pull's copy ({@link ReplicaWriter}), a run of
 * blocks of a partial file ({@link PartialFiles.BlockWriter}). It ends once, by {@link #commit} or {@link #cancel}.
 *
 * <p>Its state is its reservation, one atomic long: the bytes reserved while OPEN, {@code ENDED} once committed or
 * cancelled. Ending takes the reservation by one {@code getAndSet}, so only one of a commit and a cancel racing it
 * gets the bytes (the other is refused: a commit throws, a cancel returns false); a growth that loses against an end
 * gives its new bytes back. No lock, no system call inside a transition.
 *
 * <p>Room on disk: a write that the file system refuses for want of space (ENOSPC, EDQUOT: something besides the
 * store's accounting filled the disk) asks the store to evict ({@link Store#makeRoomOnDisk}) and is tried once more
 * ({@link #retryOnNoSpace}); a second refusal, or no room made, is the writer's failure.
 */
public abstract class WriteHandle {
    private static final Logger LOG = LoggerFactory.getLogger(WriteHandle.class);
    private static final long ENDED = -1;

    /** Where a write's room comes from and goes back to: the store's space. */
    interface Room {
        /** Reserves {@code bytes} more; {@link StoreException.Reason#NO_SPACE} when there is no room. */
        void reserve(long bytes) throws StoreException;

        void release(long bytes);
    }

    private final Room room;
    private final AtomicLong reserved;

    /** A write holding {@code reserved} bytes of {@code room}, already reserved by its opener. */
    WriteHandle(Room room, long reserved) {
        this.room = room;
        this.reserved = new AtomicLong(reserved);
    }

    /**
     * Grows the reservation to {@code total} bytes (nothing when it holds that much already); throws
     * {@link StoreException.Reason#NO_SPACE} when the store has no room, {@link StoreException.Reason#GONE} when the
     * write has ended (its new bytes given back).
     */
    public final void grow(long total) throws StoreException {
        long held = reserved.get();
        if (held == ENDED) {
            throw StoreException.gone("the write has ended");
        }
        long more = total - held;
        if (more <= 0) {
            return;
        }
        room.reserve(more);
        while (true) {
            long now = reserved.get();
            if (now == ENDED) {
                room.release(more);
                throw StoreException.gone("the write has ended");
            }
            if (reserved.compareAndSet(now, now + more)) {
                return;
            }
        }
    }

    /** The bytes reserved now; 0 once ended. */
    public final long reserved() {
        return Math.max(0, reserved.get());
    }

    /** Whether the write is still open (neither committed nor cancelled). */
    public final boolean isOpen() {
        return reserved.get() != ENDED;
    }

    /**
     * Ends the write for a commit: its reservation, now the caller's to commit into the store (or release on failure);
     * throws {@link StoreException.Reason#GONE} when it has ended already.
     */
    protected final long endForCommit() throws StoreException {
        long r = reserved.getAndSet(ENDED);
        if (r == ENDED) {
            throw StoreException.gone("the write has ended already (cancelled, or committed before)");
        }
        return r;
    }

    /**
     * Gives up the write: what it wrote is deleted or left unproven, its room returned. False (nothing done) when it
     * had ended already.
     */
    public final boolean cancel() {
        long r = reserved.getAndSet(ENDED);
        if (r == ENDED) {
            return false;
        }
        try {
            discard();
        } finally {
            room.release(r);
        }
        return true;
    }

    /** What a cancel undoes on disk; runs once, after the reservation was taken. */
    abstract void discard();

    /** Commits what was written; see the subclasses for what that means and takes. */
    @FunctionalInterface
    interface Commit {
        void run(long reserved) throws IOException;
    }

    /**
     * Ends the write by {@code commit}, which makes the reservation stored bytes; when it fails, the reservation is
     * released and what was written discarded.
     */
    final void commitWith(Commit commit) throws IOException {
        long r = endForCommit();
        try {
            commit.run(r);
        } catch (IOException | RuntimeException e) {
            try {
                discard();
            } finally {
                room.release(r);
            }
            throw e;
        }
    }

    /** A write to disk that may be run twice: the second run goes on from where the first stopped. */
    public interface DiskWrite {
        void run() throws IOException;
    }

    /** Runs {@code write}; on "no space", makes room for {@code bytes} with {@code makeRoom} and runs it once more. */
    public static void retryOnNoSpace(LongPredicate makeRoom, long bytes, String what, DiskWrite write) throws IOException {
        try {
            write.run();
        } catch (IOException e) {
            if (!StoreException.isNoSpace(e) || !makeRoom.test(bytes)) {
                throw e;
            }
            LOG.info("store: the disk had no room to {}; evicted, trying again", what);
            write.run();
        }
    }
}
