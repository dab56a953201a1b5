package org.gridcache.pool.fetch;

import io.netty.buffer.ByteBuf;
import java.util.ArrayDeque;

/**
 * The bytes of one fetch that have been received but not yet written to disk, in order and contiguous: the disk
 * writer takes from the head, movers read slices anywhere inside. The window holds one reference to each buffer;
 * every slice handed out holds its own, so releasing the window never pulls bytes from under a write in flight.
 */
final class MemoryWindow {
    /** Bytes at a file position. */
    record Chunk(long position, ByteBuf buf) {
        long end() {
            return position + buf.readableBytes();
        }
    }

    private final ArrayDeque<Chunk> chunks = new ArrayDeque<>();
    private boolean closed;

    /** Appends {@code buf} (whose reference the window now owns) at {@code position}; false (and released) once closed. */
    synchronized boolean add(long position, ByteBuf buf) {
        if (closed) {
            buf.release();
            return false;
        }
        chunks.addLast(new Chunk(position, buf));
        return true;
    }

    /** The head chunk, its buffer with a reference of the caller's own (release it); null when empty or closed. */
    synchronized Chunk head() {
        Chunk head = chunks.peekFirst();
        return head == null ? null : new Chunk(head.position(), head.buf().retainedDuplicate());
    }

    /** Drops the head chunk once it is on disk; returns its size (0 when the window was closed meanwhile). */
    synchronized int removeHead() {
        Chunk head = chunks.pollFirst();
        if (head == null) {
            return 0;
        }
        int size = head.buf().readableBytes();
        head.buf().release();
        return size;
    }

    /**
     * Up to {@code max} bytes starting at {@code position}, from the one chunk that holds it, with the caller's own
     * reference; null when that position is no longer (or not yet) in memory.
     */
    synchronized ByteBuf slice(long position, long max) {
        for (Chunk c : chunks) {
            if (position >= c.position() && position < c.end()) {
                int offset = (int) (position - c.position());
                int length = (int) Math.min(max, c.end() - position);
                return c.buf().retainedSlice(c.buf().readerIndex() + offset, length);
            }
        }
        return null;
    }

    synchronized boolean isEmpty() {
        return chunks.isEmpty();
    }

    /** Releases every chunk; later adds are refused. Returns the bytes that were still held. */
    synchronized long close() {
        closed = true;
        long held = 0;
        for (Chunk c; (c = chunks.pollFirst()) != null; ) {
            held += c.buf().readableBytes();
            c.buf().release();
        }
        return held;
    }
}
