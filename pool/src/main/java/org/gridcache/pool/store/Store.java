package org.gridcache.pool.store;

import com.github.benmanes.caffeine.cache.Cache;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.FileStore;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.LongSupplier;
import java.util.function.Supplier;
import org.gridcache.common.settings.ClusterSettings;
import org.gridcache.common.checksum.Checksums;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The pool's disk (ARCHITECTURE.md, "Disk layout"), a repository of replicas in the manner of dCache's: the complete
 * files in a concurrent {@link ReplicaIndex} (LRU order, pins), the partial ones in {@link PartialFiles}, the room in
 * a lock-free {@link SpaceAllocator}, eviction on one {@link Evictor} thread, the files on disk in
 * {@link StoreFiles}, start-up in {@link StoreStartup}. Each replica has one {@link ReplicaState}, changed only by
 * atomic transitions. There is no global lock: a hit is a map read, a pin and an open ({@link #pinAndOpen}).
 *
 * <p>Locks that remain, none of them taken by a hit: a {@link PartialFile}'s own, and a per-key bin of
 * {@link CompleteSidecars} (see there for each one's order). The replica index's per-key operations hold a map bin
 * for a few field writes, no system call.
 */
public final class Store implements AutoCloseable, WriteHandle.Room {
    private static final Logger LOG = LoggerFactory.getLogger(Store.class);
    public static final String PART = ".part";
    /** A file being uploaded through this pool (write-through): apart from a fetch's part file of the same key. */
    public static final String UPLOAD = ".upload";
    public static final String SIDECAR = ".json";
    /** A partial file: some blocks of an origin's file, its sidecar ({@code .blocks.json}) says which. */
    public static final String BLOCKS = ".blocks";

    private final StoreFiles files;
    private final SpaceAllocator space;
    private final ReplicaIndex index = new ReplicaIndex();
    private final PartialFiles partials;
    private final Eviction eviction;
    private final Evictor evictor;
    private final StoreStartup startup;
    private final StoreSpace room;
    private final StoreCounters counters = new StoreCounters();
    private final CompleteSidecars sidecars;
    private final OriginUsage origins;

    private Store(Path root, long capacity, Supplier<ClusterSettings> settings, StoreMode mode,
                  Function<String, String> originOf, LongSupplier diskFree) {
        this.files = new StoreFiles(root.resolve("data"), mode, this::makeRoomOnDisk);
        this.space = new SpaceAllocator(capacity);
        this.partials = new PartialFiles(this, files, space, this::evictIfNeeded);
        this.eviction = new Eviction(capacity, settings);
        this.evictor = new Evictor(this, root.getFileName() == null ? "store" : root.getFileName().toString());
        this.startup = new StoreStartup(this, files);
        this.room = new StoreSpace(space, eviction, evictor, diskFree);
        this.sidecars = new CompleteSidecars(files, this);
        this.origins = new OriginUsage(originOf);
    }

    /** The index of complete files, as the footprint benchmark measures it. */
    public static Cache<StoreKey, StoreEntry> newIndex() {
        return ReplicaIndex.newIndex();
    }

    /** Opens the store under {@code root}, rebuilding the index from disk and dropping what it cannot prove complete. */
    public static Store open(Path root, long capacity, Supplier<ClusterSettings> settings) throws IOException {
        return open(root, capacity, settings, StoreMode.PRIVATE, url -> null);
    }

    /**
     * As {@link #open(Path, long, Supplier)}, with the permissions of what the store writes ({@code data/} itself is set
     * to {@code mode} at once, so files an older version left with the umask's permissions are out of reach too), and
     * {@code originOf} telling the origin of a file's URL, under which its bytes count ({@link OriginUsage}).
     */
    public static Store open(Path root, long capacity, Supplier<ClusterSettings> settings, StoreMode mode,
                             Function<String, String> originOf) throws IOException {
        Path data = root.resolve("data");
        Files.createDirectories(data, mode.directoryAttribute());
        FileStore fs = Files.getFileStore(data);
        return open(root, capacity, settings, mode, originOf, () -> {
            try {
                return fs.getUsableSpace();
            } catch (IOException e) {
                return Long.MAX_VALUE; // cannot tell: the accounting alone decides, as before
            }
        });
    }

    /** As {@link #open(Path, long, Supplier, StoreMode, Function)}, with the file system's free bytes told by {@code diskFree}. */
    static Store open(Path root, long capacity, Supplier<ClusterSettings> settings, StoreMode mode,
                      Function<String, String> originOf, LongSupplier diskFree) throws IOException {
        Store store = new Store(root, capacity, settings, mode, originOf, diskFree);
        Files.createDirectories(store.files.data, mode.directoryAttribute());
        mode.applyToDirectory(store.files.data);
        store.startup.rebuild();
        store.evictor.start();
        return store;
    }

    public long capacity() {
        return space.capacity();
    }

    /**
     * The entry of a complete copy, a use of it (LRU); null when none is stored. A file found at start-up and not yet
     * proven is proven here first (its sidecar read on the caller's thread), or dropped: nothing unproven is served.
     */
    public StoreEntry lookup(StoreKey key) {
        StoreEntry e = index.get(key);
        if (e == null) {
            return null;
        }
        if (!e.isVerified()) {
            return startup.settle(key, e);
        }
        return e.state() == ReplicaState.COMPLETE ? e : null;
    }

    /** Whether a complete copy is stored; unlike {@link #lookup} this is not a use (LRU order stays). */
    public boolean contains(StoreKey key) {
        return index.contains(key);
    }

    /** A complete copy, pinned and opened: what a hit serves. */
    public record Opened(StoreEntry entry, FileChannel file) {
    }

    /**
     * The key's complete copy pinned and opened, or null (nothing pinned) when none is stored. No lock: the pin is
     * taken before the state is checked (eviction skips a pinned entry, see {@link ReplicaIndex}), and the state is
     * checked again after the open, since a drop or a newer copy may have removed the entry and replaced its file.
     */
    public Opened pinAndOpen(StoreKey key) throws IOException {
        for (int attempt = 0; attempt < 3; attempt++) {
            StoreEntry e = lookup(key);
            if (e == null) {
                return null;
            }
            index.pin(key);
            FileChannel file = null;
            boolean served = false;
            try {
                if (e.state() != ReplicaState.COMPLETE) {
                    continue; // evicted or replaced between the lookup and the pin
                }
                file = StoreFiles.openForReading(files.dataFile(key));
                if (file == null) {
                    LOG.warn("store: {} vanished from disk; dropping it from the index", files.dataFile(key));
                    drop(key, e);
                    return null;
                }
                served = e.state() == ReplicaState.COMPLETE;
                if (served) {
                    return new Opened(e, file);
                }
            } finally {
                if (!served) {
                    if (file != null) {
                        file.close();
                    }
                    index.unpin(key);
                }
            }
        }
        return null; // replaced again and again: the caller treats it as a miss
    }

    /** A reader's pin of the key: eviction skips it. */
    public void pin(StoreKey key) {
        index.pin(key);
    }

    public void unpin(StoreKey key) {
        index.unpin(key);
    }

    /** Whether {@code entry} is still the key's stored copy (not dropped, evicted or replaced). */
    public boolean holds(StoreKey key, StoreEntry entry) {
        return entry.state() == ReplicaState.COMPLETE && index.peek(key) == entry;
    }

    /**
     * Opens the write of a fill of {@code key}: {@code reserve} bytes reserved (the evictor making room; 507 when
     * there is none), its part file created. The only way a fetched file becomes a replica.
     */
    public ReplicaWriter openFill(StoreKey key, long reserve) throws IOException {
        return ReplicaWriter.open(this, key, ReplicaWriter.Kind.FILL, reserve);
    }

    /**
     * Opens the write of the copy an upload or a third-party pull keeps of {@code key}: {@code length} bytes
     * reserved, its upload file created (apart from a fill's part file of the same key).
     */
    public ReplicaWriter openCopy(StoreKey key, long length) throws IOException {
        return ReplicaWriter.open(this, key, ReplicaWriter.Kind.COPY, length);
    }

    /**
     * The older copy is REMOVED before the rename (a reader that opens the path afterwards sees that and lets go),
     * the new one published after it; between the two a lookup misses, as it would before the commit. A failed
     * rename deletes the key's data file and sidecar: neither the older copy nor the new sidecar stays unindexed.
     * Runs in the key's sidecar bin ({@link ReplicaWriter#commit}).
     */
    void commitFrom(Path from, StoreKey key, StoreEntry entry, long reserved) throws IOException {
        Path target = files.dataFile(key);
        StoreEntry old = index.peek(key);
        if (old != null && index.remove(key, old)) {
            space.remove(old.size());
        }
        try {
            StoreFiles.move(from, target);
        } catch (IOException e) {
            files.deleteComplete(key); // the older copy is unpublished already, and the new sidecar is in place
            throw e;
        }
        StoreFiles.forceDirectory(target.getParent());
        partials.drop(key); // the complete copy supersedes any blocks of it
        space.commit(reserved, entry.size());
        StoreEntry replaced = index.publish(key, entry);
        if (replaced != null) {
            space.remove(replaced.size());
        }
        evictor.wake();
    }

    /** Removes a file from the index and the disk (stale, vanished, or evicted), and any blocks of it. */
    public long drop(StoreKey key) {
        partials.drop(key);
        StoreEntry e = index.peek(key);
        long size = e == null ? 0 : drop(key, e);
        if (e == null) {
            files.deleteComplete(key);
        }
        return size;
    }

    /** Removes {@code e}, if still the key's copy, and its files; its size, or 0 when another removed it. */
    long drop(StoreKey key, StoreEntry e) {
        if (!index.remove(key, e)) {
            return 0;
        }
        space.remove(e.size());
        files.deleteComplete(key);
        return e.size();
    }

    /**
     * Evicts one file at an admin's request (JMX {@code evict(path)}): its size, or -1 when no copy is stored. A file
     * being read or fetched is refused, so that no client loses the file under it and no fetch in flight puts it back.
     */
    public long evict(StoreKey key) {
        if (index.isPinned(key)) {
            throw new IllegalStateException("it is being read or fetched by " + index.pins(key)
                    + " transfer(s) now; try again when they end");
        }
        if (!index.contains(key) && !partials.contains(key)) {
            return -1;
        }
        long size = evictor.evictIfUnpinned(key);
        if (size < 0) {
            throw new IllegalStateException("it is being read or fetched now; try again when that ends");
        }
        counters.evicted(size);
        return size;
    }

    /** Evicts down to the low watermark if the store is above the high one (after a fetch, or a watermark change). */
    public void evictIfNeeded() {
        evictor.wake();
    }

    /** Bytes to free so that the store plus {@code incoming} reaches the low watermark; 0 while under the high one. */
    long bytesToFree(long incoming) {
        return eviction.bytesToFree(space.used(), incoming);
    }

    /**
     * Reserves room for {@code bytes} more, the evictor making room first when needed ({@link StoreSpace#reserve});
     * throws {@link StoreException.Reason#NO_SPACE} when there is none.
     */
    @Override
    public void reserve(long bytes) throws StoreException {
        room.reserve(bytes);
    }

    @Override
    public void release(long bytes) {
        space.release(bytes);
    }

    /**
     * Tells the store how many bytes of the reservations in flight are on disk already (fills written ahead of their
     * commit), so that the file-system check counts them once, not twice.
     */
    public void reservationsWritten(LongSupplier written) {
        room.reservationsWritten(written);
    }

    /**
     * The file system said it has no space for a write of {@code bytes} (ENOSPC): the evictor frees at least that
     * much on disk; true when it freed any, so the writer may try once more.
     */
    public boolean makeRoomOnDisk(long bytes) {
        return room.evictForDisk(SpaceAllocator.footprint(bytes));
    }

    public long used() {
        return space.used();
    }

    public long freeBytes() {
        return Math.max(0, space.capacity() - space.used());
    }

    public int files() {
        return index.size();
    }

    // --- package parts, for the store's own classes ---

    ReplicaIndex index() {
        return index;
    }

    /** The partial files (blocks) this store holds. */
    public PartialFiles blocks() {
        return partials;
    }

    SpaceAllocator space() {
        return space;
    }

    public StoreCounters counters() {
        return counters;
    }

    /** The bytes of complete replicas per origin, and the entries of fills and copies counted under theirs. */
    public OriginUsage origins() {
        return origins;
    }

    CompleteSidecars sidecars() {
        return sidecars;
    }

    /** The checksums kept in a stored file's sidecar (read from disk); none when it holds none. */
    public Checksums checksums(StoreKey key) {
        return sidecars.checksums(key);
    }

    /** Files found at start-up whose sidecars are not yet read (they are proven before they are served). */
    public int unverifiedFiles() {
        return index.unverified();
    }

    /** Waits until every file found at start-up has been proven or dropped; false when {@code timeout} passed first. */
    public boolean awaitVerified(Duration timeout) throws InterruptedException {
        return startup.awaitVerified(timeout);
    }

    /** How long the start-up's index rebuild took (walk, sidecars, deletions), in milliseconds. */
    public long rebuildMillis() {
        return startup.rebuildMillis();
    }

    /**
     * {@code listener} hears of every entry that leaves the index (evicted, dropped, replaced by a newer copy or by
     * its proven self after a restart), on the thread that removed it.
     */
    public void whenGone(Consumer<StoreEntry> listener) {
        index.whenGone(listener);
    }

    /** Where fills and uploads write, and the store's layout on disk. */
    public StoreFiles disk() {
        return files;
    }

    /** Stops the evictor; the files stay as they are. */
    @Override
    public void close() {
        evictor.close();
    }
}
