package org.gridcache.pool.fetch;

import io.netty.buffer.ByteBuf;
import java.io.IOException;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.FileChannel;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.gridcache.pool.http.FetchException;
import org.gridcache.pool.store.WriteHandle;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A fill's write-behind: the received bytes held in a {@link MemoryWindow} and written to the part file behind the
 * clients, one turn at a time on the pool's {@link WriteQueue}, within the pool-wide {@link WriteBehindBudget}. The
 * fetcher adds bytes ({@link #add}); at most one disk writer drains them in file order ({@link #writerActive}), feeds
 * them to the fill's checksums, and tells the {@link Download} of every step. Movers read {@link #written} and slices
 * of the window from their event loops.
 *
 * <p>Its monitor guards the part file's channel ({@code out}, {@code closed}); it is taken after the store's
 * monitor (the store abandons a fill under its own, {@link #close}), never before it, and nothing else is locked
 * under it.
 */
final class WriteBehind {
    private static final Logger LOG = LoggerFactory.getLogger(WriteBehind.class);

    /**
     * Opens the part file for writing. It is opened only when bytes are written (on a disk writer, or on the file
     * origin's thread), not at the miss: a fetch whose commit waits for a disk writer holds no file descriptor, so a
     * backlog of commits (small files arriving faster than the disk syncs them) cannot exhaust the pool's descriptors.
     */
    interface PartFile {
        FileChannel open() throws IOException;

        /** The file system had no room for {@code bytes} (ENOSPC): the store evicts; true when it made room. */
        boolean makeRoom(long bytes);
    }

    private final Download download;
    private final PartFile partFile;
    private final FillChecksums checksums;
    private final WriteQueue queue;
    private final WriteBehindBudget budget;
    private final MemoryWindow window = new MemoryWindow();
    /** Bytes taken from the budget and not given back yet: received, not yet on disk (until the fill ends). */
    private final AtomicLong owed = new AtomicLong();
    /** A disk writer has this fill's turn (queued or running): at most one at a time. */
    private final AtomicBoolean writerActive = new AtomicBoolean();
    /** File position up to which the disk writer has taken the received bytes. */
    private volatile long taken;
    /** Bytes of the file's prefix that are on disk. */
    private volatile long written;
    /** The part file open for writing; null before the first byte; guarded by this. */
    private FileChannel out;
    private boolean closed;

    WriteBehind(Download download, PartFile partFile, FillChecksums checksums, WriteQueue queue,
                WriteBehindBudget budget) {
        this.download = download;
        this.partFile = partFile;
        this.checksums = checksums;
        this.queue = queue;
        this.budget = budget;
    }

    long written() {
        return written;
    }

    /** True when every received byte is on disk and no writer holds the fill's turn. */
    boolean caughtUp(long received) {
        return taken >= received && !writerActive.get();
    }

    ByteBuf slice(long position, long max) {
        return window.slice(position, max);
    }

    /** Holds {@code data} (a reference of its own) at {@code position}; false once the window is closed (failed). */
    boolean hold(long position, ByteBuf data) {
        return window.add(position, data.retainedSlice());
    }

    /** Takes {@code bytes} held from the budget; false when it is now exhausted ({@code resume} runs once room is back). */
    boolean take(long bytes, Runnable resume) {
        owed.addAndGet(bytes);
        return budget.take(bytes, resume);
    }

    /** Gives this fill's writer its turn on the queue unless it has one. */
    void schedule() {
        if (writerActive.compareAndSet(false, true)) {
            try {
                queue.execute(this::drain);
            } catch (RejectedExecutionException e) {
                writerActive.set(false);
                download.shuttingDown();
            }
        }
    }

    /** Runs {@code task} on the queue (the finish of a fill whose bytes are all on disk). */
    void run(Runnable task) {
        try {
            queue.execute(task);
        } catch (RejectedExecutionException e) {
            download.shuttingDown();
        }
    }

    /**
     * One turn on a disk writer: writes the received bytes in order, up to {@link WriteQueue#TURN_BYTES}, then
     * finishes a received fill or queues the next turn behind the other fills' tasks.
     */
    private void drain() {
        try {
            long turnEnd = taken + WriteQueue.TURN_BYTES;
            long received = download.received();
            for (ByteBuf next; taken < received && (next = window.slice(taken, received - taken)) != null; ) {
                try {
                    write(taken, next);
                } finally {
                    next.release();
                }
                if (taken >= turnEnd) {
                    break; // the rest is queued again below, behind the other fills
                }
                received = download.received();
            }
        } catch (IOException e) {
            download.fail(FetchException.storeWrite("write the file", e));
        } finally {
            writerActive.set(false);
        }
        if (download.state() != Download.State.FAILED && taken < download.received()) {
            schedule(); // bytes added (or the turn ended) after the loop's last look
        } else {
            download.finish();
        }
    }

    /** Writes {@code buf}, the bytes at {@code position}, to the part file. */
    private void write(long position, ByteBuf buf) throws IOException {
        int index = buf.readerIndex();
        int length = buf.readableBytes();
        checksums.written(buf.nioBuffers(index, length)); // in file order: one writer at a time takes the bytes
        taken = position + length;
        int[] done = {0};
        FileChannel channel = out();
        WriteHandle.retryOnNoSpace(partFile::makeRoom, length, "write a fill", () -> {
            while (done[0] < length) { // a retry goes on from the first byte not written
                done[0] += buf.getBytes(index + done[0], channel, position + done[0], length - done[0]);
            }
        });
        advance(position + length);
    }

    /** The file origin copies file to file in the kernel: nothing to hold in memory, so straight to disk. */
    long transferFrom(FileChannel source, long position, long count) throws IOException, FetchException {
        FileChannel channel = out();
        long[] n = {0};
        try {
            WriteHandle.retryOnNoSpace(partFile::makeRoom, count, "write a fill", () -> {
                channel.position(written);
                n[0] = source.transferTo(position, count, channel);
            });
        } catch (IOException e) {
            if (FetchException.isNoSpace(e)) {
                throw FetchException.storeWrite("write the file", e); // the store's side, not the origin's
            }
            throw e;
        }
        checksums.copied(channel, written, n[0]);
        written += n[0];
        taken = written;
        return n[0];
    }

    /** The file's prefix up to {@code position} is on disk: its budget goes back, the window lets it go. */
    private void advance(long position) {
        long grown = position - written;
        written = position;
        giveBack(grown);
        window.trimBelow(position); // readers read the written bytes from the part file
        download.progressed();
    }

    /** Gives back to the budget up to {@code bytes} of what this fill still owes it. */
    private void giveBack(long bytes) {
        long cur;
        long given;
        do {
            cur = owed.get();
            given = Math.min(cur, bytes);
        } while (given > 0 && !owed.compareAndSet(cur, cur - given));
        if (given > 0) {
            budget.give(given);
        }
    }

    /** The fill failed: its memory and its budget go back. */
    void release() {
        window.close();
        giveBack(Long.MAX_VALUE);
    }

    /** The part file open for writing, opened now if it is not yet; fails once the fill was abandoned. */
    synchronized FileChannel out() throws IOException {
        if (closed) {
            throw new ClosedChannelException();
        }
        if (out == null) {
            out = partFile.open();
        }
        return out;
    }

    /** Closes the part file; idempotent. */
    void close() {
        FileChannel open;
        synchronized (this) {
            closed = true;
            open = out;
            out = null;
        }
        if (open == null) {
            return;
        }
        try {
            open.close();
        } catch (IOException e) {
            LOG.debug("closing part file of {}: {}", download.key(), e.toString());
        }
    }
}
