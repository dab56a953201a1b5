package org.gridcache.pool.tpc;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import org.gridcache.pool.store.WriteHandle;
import org.gridcache.pool.store.ReplicaWriter;
import org.gridcache.pool.store.Sidecar;
import org.gridcache.pool.store.Store;
import org.gridcache.pool.store.StoreKey;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The cached copy of a file written to its origin, by a third-party pull or an upload: room reserved, written beside
 * the store as an upload file, made a hit only by {@link #commit} (fsync'ed, sidecar first). A full file system makes
 * the store evict and the write is tried once more; a full store or a failing disk loses the copy, never the write to
 * the origin. Used by one thread at a time.
 */
public final class StoreCopy {
    private static final Logger LOG = LoggerFactory.getLogger(StoreCopy.class);
    private final Store store;
    /** What is copied, for the log: "the upload of /a/f", "the third-party copy of /a/f". */
    private final String what;
    /** The store's write of the copy; null when there is none (no room, or lost). */
    private ReplicaWriter replica;

    private StoreCopy(Store store, String what) {
        this.store = store;
        this.what = what;
    }

    /**
     * Reserves the room and opens the copy ({@code key} in the store) of {@code what} (its name in the log lines);
     * without either, there is none.
     */
    public static StoreCopy open(Store store, StoreKey key, long length, String what) {
        StoreCopy copy = new StoreCopy(store, what);
        try {
            copy.replica = store.openCopy(key, length);
        } catch (IOException e) {
            LOG.info("store: no copy of {} is kept: {}", what, e.getMessage());
        }
        return copy;
    }

    public void write(ByteBuffer data) {
        if (replica == null) {
            return;
        }
        FileChannel file = replica.file();
        try {
            WriteHandle.retryOnNoSpace(store::makeRoomOnDisk, data.remaining(), "keep a copy", () -> {
                while (data.hasRemaining()) { // a retry goes on from the first byte not written
                    file.write(data);
                }
            });
        } catch (IOException e) {
            LOG.warn("store: the copy of {} is lost: {}", what, e.toString());
            discard();
        }
    }

    /** Makes the copy a hit; false when there is none to keep. */
    public boolean commit(Sidecar sidecar) {
        if (replica == null) {
            return false;
        }
        try {
            replica.commit(sidecar, false);
            return true;
        } catch (IOException e) {
            LOG.warn("store: the copy of {} could not be kept: {}", what, e.toString());
            return false;
        } finally {
            replica = null;
        }
    }

    /** Nothing of it stays: the file deleted, the room returned. */
    public void discard() {
        if (replica != null) {
            replica.cancel();
            replica = null;
        }
    }
}
