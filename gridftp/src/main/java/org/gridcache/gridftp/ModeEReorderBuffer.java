package org.gridcache.gridftp;

import java.io.IOException;
import java.util.TreeMap;
import org.globus.ftp.Buffer;
import org.globus.ftp.DataSink;

/**
 * The data sink of a retrieve, handing the receiver the file's bytes in order: stream mode delivers in order (offset
 * -1 or increasing); MODE E streams deliver blocks at file offsets in any order. Blocks past a gap wait here until it is filled, pausing their stream when more
 * than {@link #MAX_REORDER_BYTES} wait (the gap's block is already on its way on another stream, since the
 * server sends blocks in file order).
 */
final class ModeEReorderBuffer implements DataSink {
    /** How many bytes received out of order (parallel streams) may wait for the gap before them: then streams pause. */
    static final long MAX_REORDER_BYTES = 64L << 20;
    private final long start;
    private final GridFtpConnection.Receiver receiver;
    private final TreeMap<Long, byte[]> waiting = new TreeMap<>();
    private long next;
    private long streamPosition;
    private long waitingBytes;
    private volatile long arrived;
    private IOException failure;
    /** ERET offsets: relative to the retrieve's start or absolute; decided by the first block seen. */
    private Boolean absolute;
    private boolean started;

    ModeEReorderBuffer(long start, GridFtpConnection.Receiver receiver) {
        this.start = start;
        this.receiver = receiver;
        this.next = start;
        this.streamPosition = start;
    }

    @Override
    public synchronized void write(Buffer buffer) throws IOException {
        if (failure != null) {
            throw failure;
        }
        int length = buffer.getLength();
        if (length <= 0) {
            return;
        }
        arrived += length;
        long offset = buffer.getOffset();
        if (offset < 0) {
            offset = streamPosition; // stream mode: in order
        } else {
            if (absolute == null) {
                absolute = start == 0 || offset >= start;
            }
            if (!absolute) {
                offset += start;
            }
        }
        streamPosition = offset + length;
        try {
            if (offset == next) {
                deliver(buffer.getBuffer(), length); // the receiver copies what it keeps: no copy here
                for (var head = waiting.firstEntry(); head != null && head.getKey() == next; head = waiting.firstEntry()) {
                    waiting.pollFirstEntry();
                    waitingBytes -= head.getValue().length;
                    deliver(head.getValue(), head.getValue().length);
                }
                notifyAll();
            } else if (offset > next) {
                waiting.put(offset, own(buffer.getBuffer(), length));
                waitingBytes += length;
                while (waitingBytes > MAX_REORDER_BYTES && waiting.containsKey(offset) && failure == null) {
                    wait();
                }
            } else {
                throw new IOException("server sent bytes at " + offset + " twice");
            }
        } catch (IOException e) {
            failure = e;
            notifyAll();
            throw e;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            failure = new IOException("interrupted");
            notifyAll();
            throw failure;
        }
    }

    /**
     * The bytes of a MODE E block that must wait for a gap, as an array of their own. The MODE E reader
     * ({@link ModeEBlockReader}) reads each piece into a new array of its size and never touches it again, so a full
     * array is kept as it is; a partly filled one is copied, so that what waits is the bytes. Stream mode, whose
     * reader reuses its array, is always in order and never waits.
     */
    static byte[] own(byte[] array, int length) {
        return array.length == length ? array : java.util.Arrays.copyOf(array, length);
    }

    private void deliver(byte[] data, int length) throws IOException {
        startOnce();
        receiver.receive(data, length);
        next += length;
    }

    /** The server confirmed the transfer: a receiver given no bytes (an empty file or range) is started now. */
    synchronized void confirmed() throws IOException {
        startOnce();
    }

    private void startOnce() throws IOException {
        if (!started) {
            started = true;
            receiver.started();
        }
    }

    synchronized long delivered() {
        return next - start;
    }

    synchronized long pending() {
        return waitingBytes;
    }

    /**
     * Bytes received from the server so far: what tells the watchdog that it still sends. Not synchronized: a
     * writer may hold this sink's lock while the pool's write-behind memory is full, and the watchdogs share one
     * thread.
     */
    long arrived() {
        return arrived;
    }

    synchronized IOException failure() {
        return failure;
    }

    @Override
    public void close() {
        // the transfer's end is confirmed by the server's reply, not by this
    }
}
