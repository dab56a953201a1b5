package org.gridcache.pool.fetch;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.FileChannel;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Writes a fill's bytes, in file order, to its part file past the page cache (O_DIRECT): they are copied into an
 * aligned stage, and each full stage is one write at an aligned position; the file's unaligned tail goes through
 * the page cache at the end. A fill through the page cache costs a new page-cache page per 4 KiB and their writeback
 * (on a VM, a host fault per page: up to half of a GridFTP miss's CPU); this costs one copy into the stage, and the
 * page cache keeps what hits read instead of what fills wrote. The fill's cut-through clients are served from the
 * bytes the fill holds in memory ({@link Download} keeps them for its readers).
 *
 * <p>A file system that refuses such writes (EINVAL: tmpfs, some network file systems, a block size the stage does
 * not meet) gets the rest of the file through the page cache, and one log line per process. A full disk fails the
 * write as any other does. One thread at a time appends (the fill's disk writer); any thread may close, as a
 * failing fill does, and the stage then goes back for reuse only once that writer is out of it.
 */
final class DirectPartWriter implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(DirectPartWriter.class);
    /** A multiple of every logical block size in use (512 and 4096), and of the page size. */
    static final int ALIGNMENT = 4096;
    static final int STAGE = 1 << 20;
    /** Stages waiting for reuse: a fill in flight holds one, so new direct memory is zeroed only for a new peak. */
    private static final Queue<ByteBuffer> STAGES = new ConcurrentLinkedQueue<>();
    private static final AtomicInteger WAITING = new AtomicInteger();
    static final int KEEP = 64;
    private static final AtomicBoolean REFUSAL_LOGGED = new AtomicBoolean();

    /** Opens the part file for writing through the page cache (for the tail, and after a refusal). */
    interface Buffered {
        FileChannel get() throws IOException;
    }

    private final FileChannel direct;
    private final Buffered buffered;
    private ByteBuffer stage;
    /** Bytes of the file's prefix on disk. */
    private long onDisk;
    /** Set once the file system refused a write past the page cache: the rest goes through it. */
    private boolean refused;
    /** The writer is in {@link #append} or {@link #finish}, using the stage; guarded by this. */
    private boolean busy;
    /** Closed: no more bytes taken, and the stage goes back once the writer is out of it; guarded by this. */
    private boolean closed;

    DirectPartWriter(FileChannel direct, Buffered buffered) {
        this.direct = direct;
        this.buffered = buffered;
    }

    /** True while the bytes go past the page cache (false once the file system refused). */
    boolean pastPageCache() {
        return !refused;
    }

    /** Appends {@code src} (consumed); returns the bytes of the file's prefix on disk now. */
    long append(ByteBuffer src) throws IOException {
        enter();
        try {
            return appendEntered(src);
        } finally {
            leave();
        }
    }

    private long appendEntered(ByteBuffer src) throws IOException {
        while (src.hasRemaining()) {
            if (refused) { // what is staged first, then the rest straight through the page cache
                finishEntered();
                onDisk += writeAll(buffered.get(), src, onDisk);
                break;
            }
            if (stage == null) {
                stage = takeStage();
            }
            int n = Math.min(src.remaining(), stage.remaining());
            ByteBuffer part = src.duplicate();
            part.limit(part.position() + n);
            stage.put(part);
            src.position(src.position() + n);
            if (!stage.hasRemaining()) {
                flush(stage.position());
            }
        }
        return onDisk;
    }

    /** Writes what is staged: the aligned part past the page cache, the tail through it; returns the file's length. */
    long finish() throws IOException {
        enter();
        try {
            return finishEntered();
        } finally {
            leave();
        }
    }

    private long finishEntered() throws IOException {
        if (stage != null && stage.position() > 0) {
            int staged = stage.position();
            int aligned = staged & -ALIGNMENT;
            if (aligned > 0) {
                flush(aligned);
            }
            if (stage.position() > 0) { // the unaligned tail (or all of it, after a refusal)
                stage.flip();
                onDisk += writeAll(buffered.get(), stage, onDisk);
                stage.clear();
            }
        }
        return onDisk;
    }

    /** Writes the stage's first {@code length} bytes (a multiple of the alignment, unless refused) at {@link #onDisk}. */
    private void flush(int length) throws IOException {
        int staged = stage.position();
        stage.flip().limit(length);
        if (!refused) {
            try {
                onDisk += writeAll(direct, stage, onDisk);
            } catch (IOException e) {
                if (FetchException.isNoSpace(e) || e instanceof ClosedChannelException) {
                    throw e; // a full disk, or a fill closed meanwhile: not a file system that refuses
                }
                refuse(e);
                stage.position(0); // a refused write wrote nothing: the whole flush goes the other way
            }
        }
        if (refused) {
            onDisk += writeAll(buffered.get(), stage, onDisk);
        }
        stage.limit(staged).compact(); // what is left of the stage (the tail, at finish) moves to its front
    }

    private void refuse(IOException e) {
        refused = true;
        logRefusal(e);
    }

    /** Says once per process that the store's file system refuses writes past the page cache (opens or writes). */
    static void logRefusal(Exception e) {
        if (REFUSAL_LOGGED.compareAndSet(false, true)) {
            LOG.warn("store: the file system refused a write past the page cache ({}): fills it refuses are written "
                    + "through the page cache (pool.direct-writes)", e.getMessage());
        } else {
            LOG.debug("store: a write past the page cache was refused: {}", e.toString());
        }
    }

    private static int writeAll(FileChannel to, ByteBuffer from, long position) throws IOException {
        int total = 0;
        while (from.hasRemaining()) {
            total += to.write(from, position + total);
        }
        return total;
    }

    private static ByteBuffer takeStage() {
        ByteBuffer reused = STAGES.poll();
        if (reused != null) {
            WAITING.decrementAndGet();
            return reused;
        }
        return ByteBuffer.allocateDirect(STAGE + ALIGNMENT).alignedSlice(ALIGNMENT).limit(STAGE).slice();
    }

    private synchronized void enter() throws ClosedChannelException {
        if (closed) {
            throw new ClosedChannelException();
        }
        busy = true;
    }

    private void leave() {
        ByteBuffer done;
        synchronized (this) {
            busy = false;
            done = closed ? takeOwnStage() : null;
        }
        giveBack(done);
    }

    /**
     * Closes the direct channel and lets the stage go back for reuse; idempotent. A writer in the middle of a write
     * keeps the stage until it leaves: lent to another fill now, its bytes and that fill's would mix.
     */
    @Override
    public void close() throws IOException {
        ByteBuffer done;
        synchronized (this) {
            if (closed) {
                return;
            }
            closed = true;
            done = busy ? null : takeOwnStage();
        }
        giveBack(done);
        direct.close();
    }

    private ByteBuffer takeOwnStage() {
        ByteBuffer s = stage;
        stage = null;
        return s;
    }

    private static void giveBack(ByteBuffer s) {
        if (s == null) {
            return;
        }
        if (WAITING.incrementAndGet() <= KEEP) {
            STAGES.offer(s.clear());
        } else {
            WAITING.decrementAndGet();
        }
    }
}
