package org.gridcache.pool.fetch;

import io.netty.handler.codec.http.HttpResponseStatus;
import java.io.IOException;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.channels.FileChannel;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.LongSupplier;
import org.gridcache.common.Ticket;
import org.gridcache.common.checksum.ChecksumType;
import org.gridcache.common.checksum.Checksums;
import org.gridcache.pool.origin.OriginFetcher;
import org.gridcache.pool.peer.PeerFetcher;
import org.gridcache.pool.peer.Peers;
import org.gridcache.pool.store.ChecksumsOnDemand;
import org.gridcache.pool.store.Sidecar;
import org.gridcache.pool.store.Store;
import org.gridcache.pool.store.StoreEntry;
import org.gridcache.pool.store.StoreKey;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Decides, per request, between a hit and a fetch, and coalesces fetches: however many clients miss the same file
 * at once, one {@link Download} runs and they all join it. The decision, the in-flight map and the commit of a
 * finished fetch all happen under the store's monitor, so a client either finds the file in the index or joins the
 * fetch that will put it there; never neither.
 */
public final class Downloads implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(Downloads.class);

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
     * (a hit in all but the commit).
     */
    public record Joined(StoreKey key, Download download, FileChannel file, boolean receivedAll) implements Source {
    }

    private final Store store;
    private final List<OriginFetcher> fetchers;
    private final PeerFetcher peers;
    private final java.util.function.Supplier<java.util.Set<ChecksumType>> checksumTypes;
    private final Map<StoreKey, Download> inFlight = new HashMap<>(); // guarded by store
    private final WriteBehindBudget budget;
    /** Blocking disk writes of fills and uploads, off the event loops. */
    private final WriteQueue diskWriters = new WriteQueue();
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

    /** The file the ticket names, pinned and opened: from the store, or from a fetch (started if none runs). */
    public Source open(Ticket ticket) throws FetchException, IOException {
        StoreKey key = StoreKey.ofOrigin(ticket.originUrl());
        Hit found = hit(key, ticket); // a hit needs no origin: its URL is parsed for a fetch only
        if (found != null) {
            return found;
        }
        URI origin = parseOrigin(ticket.originUrl());
        OriginFetcher fetcher = fetchers.stream().filter(f -> f.supports(origin)).findFirst()
                .orElseThrow(() -> FetchException.badGateway("pool cannot fetch from " + origin.getScheme() + " origins"));
        // a new directory costs a journalled mkdir (0.1-0.7 ms in a VM): made here, no other loop's hit waits for it
        store.makeDirectoryFor(key);
        Download started = null;
        Source source;
        synchronized (store) {
            Hit hit = hitLocked(key, ticket); // stored meanwhile
            if (hit != null) {
                return hit;
            }
            Download download = inFlight.get(key);
            FileChannel reader;
            if (download == null) {
                long reserve = Math.max(0, ticket.size());
                store.reserve(reserve);
                try {
                    reader = store.createPart(key); // there for the clients' readers at once; written when bytes come
                } catch (IOException e) {
                    store.release(reserve);
                    throw e;
                }
                download = start(key, ticket, origin, reserve);
                started = download;
            } else {
                reader = FileChannel.open(store.partFile(key), StandardOpenOption.READ);
            }
            store.pin(key);
            source = new Joined(key, download, reader, started == null && download.receivedAll());
        }
        if (started != null) {
            if (peers != null && !ticket.peers().isEmpty() && !ticket.asksAllPeers()) {
                peers.fetch(ticket, origin, started, fetcher);
            } else {
                started.from("origin");
                fetcher.fetch(origin, started, ticket); // the ticket says which credential to present
            }
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
        synchronized (store) {
            StoreEntry entry = store.lookup(key);
            if (entry != null && !entry.isStaleFor(ticket.size(), ticket.mtime())) {
                return Peers.HIT;
            }
            Download d = inFlight.get(key);
            if (d != null && d.source() != null && d.state() != Download.State.FAILED) {
                return Peers.IN_FLIGHT;
            }
            return null;
        }
    }

    /** The checksums kept with the ticket's file when a current copy is stored; none otherwise. */
    public Checksums storedChecksums(Ticket ticket) {
        StoreKey key = StoreKey.ofOrigin(ticket.originUrl());
        synchronized (store) {
            StoreEntry entry = store.lookup(key);
            if (entry == null || entry.isStaleFor(ticket.size(), ticket.mtime())) {
                return Checksums.NONE;
            }
        }
        return store.checksums(key); // a concurrent eviction at worst makes this NONE
    }

    /** Whether the file the ticket names is in the store (and fresh) or being fetched now. */
    public boolean holds(Ticket ticket) {
        StoreKey key = StoreKey.ofOrigin(ticket.originUrl());
        synchronized (store) {
            if (inFlight.containsKey(key)) {
                return true;
            }
            StoreEntry entry = store.lookup(key);
            return entry != null && !entry.isStaleFor(ticket.size(), ticket.mtime());
        }
    }

    /**
     * A hit, pinned and opened; null when no current copy is stored. Every request of every event loop passes here,
     * so the open (a system call, tens of µs in a VM) is made outside the store's monitor: the copy is found and
     * pinned under it, which keeps eviction off the file, and after the open it is checked, under it again, that the
     * copy is still the key's (a commit replacing it renames a new file in place and updates the index under the
     * monitor, so the file opened is the entry's exactly when the index still holds the entry). Held with the open
     * inside, the monitor serialized the event loops and parked them (futex) on every small-file hit. A copy replaced
     * or vanished meanwhile is decided again as before, under the monitor throughout.
     */
    private Hit hit(StoreKey key, Ticket ticket) throws IOException {
        StoreEntry entry;
        synchronized (store) {
            entry = current(key, ticket);
            if (entry == null) {
                return null;
            }
            store.pin(key);
        }
        FileChannel file = null;
        boolean served = false;
        try {
            file = store.openStored(key);
            served = file != null && store.holds(key, entry);
            if (served) {
                return new Hit(key, entry, file);
            }
        } finally {
            if (!served) { // not served, for whatever reason (a failed open too): neither file nor pin is kept
                if (file != null) {
                    closeQuietly(file);
                }
                store.unpin(key);
            }
        }
        synchronized (store) {
            return hitLocked(key, ticket);
        }
    }

    /** The key's stored copy if it is current for the ticket; a stale one is dropped. Caller holds the store's monitor. */
    private StoreEntry current(StoreKey key, Ticket ticket) {
        StoreEntry entry = store.lookup(key);
        if (entry != null && entry.isStaleFor(ticket.size(), ticket.mtime())) {
            LOG.info("store: copy of {} is stale (size {} mtime {}, ticket says size {} mtime {}); fetching anew",
                    ticket.path(), entry.size, entry.mtime, ticket.size(), ticket.mtime());
            store.drop(key);
            return null;
        }
        return entry;
    }

    /** A hit, pinned and opened under the store's monitor, which the caller holds. */
    private Hit hitLocked(StoreKey key, Ticket ticket) throws IOException {
        StoreEntry entry = current(key, ticket);
        if (entry == null) {
            return null;
        }
        FileChannel file = store.openData(key);
        if (file == null) {
            return null;
        }
        store.pin(key);
        return new Hit(key, entry, file);
    }

    private static void closeQuietly(FileChannel file) {
        try {
            file.close();
        } catch (IOException e) {
            LOG.debug("closing a stored file: {}", e.toString());
        }
    }

    /** A fetch of the file whose part file was just created, {@code reserve} bytes reserved for it; under the store's monitor. */
    private Download start(StoreKey key, Ticket ticket, URI origin, long reserve) {
        Download d = new Download(this, key, ticket.originUrl(), origin, ticket.size(), ticket.mtime(), () -> store.openPart(key),
                budget, diskWriters, checksumTypes.get());
        d.reserved = reserve;
        inFlight.put(key, d);
        return d;
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

    /** Grows the download's reservation to {@code total} bytes (507 when the store has no room). */
    void reserve(Download d, long total) throws FetchException {
        synchronized (store) {
            if (total > d.reserved) {
                store.reserve(total - d.reserved);
                d.reserved = total;
            }
        }
    }

    long reservedOf(Download d) {
        synchronized (store) {
            return d.reserved;
        }
    }

    /** Writes the sidecar, then makes the file a hit; throws if the fetch was abandoned meanwhile. */
    void commit(Download d, Sidecar sidecar) throws IOException {
        store.writeSidecar(d.key(), sidecar); // safe unlocked: only this fetch writes this key's files now
        synchronized (store) {
            if (inFlight.get(d.key()) != d) {
                throw new IOException("fetch was abandoned");
            }
            store.commit(d.key(), new StoreEntry(sidecar.size(), sidecar.mtime(), sidecar.etag()), d.reserved, d.fromPeer());
            d.reserved = 0;
            inFlight.remove(d.key());
        }
    }

    void checksumMismatch() {
        store.checksumMismatch();
    }

    /** Forgets a failed fetch: closes and deletes its part file, returns its reservation. */
    void abandon(Download d) {
        synchronized (store) {
            d.closeQuietly();
            if (inFlight.remove(d.key(), d)) {
                store.deletePart(d.key());
                store.release(d.reserved);
                d.reserved = 0;
            }
        }
    }

    int inFlight() {
        synchronized (store) {
            return inFlight.size();
        }
    }

    /** Fails every fetch in flight, so that waiting clients are disconnected rather than left hanging. */
    @Override
    public void close() {
        List<Download> all;
        synchronized (store) {
            all = new ArrayList<>(inFlight.values());
        }
        for (Download d : all) {
            d.fail(new FetchException(HttpResponseStatus.SERVICE_UNAVAILABLE, "pool is shutting down"));
        }
        diskWriters.shutdown();
        checksumsOnDemand.close();
    }

    /** Received bytes held in memory, not yet on disk, over all fetches. */
    long writeBehindBytes() {
        return budget.used();
    }
}
