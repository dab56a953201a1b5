package org.gridcache.pool.store;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * The write of a whole replica: a fill's part file ({@link Kind#FILL}), or the copy an upload or a third-party pull
 * keeps of what it wrote to the origin ({@link Kind#COPY}), written apart from a fill of the same key. Opened by
 * {@link Store#openFill} or {@link Store#openCopy} with its room reserved and its file created; {@link #commit} makes
 * it the key's replica (fsync'ed, sidecar first, then the rename), {@link #cancel} deletes it and returns the room.
 * What the handle's state is and how commit and cancel exclude each other: {@link WriteHandle}.
 */
public final class ReplicaWriter extends WriteHandle {
    /** What is written. */
    public enum Kind {
        /** A fetch from an origin or a peer: counted as filled when committed. */
        FILL,
        /** An upload's or a third-party pull's copy: it replaces any older copy when committed. */
        COPY
    }

    private final Store store;
    private final StoreKey key;
    private final Kind kind;
    private final Path path;
    /** A copy's file, open until the write ends; null for a fill (see {@link #file}). */
    private final FileChannel file;

    private ReplicaWriter(Store store, StoreKey key, Kind kind, Path path, FileChannel file, long reserved) {
        super(store, reserved);
        this.store = store;
        this.key = key;
        this.kind = kind;
        this.path = path;
        this.file = file;
    }

    /**
     * Reserves {@code reserve} bytes, then creates (truncating leftovers) the file; neither stays when one fails. A
     * fill's file is closed at once: its disk writer opens its own when bytes come, so a backlog of fills waiting
     * for their bytes holds no descriptors.
     */
    static ReplicaWriter open(Store store, StoreKey key, Kind kind, long reserve) throws IOException {
        Path path = kind == Kind.FILL ? store.disk().partFile(key) : store.disk().uploadFile(key);
        store.reserve(reserve);
        try {
            FileChannel file = store.disk().create(path);
            if (kind == Kind.FILL) {
                file.close();
                file = null;
            }
            return new ReplicaWriter(store, key, kind, path, file, reserve);
        } catch (IOException | RuntimeException e) {
            store.release(reserve);
            throw e;
        }
    }

    public StoreKey key() {
        return key;
    }

    /** A copy's file, open for reading and writing until the write ends; a fill holds none (its writer opens its own). */
    public FileChannel file() {
        if (file == null) {
            throw new IllegalStateException("a fill's writer opens the part file itself");
        }
        return file;
    }

    /** Where the file is, for readers that open it themselves (it stays readable after its rename or deletion). */
    public Path path() {
        return path;
    }

    /**
     * Makes the file the key's replica: fsync'ed, its sidecar written, renamed to the data file (replacing an older
     * copy) and published, the reservation turned into stored bytes; the sidecar's and the data file's renames in
     * the key's bin ({@link CompleteSidecars#commit}), so that another writer of the key never comes between them. {@code fromPeer}: a fill from a peer pool, as
     * the metrics count it. Throws {@link StoreException.Reason#GONE} when the write was cancelled (or committed)
     * before; on any failure nothing of it stays.
     */
    public void commit(Sidecar sidecar, boolean fromPeer) throws IOException {
        commitWith(reserved -> {
            force();
            Path tmp = StoreFiles.sibling(store.disk().sidecarFile(key), "." + kind.name().toLowerCase() + StoreFiles.TMP);
            store.disk().writeTemporary(tmp, sidecar);
            StoreEntry entry = store.origins().entryOf(sidecar);
            store.sidecars().commit(key, tmp, () -> store.commitFrom(path, key, entry, reserved));
            if (kind == Kind.FILL) {
                store.counters().filled(entry.size(), fromPeer);
            }
        });
    }

    /** The bytes on disk before the sidecar says they are there: through the copy's channel, or the fill's file opened for it. */
    private void force() throws IOException {
        if (file != null) {
            file.force(true);
            closeFile();
        } else {
            try (FileChannel written = FileChannel.open(path, StandardOpenOption.READ)) {
                written.force(true);
            }
        }
    }

    @Override
    void discard() {
        closeFile();
        if (kind == Kind.FILL) {
            try {
                store.counters().countOriginBytes(Files.size(path)); // what it had read still counts
            } catch (IOException e) {
                // gone already: nothing to count
            }
        }
        StoreFiles.deleteQuietly(path);
    }

    private void closeFile() {
        if (file == null) {
            return;
        }
        try {
            file.close();
        } catch (IOException e) {
            // nothing more to keep
        }
    }
}
