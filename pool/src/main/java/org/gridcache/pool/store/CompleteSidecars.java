package org.gridcache.pool.store;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.util.concurrent.ConcurrentHashMap;
import org.gridcache.common.checksum.Checksums;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The sidecars of complete files: written by a commit, read for checksums, completed with checksums computed later.
 * Lock: a sidecar is renamed into place inside the per-key bin of {@link #writes} (system calls under it, but only
 * the writers of that key's files take it: commits, completions, checksums kept late; never a request reading the
 * file), so that checksums kept late never put an older copy's sidecar in place of a newer one's, and two commits of
 * one key never interleave. Order: a {@link #writes} bin, then a partial file's monitor (a commit drops the key's
 * blocks), then the index.
 */
final class CompleteSidecars {
    private static final Logger LOG = LoggerFactory.getLogger(CompleteSidecars.class);

    private final StoreFiles files;
    private final Store store;
    private final ConcurrentHashMap<StoreKey, Boolean> writes = new ConcurrentHashMap<>();

    CompleteSidecars(StoreFiles files, Store store) {
        this.files = files;
        this.store = store;
    }

    /** A step taken in a key's bin. */
    interface Step {
        void run() throws IOException;
    }

    /**
     * Commits a whole replica's files in the key's bin: its sidecar ({@code tmp}, written and fsync'ed) renamed into
     * place, then {@code data} (the data file's rename and the entry's publication). Two writers committing one key
     * (a fill and an upload's copy) so never leave one's sidecar beside the other's bytes. On failure {@code tmp} is
     * deleted; {@code data} cleans up after itself.
     */
    void commit(StoreKey key, Path tmp, Step data) throws IOException {
        IOException[] failed = {null};
        writes.compute(key, (k, v) -> {
            try {
                StoreFiles.move(tmp, files.sidecarFile(key));
                data.run();
            } catch (IOException e) {
                failed[0] = e;
            }
            return null;
        });
        if (failed[0] != null) {
            StoreFiles.deleteQuietly(tmp);
            throw failed[0];
        }
    }

    /** A step taken in a key's bin before its sidecar's rename; false: no rename. */
    interface BeforeRename {
        boolean run() throws IOException;
    }

    /**
     * Renames {@code tmp} (written and fsync'ed) to the key's sidecar, inside the key's bin, after {@code first}
     * agreed; false (and {@code tmp} deleted) when it did not. A partial file's completion links its data file there,
     * so that no whole-file fetch's sidecar rename comes between its check and its link.
     */
    boolean renameAfter(StoreKey key, Path tmp, BeforeRename first) throws IOException {
        IOException[] failed = {null};
        boolean[] renamed = {false};
        writes.compute(key, (k, v) -> {
            try {
                if (first.run()) {
                    StoreFiles.move(tmp, files.sidecarFile(key));
                    renamed[0] = true;
                }
            } catch (IOException e) {
                failed[0] = e;
            }
            return null;
        });
        if (!renamed[0]) {
            StoreFiles.deleteQuietly(tmp);
        }
        if (failed[0] != null) {
            throw failed[0];
        }
        return renamed[0];
    }

    /** The checksums kept in a stored file's sidecar; none when the file is not stored or its sidecar predates them. */
    Checksums checksums(StoreKey key) {
        try {
            return StoreFiles.readSidecar(files.sidecarFile(key)).knownChecksums();
        } catch (IOException | IllegalArgumentException e) {
            LOG.debug("store: no checksums for {}: {}", key, e.toString());
            return Checksums.NONE;
        }
    }

    /**
     * A stored copy, read for computing checksums: its sidecar and its data; null when {@code copy} is no longer the
     * key's stored copy (dropped, evicted or replaced meanwhile: checked after both are read and opened).
     */
    StoredCopy open(StoreKey key, StoreEntry copy) throws IOException {
        if (!store.holds(key, copy)) {
            return null;
        }
        Sidecar sidecar = StoreFiles.readSidecar(files.sidecarFile(key));
        FileChannel data = StoreFiles.openForReading(files.dataFile(key));
        if (data != null && !store.holds(key, copy)) {
            data.close();
            return null;
        }
        return data == null ? null : new StoredCopy(sidecar, data);
    }

    /** What {@link #open} opened; the caller closes {@code data}. */
    record StoredCopy(Sidecar sidecar, FileChannel data) {
    }

    /**
     * Adds checksums computed after the fill to a stored copy's sidecar ({@code base}, as {@link #open} read it),
     * if that copy is still the key's stored copy and its sidecar unchanged; false (nothing written) otherwise.
     */
    boolean keep(StoreKey key, StoreEntry copy, Sidecar base, Checksums more) throws IOException {
        Path target = files.sidecarFile(key);
        Path tmp = StoreFiles.sibling(target, StoreFiles.CHECKSUMS_TMP);
        files.writeTemporary(tmp, base.withMoreChecksums(more)); // the fsync outside the lock
        boolean[] kept = {false};
        IOException[] failed = {null};
        writes.compute(key, (k, v) -> {
            boolean current = store.holds(key, copy);
            if (current) {
                try {
                    current = base.equals(StoreFiles.readSidecar(target));
                } catch (IOException | IllegalArgumentException e) {
                    current = false;
                }
            }
            if (current) {
                try {
                    StoreFiles.move(tmp, target);
                    kept[0] = true;
                } catch (IOException e) {
                    failed[0] = e;
                }
            }
            return null;
        });
        if (!kept[0]) {
            StoreFiles.deleteQuietly(tmp);
        }
        if (failed[0] != null) {
            throw failed[0];
        }
        return kept[0];
    }
}
