package org.gridcache.pool.fetch;

import io.netty.buffer.ByteBuf;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.util.concurrent.DefaultThreadFactory;
import java.io.IOException;
import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.function.IntSupplier;
import org.gridcache.common.ticket.Ticket;
import org.gridcache.pool.http.FetchException;
import org.gridcache.pool.origin.RangedReads;
import org.gridcache.pool.store.BlockBitmap;
import org.gridcache.pool.store.PartialFiles.BlockWriter;
import org.gridcache.pool.store.PartialFile;
import org.gridcache.pool.store.PartialFiles;
import org.gridcache.pool.store.ReplicaState;
import org.gridcache.pool.store.Store;
import org.gridcache.pool.store.StoreException;
import org.gridcache.pool.store.StoreKey;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The sparse block cache: a Range on a cold file fetches just the blocks ({@code pool.block-size}) it touches
 * into a {@link PartialFile} and keeps them, as XCache's block cache does. Requests for a block being fetched join
 * that fetch (one origin read per block); the missing blocks of one request that lie side by side are one ranged
 * read. A block counts (is served, survives a restart) only once its run's write ({@link PartialFiles.BlockWriter#commit})
 * has put its bytes and then its bit on disk; a failed read stores nothing for its blocks and fails every request waiting on them (with
 * {@link FetchException#blocksDropped} when the partial file was dropped under it: they are served whole instead).
 */
public final class BlockFetches implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(BlockFetches.class);
    private final Store store;
    private final IntSupplier blockSize;
    private final IntSupplier prefetch;
    /** fsync and sidecar writes, off the event loops. */
    private final ExecutorService provers = Executors.newFixedThreadPool(2, new DefaultThreadFactory("pool-block-prover", true));
    /**
     * Partial files opened and block reads started, off the event loops: a creation writes a file and a sidecar (or
     * waits for another request's), a run's reservation asks the file system for its free bytes and may wait for the
     * evictor.
     */
    private final Executor starters;
    /** The starter threads when this made them (not given): shut down with it. */
    private final ExecutorService ownStarters;

    public BlockFetches(Store store, IntSupplier blockSize, IntSupplier prefetch) {
        this(store, blockSize, prefetch, null);
    }

    /** {@code starters}: where runs start and partial files are opened; null: two threads of its own. */
    BlockFetches(Store store, IntSupplier blockSize, IntSupplier prefetch, Executor starters) {
        this.store = store;
        this.blockSize = blockSize;
        this.prefetch = prefetch;
        this.ownStarters = starters == null
                ? Executors.newFixedThreadPool(2, new DefaultThreadFactory("pool-block-start", true)) : null;
        this.starters = starters == null ? ownStarters : starters;
    }

    /**
     * The partial file to serve ranges of the ticket's file from, pinned: the stored one, or a new one; null when
     * this read is no block read (a complete copy is stored). A partial file of another version than the ticket's is
     * dropped first.
     */
    public PartialFile open(Ticket ticket) throws IOException {
        StoreKey key = StoreKey.ofOrigin(ticket.originUrl());
        long size = ticket.size();
        if (size <= 0 || store.contains(key)) {
            return null;
        }
        for (int attempt = 0; attempt < 3; attempt++) {
            PartialFile p = store.blocks().partial(key);
            if (p != null && p.state() == ReplicaState.NEW) {
                p.awaitCreated(); // another request is creating it (on its thread: a file and a sidecar away)
            }
            if (p != null && p.isStaleFor(size, ticket.mtime())) {
                LOG.info("store: blocks of {} are of another version (size {} mtime {}); dropping them", ticket.path(), p.size(), p.mtime());
                store.blocks().drop(p);
                p = null;
            }
            if (p == null) {
                p = store.blocks().create(key, ticket.originUrl(), size, ticket.mtime(), blockSize.getAsInt());
            }
            if (p.state() == ReplicaState.NEW) {
                p.awaitCreated(); // another request is creating it: a file and a sidecar away
            }
            store.pin(key); // then the state: eviction drops no pinned partial file
            if (p.state() == ReplicaState.PARTIAL) {
                if (isComplete(p)) { // proven whole before a restart: complete it now
                    PartialFile full = p;
                    try {
                        provers.execute(() -> completeIfFull(full, ticket.path()));
                    } catch (RejectedExecutionException e) {
                        LOG.debug("pool closing: {} stays a partial file", ticket.path());
                    }
                }
                return p;
            }
            store.unpin(key); // dropped or evicted meanwhile: decide again
        }
        return null; // dropped again and again: served as no block read
    }

    /** {@link #open} on one of the starter threads: what an event loop calls. */
    public CompletableFuture<PartialFile> openAsync(Ticket ticket) {
        CompletableFuture<PartialFile> opened = new CompletableFuture<>();
        try {
            starters.execute(() -> {
                try {
                    opened.complete(open(ticket));
                } catch (IOException | RuntimeException e) {
                    opened.completeExceptionally(e);
                }
            });
        } catch (RejectedExecutionException e) {
            opened.completeExceptionally(shuttingDown());
        }
        return opened;
    }

    private static FetchException shuttingDown() {
        return new FetchException(HttpResponseStatus.SERVICE_UNAVAILABLE, "pool is shutting down");
    }

    /** What a request waits for: every block of its ranges proven; {@code fetched} when some had to come from the origin. */
    public record Plan(CompletableFuture<Void> ready, boolean fetched) {
    }

    /**
     * One origin read of blocks {@code [first, toExclusive)}, with the futures it put in flight for them (the i-th
     * for block first + i): settling it ends those and takes out of the map only those, never a later run's.
     */
    private record Run(int first, int toExclusive, List<CompletableFuture<Void>> blocks) {
    }

    /**
     * Makes sure the blocks holding {@code ranges} ({start, end} pairs, inclusive) are proven or being fetched,
     * starting one read per run of missing adjacent blocks (and, with {@code pool.block-prefetch}, the blocks after
     * the last one, which nobody waits for).
     */
    public Plan ensure(PartialFile p, Ticket ticket, RangedReads reads, List<long[]> ranges) {
        return ensure(p, ticket, reads, ranges, prefetch.getAsInt(), Integer.MAX_VALUE);
    }

    /**
     * As {@link #ensure(PartialFile, Ticket, RangedReads, List)}, with {@code ahead} blocks read ahead and no origin
     * read longer than {@code longestRun} blocks (a whole read proceeds run by run: each is proven, and so served,
     * as soon as it is in).
     */
    public Plan ensure(PartialFile p, Ticket ticket, RangedReads reads, List<long[]> ranges, int ahead, int longestRun) {
        List<CompletableFuture<Void>> waits = new ArrayList<>();
        List<Run> runs = new ArrayList<>();
        synchronized (p) { // the file's bitmap and blocks in flight: no system call under it
            BlockBitmap bitmap = p.bitmap();
            for (long[] r : ranges) {
                plan(p, bitmap.blockOf(r[0]), bitmap.blockOf(r[1]), longestRun, waits, runs);
            }
            int lastBlock = bitmap.blockOf(ranges.get(ranges.size() - 1)[1]);
            int after = Math.min(ahead, bitmap.blocks() - 1 - lastBlock);
            if (after > 0) {
                plan(p, lastBlock + 1, lastBlock + after, longestRun, new ArrayList<>(), runs);
            }
        }
        for (Run run : runs) {
            startOffLoop(p, ticket, reads, run);
        }
        boolean fetched = !waits.isEmpty();
        return new Plan(CompletableFuture.allOf(waits.toArray(CompletableFuture[]::new)), fetched);
    }

    /** Whether any block of {@code p} is proven. */
    public static boolean holdsAny(PartialFile p) {
        synchronized (p) {
            return p.bitmap().storedBytes() > 0;
        }
    }

    /** Whether every block of {@code p} is proven. */
    public static boolean isComplete(PartialFile p) {
        synchronized (p) {
            return p.bitmap().complete();
        }
    }

    /**
     * Caller holds {@code p}'s monitor: notes the futures of blocks {@code [first, last]} and the runs of them to
     * start, none longer than {@code longestRun} blocks.
     */
    private static void plan(PartialFile p, int first, int last, int longestRun, List<CompletableFuture<Void>> waits,
                             List<Run> runs) {
        int runStart = -1;
        List<CompletableFuture<Void>> blocks = null;
        for (int b = first; b <= last + 1; b++) {
            boolean missing = b <= last && !p.bitmap().has(b) && !p.inFlight().containsKey(b);
            if (runStart >= 0 && (!missing || b - runStart == longestRun)) {
                runs.add(new Run(runStart, b, blocks));
                runStart = -1;
            }
            if (missing) {
                if (runStart < 0) {
                    runStart = b;
                    blocks = new ArrayList<>();
                }
                CompletableFuture<Void> f = new CompletableFuture<>();
                p.inFlight().put(b, f);
                blocks.add(f);
                waits.add(f);
            } else if (b <= last && p.inFlight().containsKey(b)) {
                waits.add(p.inFlight().get(b)); // coalesced: another request is fetching this block
            }
        }
    }

    /** Starts the read of a run on a starter thread; its blocks' waiters hear of any failure (settled once). */
    private void startOffLoop(PartialFile p, Ticket ticket, RangedReads reads, Run run) {
        try {
            starters.execute(() -> {
                try {
                    start(p, ticket, reads, run);
                } catch (RuntimeException e) {
                    LOG.error("{}: blocks {}-{} not read", ticket.path(), run.first(), run.toExclusive() - 1, e);
                    settle(p, run, FetchException.badGateway("pool could not read the blocks; see its log"));
                }
            });
        } catch (RejectedExecutionException e) {
            settle(p, run, shuttingDown());
        }
    }

    /** Reads the run's blocks from the origin into the partial file. */
    private void start(PartialFile p, Ticket ticket, RangedReads reads, Run run) {
        if (p.state() != ReplicaState.PARTIAL) { // dropped since it was planned: nothing to read into
            settle(p, run, FetchException.blocksDropped("the blocks of " + ticket.path() + " were dropped"));
            return;
        }
        BlockWriter writer;
        try {
            writer = store.blocks().openRun(p, run.first(), run.toExclusive());
        } catch (StoreException e) {
            settle(p, run, FetchException.fromStore(e));
            return;
        }
        LOG.debug("{}: blocks {}-{} from the origin", ticket.path(), run.first(), run.toExclusive() - 1);
        URI origin;
        try {
            origin = URI.create(ticket.originUrl());
        } catch (IllegalArgumentException e) {
            writer.cancel();
            settle(p, run, FetchException.badGateway("ticket names no usable origin URL"));
            return;
        }
        try {
            read(p, ticket, reads, origin, writer, run);
        } catch (RuntimeException e) {
            writer.cancel();
            throw e;
        }
    }

    private void read(PartialFile p, Ticket ticket, RangedReads reads, URI origin, BlockWriter writer, Run run) {
        long length = writer.length();
        reads.read(origin, ticket, writer.offset(), length, new RangedReads.Receiver() {
            private long received; // one fetcher thread at a time

            @Override
            public void opened() {
            }

            @Override
            public void receive(ByteBuf data) throws IOException {
                try {
                    int n = data.readableBytes();
                    writer.write(data.nioBuffer(), received);
                    received += n;
                } finally {
                    data.release();
                }
            }

            @Override
            public void done(FetchException failure) {
                FetchException why = failure == null && received != length
                        ? FetchException.badGateway("origin sent " + received + " of the " + length + " bytes of a range") : failure;
                try {
                    provers.execute(() -> finish(p, ticket, writer, run, received, why));
                } catch (RejectedExecutionException e) {
                    writer.cancel();
                    settle(p, run, shuttingDown());
                }
            }
        });
    }

    private void finish(PartialFile p, Ticket ticket, BlockWriter writer, Run run, long received, FetchException failure) {
        store.counters().countOriginBytes(received);
        int first = run.first();
        int last = run.toExclusive() - 1;
        FetchException why = failure;
        if (why == null) {
            try {
                writer.commit();
            } catch (IOException | RuntimeException e) { // its waiters are settled below whatever happened
                LOG.warn("store: blocks {}-{} of {} not kept: {}", first, last, ticket.path(), e.toString());
                why = new FetchException(HttpResponseStatus.SERVICE_UNAVAILABLE, "pool could not keep the blocks read; try again");
            }
        } else {
            writer.cancel();
            LOG.info("{}: blocks {}-{} failed: {}", ticket.path(), first, last, why.getMessage());
        }
        if (why != null && p.state() != ReplicaState.PARTIAL) {
            // dropped under the read (a complete copy committed, another version, a write notice): the whole file then
            why = FetchException.blocksDropped("the blocks of " + ticket.path() + " were dropped while being read");
        }
        if (why == null) {
            completeIfFull(p, ticket.path()); // before its waiters go on: they find the complete copy
        }
        settle(p, run, why);
    }

    /**
     * Once every block is proven the partial file becomes a complete replica (here, on a prover, its key pinned);
     * its readers read on from the blocks they opened, whose bitmap stays full.
     */
    private void completeIfFull(PartialFile p, String path) {
        if (!isComplete(p)) {
            return;
        }
        store.pin(p.key());
        try {
            if (store.blocks().complete(p)) {
                LOG.info("store: {} is complete: every block of its {} bytes proven", path, p.size());
            }
        } catch (IOException | RuntimeException e) { // its waiters are settled whatever happens here
            LOG.warn("store: {} has every block but was not made complete (it is served from its blocks): {}", path,
                    e.toString());
        } finally {
            store.unpin(p.key());
        }
    }

    /** Ends the run's futures, proven (null) or failed, once they are out of the map (later runs' stay in it). */
    private static void settle(PartialFile p, Run run, FetchException failure) {
        synchronized (p) {
            for (int i = 0; i < run.blocks().size(); i++) {
                p.inFlight().remove(run.first() + i, run.blocks().get(i));
            }
        }
        for (CompletableFuture<Void> f : run.blocks()) {
            if (failure == null) {
                f.complete(null);
            } else {
                f.completeExceptionally(failure);
            }
        }
    }

    /**
     * The complete copy of {@code p}'s version, pinned and opened, when one is stored (a whole-file fetch committed
     * it and dropped {@code p}, or {@code p} became it); null otherwise. Given back by {@link #release(PartialFile, Store.Opened)}.
     */
    public Store.Opened completeCopyOf(PartialFile p) throws IOException {
        Store.Opened copy = store.pinAndOpen(p.key());
        if (copy != null && copy.entry().isStaleFor(p.size(), p.mtime())) {
            release(p, copy);
            return null;
        }
        return copy;
    }

    /** The end of a read's use of a complete copy from {@link #completeCopyOf}. */
    public void release(PartialFile p, Store.Opened copy) {
        try {
            copy.file().close();
        } catch (IOException e) {
            LOG.debug("closing a stored file: {}", e.toString());
        }
        store.unpin(p.key());
    }

    /** The end of a block read's use of its partial file. */
    public void release(PartialFile p) {
        store.unpin(p.key());
    }

    @Override
    public void close() {
        if (ownStarters != null) {
            ownStarters.shutdown();
        }
        provers.shutdown();
    }
}
