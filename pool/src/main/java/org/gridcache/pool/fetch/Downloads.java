package org.gridcache.pool.fetch;

import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.util.concurrent.DefaultThreadFactory;
import java.io.IOException;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.channels.FileChannel;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.function.LongSupplier;
import org.gridcache.common.ticket.Ticket;
import org.gridcache.common.checksum.ChecksumType;
import org.gridcache.common.checksum.Checksums;
import org.gridcache.pool.http.FetchException;
import org.gridcache.pool.origin.OriginFetcher;
import org.gridcache.pool.peer.Peers;
import org.gridcache.pool.store.ChecksumsOnDemand;
import org.gridcache.pool.store.ReplicaWriter;
import org.gridcache.pool.store.Sidecar;
import org.gridcache.pool.store.Store;
import org.gridcache.pool.store.StoreEntry;
import org.gridcache.pool.store.StoreException;
import org.gridcache.pool.store.StoreKey;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Decides, per request, between a hit and a fetch, and coalesces fetches: however many clients miss the same file
 * at once, one {@link Download} runs and they all join it. No shared lock: a hit is the store's lock-free
 * {@link Store#pinAndOpen}; a miss puts its fetch in the in-flight map by {@code putIfAbsent} (the one that wins
 * starts it, the others join), and a fetch leaves the map only after its copy is published, so a client either
 * finds the file in the store or joins the fetch that will put it there; never neither.
 */
