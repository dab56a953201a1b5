package org.gridcache.pool.serve;

import io.netty.buffer.ByteBuf;
import java.nio.ByteBuffer;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import org.gridcache.common.checksum.ChecksumComputation;
import org.gridcache.common.checksum.Checksums;
import org.gridcache.pool.store.Sidecar;
import org.gridcache.pool.store.Store;
import org.gridcache.pool.store.StoreKey;
import org.gridcache.pool.tpc.StoreCopy;

/**
 * What an upload keeps beside sending: the body's checksums and its copy in the store, both on a disk writer, one
 * chunk after the other ({@link #digest}), never on the event loop (all four checksums together run at a few hundred
 * MB/s: on the loop they would stall every other connection it serves). Only the disk writer touches the computation
 * and the copy while a chunk is digested; the rest runs on the upload's event loop. A full store or a failing store
 * disk loses the copy, never the upload ({@link StoreCopy}). The copy becomes a hit only by {@link #commit}, once the origin confirmed
 * every byte, with the checksums in its sidecar.
 */
final class UploadCopy {
    private final Store store;
    private final Executor diskWriters;
    private final Executor loop;
    private final String path;
    private final StoreKey key;
    private final long length;
    private final ChecksumComputation computation;
    private StoreCopy copy;
    /** The last chunk's checksum update and copy write, on a disk writer; the next starts after it. */
    private CompletableFuture<Void> digesting = CompletableFuture.completedFuture(null);

    /** {@code path}: for log lines; {@code loop}: the upload's event loop. */
    UploadCopy(Store store, Executor diskWriters, Executor loop, String path, StoreKey key, long length,
               ChecksumComputation computation) {
        this.store = store;
        this.diskWriters = diskWriters;
        this.loop = loop;
        this.path = path;
        this.key = key;
        this.length = length;
        this.computation = computation;
    }

    /** Reserves the space and opens the copy; without either the upload goes on with no copy. */
    void open() {
        copy = StoreCopy.open(store, key, length, "the upload of " + path);
    }

    StoreKey key() {
        return key;
    }

    /**
     * The checksum update and the copy's write of one chunk, on a disk writer after the previous chunk's; takes over
     * {@code data} (a reference of its own) and releases it.
     */
    CompletableFuture<Void> digest(ByteBuf data) {
        digesting = digesting.thenRunAsync(() -> {
            try {
                for (ByteBuffer nio : data.nioBuffers()) {
                    computation.update(nio.duplicate());
                    copy.write(nio);
                }
            } finally {
                data.release();
            }
        }, diskWriters);
        return digesting;
    }

    /** The body's checksums, once its last chunk is digested (a computation can be finished only once). */
    Checksums finish() {
        return computation.finish();
    }

    /**
     * The copy becomes a hit (the origin confirmed every byte of the announced length, {@code received} of them came),
     * its fsync on a disk writer: it takes as long as the disk needs, and the loop serves others. Completes with
     * whether the copy was kept.
     */
    CompletableFuture<Boolean> commit(String originUrl, Checksums checksums, long mtime, long received) {
        return CompletableFuture.supplyAsync(() -> {
            if (received != length) {
                copy.discard();
                return false;
            }
            return copy.commit(new Sidecar(originUrl, length, mtime, null, System.currentTimeMillis(), checksums.toHex()));
        }, diskWriters);
    }

    /** Nothing of the copy stays: deleted, its space returned (once a disk writer still writing it is done). */
    void release() {
        if (!digesting.isDone()) {
            digesting.whenComplete((ok, error) -> loop.execute(this::release));
            return;
        }
        copy.discard();
    }
}
