package org.gridcache.pool.tpc;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import org.gridcache.pool.store.NoSpaceRetry;
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
    private final StoreKey key;
    /** What is copied, for the log: "the upload of /a/f", "the third-party copy of /a/f". */
    private final String what;
    private long reserved;
    private FileChannel file;

    private StoreCopy(Store store, StoreKey key, String what) {
        this.store = store;
        this.key = key;
        this.what = what;
    }

    /**
     * Reserves the room and opens the copy ({@code key} in the store) of {@code what} (its name in the log lines);
     * without either, there is none.
     */
    public static StoreCopy open(Store store, StoreKey key, long length, String what) {
        StoreCopy copy = new StoreCopy(store, key, what);
        try {
            store.reserve(length);
            copy.reserved = length;
            copy.file = store.disk().createUpload(key);
        } catch (IOException e) {
            LOG.info("store: no copy of {} is kept: {}", what, e.getMessage());
            copy.discard();
        }
        return copy;
    }

    public void write(ByteBuffer data) {
        if (file == null) {
            return;
        }
        try {
            NoSpaceRetry.run(store::makeRoomOnDisk, data.remaining(), "keep a copy", () -> {
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
        if (file == null) {
            discard();
            return false;
        }
        try {
            file.force(true);
            closeFile();
            store.writeSidecar(key, sidecar);
            store.commitUpload(key, store.origins().entryOf(sidecar), reserved);
            reserved = 0;
            return true;
        } catch (IOException e) {
            LOG.warn("store: the copy of {} could not be kept: {}", what, e.toString());
            discard();
            return false;
        }
    }

    /** Nothing of it stays: the file deleted, the room returned. */
    public void discard() {
        closeFile();
        store.disk().deleteUpload(key);
        if (reserved > 0) {
            store.release(reserved);
            reserved = 0;
        }
    }

    private void closeFile() {
        if (file != null) {
            try {
                file.close();
            } catch (IOException e) {
                // nothing more to keep
            }
            file = null;
        }
    }
}
