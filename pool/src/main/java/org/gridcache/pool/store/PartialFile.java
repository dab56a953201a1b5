package org.gridcache.pool.store;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

/**
 * A file of which the store holds some blocks ({@code <hex>.blocks}, as long as the origin's file, holes where no
 * block is proven): its {@link BlockBitmap}, the channel block fetches write through, and the blocks being fetched
 * now, so that a second request for a block joins the first one's fetch (one origin read per block). Its state is
 * {@link ReplicaState#PARTIAL} while the store holds it, REMOVED once dropped or evicted.
 *
 * <p>Locks: this object's monitor guards the bitmap and the in-flight map (no system call under it: requests of
 * this file take it); {@link #proving} serialises the proofs of runs of blocks (fsync, sidecar), and only block
 * fetches take it. Order: {@code proving}, then this object.
 */
public final class PartialFile extends Replica {
    private final StoreKey key;
    private final String originUrl;
    private final long mtime;
    private final BlockBitmap bitmap;
    private final FileChannel writer;
    /** Blocks being fetched, each completed when proven or failed; guarded by this object. */
    private final Map<Integer, CompletableFuture<Void>> inFlight = new HashMap<>();
    /** Serialises proofs: one sidecar write at a time, each with every bit proven before it. */
    final Object proving = new Object();
    /** Set while {@link PartialFiles#complete} makes it a complete copy: one completion at a time. */
    final java.util.concurrent.atomic.AtomicBoolean completing = new java.util.concurrent.atomic.AtomicBoolean();
    /** Completed once the file is created on disk (PARTIAL) or its creation failed (REMOVED). */
    private final CompletableFuture<Void> created = new CompletableFuture<>();
    /** System.nanoTime of the last read, for LRU eviction beside complete files. */
    volatile long lastUse = System.nanoTime();

    PartialFile(StoreKey key, String originUrl, long mtime, BlockBitmap bitmap, FileChannel writer) {
        super(ReplicaState.NEW, 0);
        this.key = key;
        this.originUrl = originUrl;
        this.mtime = mtime;
        this.bitmap = bitmap;
        this.writer = writer;
    }

    public StoreKey key() {
        return key;
    }

    public String originUrl() {
        return originUrl;
    }

    public long size() {
        return bitmap.size();
    }

    /** Origin modification time (epoch seconds) the blocks are of; -1 when unknown. */
    public long mtime() {
        return mtime;
    }

    /** The bitmap; read or change it only while holding this object's monitor (its geometry is immutable). */
    public BlockBitmap bitmap() {
        return bitmap;
    }

    /** The blocks being fetched now; use only while holding this object's monitor. */
    public Map<Integer, CompletableFuture<Void>> inFlight() {
        return inFlight;
    }

    /** Writes bytes fetched for {@code position} (any thread: positional writes do not share a file position). */
    public void write(java.nio.ByteBuffer bytes, long position) throws IOException {
        long at = position;
        while (bytes.hasRemaining()) {
            at += writer.write(bytes, at);
        }
    }

    /**
     * Waits (briefly: a file and a sidecar created by another request) until this file, found NEW, is created or
     * its creation failed; its state then says which.
     */
    public void awaitCreated() {
        try {
            created.get(10, java.util.concurrent.TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (java.util.concurrent.ExecutionException | java.util.concurrent.TimeoutException e) {
            // the state says what became of it
        }
    }

    void createdOrFailed() {
        created.complete(null);
    }

    /** Whether the ticket's size and mtime say the origin holds another version than these blocks. */
    public boolean isStaleFor(long ticketSize, long ticketMtime) {
        return ticketSize != size() || (ticketMtime >= 0 && mtime >= 0 && ticketMtime != mtime);
    }

    FileChannel writer() {
        return writer;
    }

    void closeQuietly() {
        try {
            writer.close();
        } catch (IOException e) {
            // nothing to save: the file is being dropped
        }
    }
}
