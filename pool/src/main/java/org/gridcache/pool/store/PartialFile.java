package org.gridcache.pool.store;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

/**
 * A file of which the store holds some blocks ({@code <hex>.blocks}, as long as the origin's file, holes where no
 * block is proven): its {@link BlockBitmap}, the channel block fetches write through, and the blocks being fetched
 * now, so that a second request for a block joins the first one's fetch (one origin read per block). The bitmap and
 * the in-flight map are guarded by the {@link Store}'s monitor; proving a run of blocks is serialised on this object
 * (see {@link Store#prove}).
 */
public final class PartialFile {
    private final StoreKey key;
    private final String originUrl;
    private final long mtime;
    private final BlockBitmap bitmap;
    private final FileChannel writer;
    /** Blocks being fetched, each completed when proven or failed; guarded by the store. */
    final Map<Integer, CompletableFuture<Void>> inFlight = new HashMap<>();
    /** System.nanoTime of the last read, for LRU eviction beside complete files; guarded by the store. */
    long lastUse = System.nanoTime();

    PartialFile(StoreKey key, String originUrl, long mtime, BlockBitmap bitmap, FileChannel writer) {
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

    /** The bitmap; read or change it only while holding the store's monitor. */
    public BlockBitmap bitmap() {
        return bitmap;
    }

    /** The blocks being fetched now; use only while holding the store's monitor. */
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
