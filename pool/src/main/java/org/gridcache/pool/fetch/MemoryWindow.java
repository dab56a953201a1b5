package org.gridcache.pool.fetch;

import io.netty.buffer.ByteBuf;
import java.util.Map;
import java.util.TreeMap;

/**
 * The bytes of one fetch received and not yet written to disk, in order and contiguous: the disk writer and the
 * movers read slices anywhere inside, and the fetch trims the head once it is written. The window holds one reference to each buffer;
 * every slice handed out holds its own, so releasing the window never pulls bytes from under a write in flight.
 * Chunks are found by position in O(log n): the window holds up to {@code pool.write-behind} (1 GiB, 16,384 chunks of
 * 64 KiB) when the disk writer is behind, and a scan from the head for every slice cost a cut-through client up to a
 * millisecond per MiB, under the lock the origin's connection needs to add the next chunk ({@code MemoryWindowBenchmark}).
 */
final class MemoryWindow {
    /** Bytes at a file position. */
    record Chunk(long position, ByteBuf buf) {
        long end() {
            return position + buf.readableBytes();
        }
    }

    /** By file position; contiguous. */
    private final TreeMap<Long, ByteBuf> chunks = new TreeMap<>();
    private boolean closed;

    /** Appends {@code buf} (whose reference the window now owns) at {@code position}; false (and released) once closed. */
    synchronized boolean add(long position, ByteBuf buf) {
        if (closed) {
            buf.release();
            return false;
        }
        chunks.put(position, buf);
        return true;
    }

    /**
     * Up to {@code max} bytes starting at {@code position}, from the one chunk that holds it, with the caller's own
     * reference; null when that position is no longer (or not yet) in memory.
     */
    synchronized ByteBuf slice(long position, long max) {
        Map.Entry<Long, ByteBuf> holder = chunks.floorEntry(position);
        if (holder == null) {
            return null;
        }
        Chunk c = new Chunk(holder.getKey(), holder.getValue());
        if (position >= c.end()) {
            return null;
        }
        int offset = (int) (position - c.position());
        int length = (int) Math.min(max, c.end() - position);
        return c.buf().retainedSlice(c.buf().readerIndex() + offset, length);
    }

    /** Releases the chunks that end at or before {@code position}: no writer or reader needs them any more. */
    synchronized void trimBelow(long position) {
        for (Map.Entry<Long, ByteBuf> head; (head = chunks.firstEntry()) != null
                && head.getKey() + head.getValue().readableBytes() <= position; ) {
            chunks.pollFirstEntry().getValue().release();
        }
    }

    /** The file position of the first byte held; Long.MAX_VALUE when none is. */
    synchronized long start() {
        return chunks.isEmpty() ? Long.MAX_VALUE : chunks.firstKey();
    }

    /** Releases every chunk; later adds are refused. */
    synchronized void close() {
        closed = true;
        for (Map.Entry<Long, ByteBuf> c; (c = chunks.pollFirstEntry()) != null; ) {
            c.getValue().release();
        }
    }
}
