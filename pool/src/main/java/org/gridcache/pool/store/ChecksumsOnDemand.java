package org.gridcache.pool.store;

import io.netty.util.concurrent.DefaultThreadFactory;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.gridcache.common.checksum.ChecksumComputation;
import org.gridcache.common.checksum.ChecksumType;
import org.gridcache.common.checksum.Checksums;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The checksums a client asks for ({@code Want-Digest}) that a stored file did not get while it filled, computed
 * from the file when first asked for and then kept in its sidecar, as XRootD computes a checksum at its first query.
 * A fill computes what {@code pool.checksums} names (adler32 and crc32c by default: intrinsics, GB/s); md5 and sha-256
 * cost about 2 s of CPU per GiB together, which every fill paid before, while few files are ever asked for them.
 *
 * <p>One computation per stored copy at a time: requests for the same copy wait for it, then ask again for what it
 * did not cover. Runs on its own threads, never on an event loop or a disk writer, so that computing a large file's
 * digest holds up neither other clients nor fills.
 */
public final class ChecksumsOnDemand implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(ChecksumsOnDemand.class);

    /** One computation: for which copy, of which types, and its result (the copy's checksums with those types). */
    private record Computation(StoreEntry copy, Set<ChecksumType> types, CompletableFuture<Checksums> result) {
    }

    private final Store store;
    private final ExecutorService readers;
    private final int threads;
    private final Map<StoreKey, Computation> running = new HashMap<>(); // guarded by itself

    public ChecksumsOnDemand(Store store, int threads) {
        this(store, Executors.newFixedThreadPool(threads, new DefaultThreadFactory("pool-checksums", true)), threads);
    }

    ChecksumsOnDemand(Store store, ExecutorService readers, int threads) {
        this.store = store;
        this.readers = readers;
        this.threads = threads;
    }

    /** The threads that read stored files for checksums, and how many (tests hold them all up). */
    public java.util.concurrent.Executor readers() {
        return readers;
    }

    public int threads() {
        return threads;
    }

    /**
     * The checksums of {@code copy}, the stored copy of {@code key}: those its sidecar holds, with whichever of
     * {@code wanted} it lacks computed now and kept. Completes on one of this object's threads; exceptionally when
     * the file cannot be read. {@link Checksums#NONE} when {@code copy} is no longer stored (its sidecar may then be
     * another copy's).
     */
    public CompletableFuture<Checksums> of(StoreKey key, StoreEntry copy, Set<ChecksumType> wanted) {
        Computation mine;
        synchronized (running) {
            Computation under = running.get(key);
            if (under != null && under.copy() == copy) {
                return under.result().thenComposeAsync(sums -> sums.types().containsAll(wanted) || sums.isEmpty()
                        ? CompletableFuture.completedFuture(sums) : of(key, copy, wanted), readers);
            }
            mine = new Computation(copy, EnumSet.copyOf(wanted), new CompletableFuture<>());
            running.put(key, mine); // a computation of an older copy, if any, still completes for its own waiters
        }
        try {
            readers.execute(() -> compute(key, mine));
        } catch (java.util.concurrent.RejectedExecutionException e) { // closing
            done(key, mine);
            mine.result().completeExceptionally(new IOException("pool closing"));
        }
        return mine.result();
    }

    private void compute(StoreKey key, Computation c) {
        Checksums result;
        try {
            result = computeAndKeep(key, c);
        } catch (IOException | RuntimeException e) {
            LOG.warn("store: cannot compute {} of {}: {}", c.types(), key, e.toString());
            done(key, c);
            c.result().completeExceptionally(e);
            return;
        }
        done(key, c); // before completing: a waiter that asks again must not find this computation
        c.result().complete(result);
    }

    private void done(StoreKey key, Computation c) {
        synchronized (running) {
            running.remove(key, c);
        }
    }

    private Checksums computeAndKeep(StoreKey key, Computation c) throws IOException {
        CompleteSidecars.StoredCopy stored = store.sidecars().open(key, c.copy());
        if (stored == null) {
            return Checksums.NONE;
        }
        Checksums known = stored.sidecar().knownChecksums();
        Set<ChecksumType> missing = EnumSet.copyOf(c.types());
        missing.removeAll(known.types());
        if (missing.isEmpty()) {
            stored.data().close();
            return known;
        }
        long start = System.nanoTime();
        store.counters().checksumsComputedOnDemand();
        Checksums computed;
        try (FileChannel data = stored.data()) {
            computed = digest(data, c.copy().size(), missing);
        }
        String kept;
        try {
            kept = store.sidecars().keep(key, c.copy(), stored.sidecar(), computed) ? "" : "; not kept: the copy changed meanwhile";
        } catch (IOException e) { // e.g. a full disk: the answer stands, the next request computes them again
            kept = "; not kept: " + e;
        }
        LOG.info("store: computed {} of {} ({} bytes) in {} ms on demand{}", missing, key, c.copy().size(),
                (System.nanoTime() - start) / 1_000_000, kept);
        return known.with(computed);
    }

    /** {@code types} of the first {@code size} bytes of {@code data}. */
    static Checksums digest(FileChannel data, long size, Set<ChecksumType> types) throws IOException {
        ChecksumComputation computation = new ChecksumComputation(types);
        if (computation.update(data, 0, size) < size) {
            throw new IOException("stored file shorter than its " + size + " bytes");
        }
        return computation.finish();
    }

    @Override
    public void close() {
        readers.shutdownNow();
    }
}