public final class Downloads implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(Downloads.class);
    private static final int OPENERS = 4;

    /** Where a client's bytes come from; both variants hold a pin and an open file that the mover must release. */
    public sealed interface Source permits Hit, Joined {
        StoreKey key();

        FileChannel file();
    }

    public record Hit(StoreKey key, StoreEntry entry, FileChannel file) implements Source {
    }

    /**
     * A miss: {@code file} reads the part file, which stays readable after its rename or deletion.
     * {@code receivedAll}: the fetch had every byte when this client joined, so the client waits for no origin
     * (a hit in all but the commit); {@code collapsed}: another client started the fetch; {@code refreshesStale}: the
     * fetch replaces a stored copy that a ticket showed stale.
     */
    public record Joined(StoreKey key, Download download, FileChannel file, boolean receivedAll, boolean collapsed,
                         boolean refreshesStale) implements Source {
    }

    private final Store store;
    private final List<OriginFetcher> fetchers;
    private final PeerFetcher peers;
    private final java.util.function.Supplier<java.util.Set<ChecksumType>> checksumTypes;
    private final FetchesInFlight inFlight;
    private final WriteBehindBudget budget;
    /** Blocking disk writes of fills and uploads, off the event loops. */
    private final WriteQueue diskWriters = new WriteQueue();
    /**
     * Where misses are opened, off the event loops ({@link #openAsync}): a reservation may wait for the evictor, and a
     * part file is created. A few threads: each holds a miss only until its fetch has started.
     */
    private final ExecutorService openers = Executors.newFixedThreadPool(OPENERS, new DefaultThreadFactory("pool-miss", true));
    /** Checksums clients ask for that a fill did not compute ({@code pool.checksums} lacks them). */
    private final ChecksumsOnDemand checksumsOnDemand;

    /** {@code writeBehindBytes}: the pool-wide bound on received bytes not yet on disk (read live). */
    Downloads(Store store, List<OriginFetcher> fetchers, LongSupplier writeBehindBytes) {
        this(store, fetchers, writeBehindBytes, null);
    }

    /** {@code peers}: pulls misses from the peers a ticket names before the origin (null: never). */
    public Downloads(Store store, List<OriginFetcher> fetchers, LongSupplier writeBehindBytes, PeerFetcher peers) {
        this(store, fetchers, writeBehindBytes, peers, () -> java.util.EnumSet.allOf(ChecksumType.class));
    }

    /** {@code checksumTypes}: what a fetch computes while it fills ({@code pool.checksums}, read per fetch). */
    public Downloads(Store store, List<OriginFetcher> fetchers, LongSupplier writeBehindBytes, PeerFetcher peers,
                     java.util.function.Supplier<java.util.Set<ChecksumType>> checksumTypes) {
        this.checksumTypes = checksumTypes;
        this.store = store;
        this.inFlight = new FetchesInFlight();
        store.reservationsWritten(() -> inFlight.started().stream().mapToLong(Download::written).sum());
        this.fetchers = fetchers;
        this.peers = peers;
        this.budget = new WriteBehindBudget(writeBehindBytes);
        this.checksumsOnDemand = new ChecksumsOnDemand(store, Math.max(1, Runtime.getRuntime().availableProcessors() / 2));
    }

    /** Computes and keeps the checksums of stored files that clients ask for and their fills did not compute. */
    public ChecksumsOnDemand checksumsOnDemand() {
        return checksumsOnDemand;
    }

    /**
     * The threads that write and checksum fills' part files and an upload's copy, off the event loops (its checksums
     * too, which at a few hundred MB/s would hold every connection of a loop).
     */
    public java.util.concurrent.Executor diskWriters() {
        return diskWriters;
    }

    /**
     * The ticket's file when a current copy is stored: a hit, pinned and opened (a map read, a pin, an open; no
     * lock); null for a miss, and for a stale copy, which {@link #open} drops and fetches anew.
     */
    public Hit hit(Ticket ticket) throws IOException {
        StoreKey key = StoreKey.ofOrigin(ticket.originUrl());
        Store.Opened stored = store.pinAndOpen(key);
        if (stored == null) {
            return null;
        }
        if (stored.entry().isStaleFor(ticket.size(), ticket.mtime())) {
            closeQuietly(stored.file());
            store.unpin(key);
            return null;
        }
        return new Hit(key, stored.entry(), stored.file());
    }

    /** {@link #open}, on one of the pool's opener threads: what an event loop calls for a miss. */
    public CompletableFuture<Source> openAsync(Ticket ticket) {
        CompletableFuture<Source> opened = new CompletableFuture<>();
        try {
            openers.execute(() -> {
                try {
                    opened.complete(open(ticket));
                } catch (FetchException | IOException | RuntimeException e) {
                    opened.completeExceptionally(e);
                }
            });
        } catch (RejectedExecutionException e) {
            opened.completeExceptionally(new FetchException(HttpResponseStatus.SERVICE_UNAVAILABLE, "pool is shutting down"));
        }
        return opened;
    }

    /** The file the ticket names, pinned and opened: from the store, or from a fetch (started if none runs). */
    public Source open(Ticket ticket) throws FetchException, IOException {
        StoreKey key = StoreKey.ofOrigin(ticket.originUrl());
        Store.Opened stored = store.pinAndOpen(key); // a hit needs no origin: its URL is parsed for a fetch only
        Hit found = current(key, stored, ticket);
        if (found != null) {
            return found;
        }
        boolean stale = stored != null; // dropped by current(): the fetch replaces a stale copy
        URI origin = parseOrigin(ticket.originUrl());
        OriginFetcher fetcher = fetchers.stream().filter(f -> f.supports(origin)).findFirst()
                .orElseThrow(() -> FetchException.badGateway("pool cannot fetch from " + origin.getScheme() + " origins"));
        // a new directory costs a journalled mkdir (0.1-0.7 ms in a VM): made by the miss, never by a hit
        store.disk().makeDirectoryFor(key);
        while (true) {
            FetchesInFlight.Fill fill = inFlight.get(key);
            if (fill == null) {
                Hit hit = hit(key, ticket); // committed meanwhile: a commit publishes before it leaves the map
                if (hit != null) {
                    return hit;
                }
                FetchesInFlight.Fill mine = new FetchesInFlight.Fill(stale);
                fill = inFlight.putIfAbsent(key, mine);
                if (fill == null) {
                    return start(key, ticket, origin, fetcher, mine);
                }
            }
            Download download = fill.await();
            if (download == null) {
                continue; // its start failed, and it left the map: try again
            }
            store.pin(key);
            try {
                FileChannel reader = FileChannel.open(store.disk().partFile(key), StandardOpenOption.READ);
                return new Joined(key, download, reader, download.receivedAll(), true, fill.refreshesStale);
            } catch (java.nio.file.NoSuchFileException e) {
                store.unpin(key); // committed or abandoned since: decide again once it has left the map
                Thread.onSpinWait();
            } catch (IOException | RuntimeException e) {
                store.unpin(key);
                throw e;
            }
        }
    }

    /**
     * Starts the fetch {@code fill} stands for, which this request put in the in-flight map: room reserved and the
     * part file created (there for the clients' readers at once, written when bytes come) before anyone joins it;
     * when that fails, the fill leaves the map and joiners decide again.
     */
    private Source start(StoreKey key, Ticket ticket, URI origin, OriginFetcher fetcher, FetchesInFlight.Fill fill)
            throws FetchException, IOException {
        FileChannel reader = null;
        Download started;
        try {
            ReplicaWriter replica;
            try {
                replica = store.openFill(key, Math.max(0, ticket.size()));
            } catch (StoreException e) {
                throw FetchException.fromStore(e);
            }
            try {
                reader = FileChannel.open(replica.path(), StandardOpenOption.READ);
                started = new Download(this, replica, ticket.originUrl(), origin, ticket.size(), ticket.mtime(),
                        partFile(key), budget, diskWriters, checksumTypes.get());
            } catch (IOException | RuntimeException e) {
                if (reader != null) {
                    closeQuietly(reader);
                }
                replica.cancel();
                throw e;
            }
        } catch (FetchException | IOException | RuntimeException e) {
            inFlight.remove(key, fill);
            fill.started.complete(null);
            throw e;
        }
        store.pin(key);
        fill.started.complete(started);
        Source source = new Joined(key, started, reader, false, false, fill.refreshesStale);
        if (peers != null && !ticket.peers().isEmpty() && !ticket.asksAllPeers()) {
            peers.fetch(ticket, origin, started, fetcher);
        } else {
            started.from("origin");
            fetcher.fetch(origin, started, ticket); // the ticket says which credential to present
        }
        return source;
    }

    /**
     * What this pool can tell a peer about the ticket's file without fetching anything: {@link Peers#HIT} (a
     * complete, current copy), {@link Peers#IN_FLIGHT} (a fetch under way that has chosen its source, so a pull
     * from here can never wait on the asker itself), or null.
     */
    public String peek(Ticket ticket) {
        StoreKey key = StoreKey.ofOrigin(ticket.originUrl());
        StoreEntry entry = store.lookup(key);
        if (entry != null && !entry.isStaleFor(ticket.size(), ticket.mtime())) {
            return Peers.HIT;
        }
        Download d = inFlight.running(key);
        if (d != null && d.source() != null && d.state() != Download.State.FAILED) {
            return Peers.IN_FLIGHT;
        }
        return null;
    }

    /** The checksums kept with the ticket's file when a current copy is stored; none otherwise. */
    public Checksums storedChecksums(Ticket ticket) {
        StoreKey key = StoreKey.ofOrigin(ticket.originUrl());
        StoreEntry entry = store.lookup(key);
        if (entry == null || entry.isStaleFor(ticket.size(), ticket.mtime())) {
            return Checksums.NONE;
        }
        return store.checksums(key); // a concurrent eviction at worst makes this NONE
    }

    /** Whether the file the ticket names is in the store (and fresh) or being fetched now. */
    public boolean holds(Ticket ticket) {
        StoreKey key = StoreKey.ofOrigin(ticket.originUrl());
        if (inFlight.containsKey(key)) {
            return true;
        }
        StoreEntry entry = store.lookup(key);
        return entry != null && !entry.isStaleFor(ticket.size(), ticket.mtime());
    }

    /**
     * A hit, pinned and opened; null when no current copy is stored. Every request of every event loop passes here,
     * and takes no shared lock: a map read, a pin, an open ({@link Store#pinAndOpen}). A stale copy is dropped.
     */
    private Hit hit(StoreKey key, Ticket ticket) throws IOException {
        return current(key, store.pinAndOpen(key), ticket);
    }

    /** {@code opened} as a hit when it is current; a stale one is closed, unpinned and dropped: null. */
    private Hit current(StoreKey key, Store.Opened opened, Ticket ticket) throws IOException {
        if (opened == null) {
            return null;
        }
        StoreEntry entry = opened.entry();
        if (entry.isStaleFor(ticket.size(), ticket.mtime())) {
            closeQuietly(opened.file());
            store.unpin(key);
            LOG.info("store: copy of {} is stale (size {} mtime {}, ticket says size {} mtime {}); fetching anew",
                    ticket.path(), entry.size(), entry.mtime(), ticket.size(), ticket.mtime());
            store.drop(key);
            return null;
        }
        return new Hit(key, entry, opened.file());
    }

    /** The part file of {@code key}'s fill, on this store's disk. */
    private WriteBehind.PartFile partFile(StoreKey key) {
        return new WriteBehind.PartFile() {
            @Override
            public FileChannel open() throws IOException {
                return store.disk().openPart(key);
            }

            @Override
            public boolean makeRoom(long bytes) {
                return store.makeRoomOnDisk(bytes);
            }
        };
    }

    private static void closeQuietly(FileChannel file) {
        try {
            file.close();
        } catch (IOException e) {
            LOG.debug("closing a stored file: {}", e.toString());
        }
    }

    private static URI parseOrigin(String url) throws FetchException {
        try {
            URI uri = new URI(url);
            if (uri.getScheme() == null) {
                throw new URISyntaxException(url, "no scheme");
            }
            return uri;
        } catch (URISyntaxException | NullPointerException e) {
            throw FetchException.badGateway("ticket names no usable origin URL");
        }
    }

    // --- for Download ---

    void reserve(Download d, long total) throws FetchException {
        inFlight.reserve(d, total);
    }

    long reservedOf(Download d) {
        return inFlight.reservedOf(d);
    }

    void commit(Download d, Sidecar sidecar) throws IOException {
        inFlight.commit(d, sidecar);
    }

    void checksumMismatch() {
        store.counters().checksumMismatch();
    }

    void abandon(Download d) {
        inFlight.abandon(d);
    }

    int inFlight() {
        return inFlight.size();
    }

    /** Fails every fetch in flight, so that waiting clients are disconnected rather than left hanging. */
    @Override
    public void close() {
        for (Download d : inFlight.started()) {
            d.fail(new FetchException(HttpResponseStatus.SERVICE_UNAVAILABLE, "pool is shutting down"));
        }
        openers.shutdown();
        diskWriters.shutdown();
        checksumsOnDemand.close();
    }

    /** Received bytes held in memory, not yet on disk, over all fetches. */
    long writeBehindBytes() {
        return budget.used();
    }
}
