package org.gridcache.pool.store;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A store's start-up: the index rebuilt from what {@link StoreRecovery} finds on disk, then every file found proven
 * by a verifier thread, oldest first, unless a request proved it first ({@link #proven}). A data file counts only
 * when its sidecar names an origin URL that hashes to its name and a size equal to its length; part files, upload
 * copies, temporary files, orphans and mismatches are deleted. No lock: the index's per-key operations decide
 * between the verifier and a request proving the same file.
 */
final class StoreStartup {
    private static final Logger LOG = LoggerFactory.getLogger(StoreStartup.class);
    /** Threads reading sidecars at start-up: a disk answers several reads at once sooner than one after the other. */
    private static final int RECOVERY_THREADS = Math.max(4, Runtime.getRuntime().availableProcessors());

    private final Store store;
    private final StoreFiles files;
    private final CountDownLatch verified = new CountDownLatch(1);
    private long rebuildMillis;

    StoreStartup(Store store, StoreFiles files) {
        this.store = store;
        this.files = files;
    }

    /**
     * Rebuilds the index: files enter the LRU order by modification time, the best guess of their last use after a
     * restart. Logs one line with the count and the time it took (the pool serves nothing before).
     */
    void rebuild() throws IOException {
        long start = System.nanoTime();
        Path data = files.data;
        StoreRecovery.Found found = StoreRecovery.scan(data, RECOVERY_THREADS);
        int dropped = 0;
        java.util.Set<StoreKey> completeKeys = new java.util.HashSet<>();
        found.complete().forEach(c -> completeKeys.add(c.key()));
        for (Path file : found.blocks()) {
            String name = file.getFileName().toString();
            String hex = name.substring(0, name.length() - Store.BLOCKS.length());
            boolean superseded = completeKeys.contains(StoreKey.ofHex(hex)); // completed, crashed before it was removed
            if (superseded || !store.blocks().restore(file, hex)) {
                LOG.info("store: dropping {} ({})", data.relativize(file),
                        superseded ? "a partial file of a complete copy" : "a partial file without a proven bitmap");
                StoreFiles.deleteQuietly(file);
                StoreFiles.deleteQuietly(StoreFiles.sibling(file, Store.SIDECAR));
                dropped++;
            }
        }
        for (Path file : found.unproven()) {
            LOG.info("store: dropping {} (partial, temporary, orphaned or unproven)", data.relativize(file));
            StoreFiles.deleteQuietly(file);
            dropped++;
        }
        List<StoreRecovery.Complete> complete = new ArrayList<>(found.complete());
        complete.sort(Comparator.comparingLong(StoreRecovery.Complete::lastModified));
        store.index().found(complete);
        for (StoreRecovery.Complete c : complete) {
            store.space().add(c.size());
        }
        rebuildMillis = (System.nanoTime() - start) / 1_000_000;
        LOG.info("store {}: index ready in {} ms: {} files and {} partial files, {} bytes of {}; dropped {} partial, "
                + "temporary or orphaned files", data, rebuildMillis, complete.size(), store.blocks().size(),
                store.used(), store.capacity(), dropped);
        Thread verifier = new Thread(() -> verifyAll(complete), "store-verifier");
        verifier.setDaemon(true);
        verifier.start();
    }

    long rebuildMillis() {
        return rebuildMillis;
    }

    boolean awaitVerified(Duration timeout) throws InterruptedException {
        return verified.await(timeout.toMillis(), TimeUnit.MILLISECONDS);
    }

    /** Proves the files found at start-up, oldest first (so the entries it replaces keep their LRU order). */
    private void verifyAll(List<StoreRecovery.Complete> found) {
        long start = System.nanoTime();
        int dropped = 0;
        try {
            for (StoreRecovery.Complete c : found) {
                StoreEntry e = store.index().peek(c.key());
                if (e != null && !e.isVerified() && settle(c.key(), e) == null) {
                    dropped++;
                }
            }
            LOG.info("store {}: {} files found at start-up proven in {} ms; {} dropped (sidecar disagrees)", files.data,
                    found.size() - dropped, (System.nanoTime() - start) / 1_000_000, dropped);
        } catch (RuntimeException e) {
            LOG.error("store: verifying the files found at start-up stopped (they are proven at first use): {}", e.toString());
        } finally {
            verified.countDown();
        }
    }

    /**
     * The proven entry for an unverified one found at start-up (its sidecar read here, on the caller's thread), or
     * null: the file dropped when its sidecar does not prove it, or gone meanwhile.
     */
    StoreEntry settle(StoreKey key, StoreEntry found) {
        StoreEntry proven = proven(key, found);
        if (proven == null) {
            if (store.index().peek(key) == found) {
                LOG.info("store: dropping {} (its sidecar does not prove it complete)", files.data.relativize(files.dataFile(key)));
                store.drop(key, found);
            }
            return null;
        }
        if (store.index().prove(key, found, proven)) {
            return proven;
        }
        StoreEntry now = store.index().peek(key); // proven by another meanwhile, or replaced, or gone
        return now != null && now.isVerified() && now.state() == ReplicaState.COMPLETE ? now : null;
    }

    /** The entry an unverified one's sidecar proves: the URL hashes to the name and the size is the file's; else null. */
    private StoreEntry proven(StoreKey key, StoreEntry found) {
        try {
            Sidecar s = StoreFiles.readSidecar(files.sidecarFile(key));
            if (s.originUrl() != null && s.size() == found.size() && StoreKey.hashOf(s.originUrl()).equals(key)) {
                return store.origins().entryOf(s);
            }
        } catch (IOException | IllegalArgumentException e) {
            LOG.debug("store: sidecar of {} unreadable: {}", key, e.toString());
        }
        return null;
    }
}
