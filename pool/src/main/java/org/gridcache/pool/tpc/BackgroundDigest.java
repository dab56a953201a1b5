package org.gridcache.pool.tpc;

import java.nio.ByteBuffer;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executor;
import org.gridcache.common.checksum.ChecksumComputation;
import org.gridcache.common.checksum.ChecksumType;
import org.gridcache.common.checksum.Checksums;

/**
 * The costly checksums of a copy's bytes (md5, sha-256: a few hundred MB/s together on one core) computed in file
 * order on a second thread while the copy's own thread reads, writes and sends: computed inline, they held a pull to
 * their rate. At most {@link #QUEUED} chunks wait, so a digest slower than the network slows the copy rather than
 * holding its bytes in memory. The chunks fed must not change afterwards.
 */
final class BackgroundDigest implements AutoCloseable {
    /** Chunks waiting for the digest thread: with a pull's 64 KiB chunks, at most 4 MiB. */
    static final int QUEUED = 64;
    private static final ByteBuffer END = ByteBuffer.allocate(0);
    private final ChecksumComputation computation;
    private final BlockingQueue<ByteBuffer> queue = new ArrayBlockingQueue<>(QUEUED);
    private final CompletableFuture<Checksums> result = new CompletableFuture<>();
    private boolean ended;

    /** Starts the digest thread on {@code executor}, computing {@code types}. */
    BackgroundDigest(java.util.Set<ChecksumType> types, Executor executor) {
        computation = new ChecksumComputation(types);
        executor.execute(this::digest);
    }

    private void digest() {
        RuntimeException failure = null;
        try {
            for (ByteBuffer chunk; (chunk = queue.take()) != END; ) {
                if (failure == null) {
                    try {
                        computation.update(chunk);
                    } catch (RuntimeException e) {
                        failure = e; // taking on, so the copy's thread never waits for room that will not come
                    }
                }
            }
            if (failure != null) {
                result.completeExceptionally(failure);
            } else {
                result.complete(computation.finish());
            }
        } catch (InterruptedException e) {
            result.completeExceptionally(e); // the pool is closing
        }
    }

    /** Hands {@code chunk}'s remaining bytes on; waits while {@link #QUEUED} chunks are waiting already. */
    void update(ByteBuffer chunk) throws CopyFailure {
        try {
            queue.put(chunk);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new CopyFailure("interrupted");
        }
    }

    /** The checksums of everything fed, once the digest thread has caught up. */
    Checksums finish() throws CopyFailure {
        end();
        try {
            return result.get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new CopyFailure("interrupted");
        } catch (ExecutionException e) {
            throw new CopyFailure("cannot checksum the copy: " + e.getCause());
        }
    }

    /** Ends the digest thread (nothing more is fed); what it computed is not waited for. */
    @Override
    public void close() {
        queue.clear(); // the digest thread may be at any chunk: what is left need not be digested
        end();
    }

    private void end() {
        if (!ended) {
            ended = true;
            try {
                queue.put(END);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }
}
