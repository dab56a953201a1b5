package org.gridcache.pool.store;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Consumer;
import java.util.function.Supplier;
import org.gridcache.common.ClusterSettings;
import org.gridcache.common.Json;
import org.gridcache.common.checksum.Checksums;
import org.gridcache.pool.fetch.FetchException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The pool's disk (ARCHITECTURE.md, "Disk layout"): data files under {@code data/ab/cd/<sha256 of origin URL>}, each with a JSON
 * {@link Sidecar}; the in-memory index of complete files (Caffeine, in LRU order); pins; and the space accounting
 * (committed files plus reservations of fetches in flight) that eviction works against.
 *
 * <p>Index, pins, accounting and every rename or delete happen under this object's monitor, so a lookup never sees
 * a file that is being evicted or replaced (but an unpin, which needs no monitor; and a hit opens the file it pinned
 * outside it, then checks the copy is still stored). Callers that must combine a lookup with other state (coalescing
 * of fetches) synchronise on the store too.
 */
public final class Store {
    private static final Logger LOG = LoggerFactory.getLogger(Store.class);
    public static final String PART = ".part";
    /** A file being uploaded through this pool (write-through): apart from a fetch's part file of the same key. */
    public static final String UPLOAD = ".upload";
    public static final String SIDECAR = ".json";
    /** A partial file: some blocks of an origin's file, its sidecar ({@code .blocks.json}) says which. */
    public static final String BLOCKS = ".blocks";
    private static final String TMP = ".tmp";
    /** A sidecar with checksums computed on demand, before its rename (a restart deletes it, as any stray file). */
    private static final String CHECKSUMS_TMP = ".checksums.tmp";
    /** Threads reading sidecars at start-up: a disk answers several reads at once sooner than one after the other. */
    private static final int RECOVERY_THREADS = Math.max(4, Runtime.getRuntime().availableProcessors());

    private final Path data;
    private final StoreMode mode;
    private final long capacity;
    private final Eviction eviction;
    private final Cache<StoreKey, StoreEntry> index = newIndex();
    private volatile Consumer<StoreEntry> whenGone = e -> { };
    /** Concurrent: unpinning takes no monitor (see {@link #unpin}); everything else on it runs under the monitor. */
    private final Map<StoreKey, Integer> pins = new ConcurrentHashMap<>();
    /** Files of which some blocks are stored; their proven bytes count in {@link #committedBytes}. */
    private final Map<StoreKey, PartialFile> partials = new HashMap<>();
    private long committedBytes;
    private long reservedBytes;
    private long rebuildMillis;
    /** Files found at start-up not yet proven; {@link #verified} opens when the verifier has been through them all. */
    private final java.util.concurrent.atomic.AtomicInteger unverified = new java.util.concurrent.atomic.AtomicInteger();
    private final java.util.concurrent.CountDownLatch verified = new java.util.concurrent.CountDownLatch(1);
    private final LongAdder evictions = new LongAdder();
    private final LongAdder evictedBytes = new LongAdder();
    private final LongAdder originBytes = new LongAdder();
    private final LongAdder peerBytes = new LongAdder();
    private final LongAdder checksumMismatches = new LongAdder();
    private final LongAdder checksumsOnDemand = new LongAdder();

    /**
     * Bytes the store's file system still takes; asked at each reservation, since something else may fill the disk
     * (another store, logs, a capacity larger than the disk) and the pool's own accounting would not know.
     */
    private final java.util.function.LongSupplier diskFree;

    private Store(Path root, long capacity, Supplier<ClusterSettings> settings, StoreMode mode, java.util.function.LongSupplier diskFree) {
        this.data = root.resolve("data");
        this.mode = mode;
        this.capacity = capacity;
        this.eviction = new Eviction(capacity, settings);
        this.diskFree = diskFree;
    }

    /**
     * The index of complete files. It never expires in practice: the access-order policy is only there to walk
     * files in LRU order. Package-visible so the footprint benchmark measures exactly this structure.
     */
    public static Cache<StoreKey, StoreEntry> newIndex() {
        return Caffeine.newBuilder()
                .expireAfterAccess(Duration.ofDays(36500))
                .executor(Runnable::run)
                .build();
    }

    /** Opens the store under {@code root}, rebuilding the index from disk and dropping what it cannot prove complete. */
    public static Store open(Path root, long capacity, Supplier<ClusterSettings> settings) throws IOException {
        return open(root, capacity, settings, StoreMode.PRIVATE);
    }

    /**
     * As {@link #open(Path, long, Supplier)}, with the permissions of what the store writes: {@code data/} itself is
     * set to {@code mode} at once, so files an older version left with the umask's permissions are out of reach too.
     */
    public static Store open(Path root, long capacity, Supplier<ClusterSettings> settings, StoreMode mode) throws IOException {
        Path data = root.resolve("data");
        Files.createDirectories(data, mode.directoryAttribute());
        java.nio.file.FileStore fs = Files.getFileStore(data);
        return open(root, capacity, settings, mode, () -> {
            try {
                return fs.getUsableSpace();
            } catch (IOException e) {
                return Long.MAX_VALUE; // cannot tell: the accounting alone decides, as before
            }
        });
    }

    /** As {@link #open(Path, long, Supplier, StoreMode)}, with the file system's free bytes told by {@code diskFree}. */
    static Store open(Path root, long capacity, Supplier<ClusterSettings> settings, StoreMode mode,
                      java.util.function.LongSupplier diskFree) throws IOException {
        Store store = new Store(root, capacity, settings, mode, diskFree);
        Files.createDirectories(store.data, mode.directoryAttribute());
        mode.applyToDirectory(store.data);
        store.rebuild();
        return store;
    }

    public long capacity() {
        return capacity;
    }

    // --- layout ---

    Path dataFile(StoreKey key) {
        String hex = key.hex();
        return data.resolve(hex.substring(0, 2) + '/' + hex.substring(2, 4) + '/' + hex); // one resolve: a hit's path per request
    }

    Path sidecarFile(StoreKey key) {
        return sibling(dataFile(key), SIDECAR);
    }

    Path blocksFile(StoreKey key) {
        return sibling(dataFile(key), BLOCKS);
    }

    Path blocksSidecarFile(StoreKey key) {
        return sibling(blocksFile(key), SIDECAR);
    }

    public Path partFile(StoreKey key) {
        return sibling(dataFile(key), PART);
    }

    private static Path sibling(Path file, String suffix) {
        return file.resolveSibling(file.getFileName() + suffix);
    }

    // --- index, pins and space (under the monitor) ---

    /**
     * The entry of a complete copy, a use of it (LRU); null when none is stored. A file found at start-up and not yet
     * proven is proven here first (its sidecar read under the monitor, once), or dropped: nothing unproven is served.
     */
    public synchronized StoreEntry lookup(StoreKey key) {
        StoreEntry e = index.getIfPresent(key);
        return e == null || e.isVerified() ? e : settle(key, e, proven(key, e));
    }

    /** Whether a complete copy is stored; unlike {@link #lookup} this is not a use (LRU order stays). */
    public synchronized boolean contains(StoreKey key) {
        return index.asMap().containsKey(key);
    }

    /** Opens a stored file for reading; null (and the entry dropped) when it vanished from disk behind our back. */
    public synchronized FileChannel openData(StoreKey key) throws IOException {
        FileChannel file = openStored(key);
        if (file == null) {
            LOG.warn("store: {} vanished from disk; dropping it from the index", dataFile(key));
            drop(key);
        }
        return file;
    }

    public synchronized void pin(StoreKey key) {
        pins.merge(key, 1, Integer::sum);
    }

    /**
     * Without the monitor, which every finished transfer would otherwise take: a pin is only ever taken under it, with
     * the lookup that found the file, so an unpin racing an eviction at worst keeps a file one eviction longer.
     */
    public void unpin(StoreKey key) {
        pins.computeIfPresent(key, (k, n) -> n == 1 ? null : n - 1);
    }

    /** Whether {@code entry} is still the key's stored copy (not dropped, evicted or replaced). */
    public synchronized boolean holds(StoreKey key, StoreEntry entry) {
        return index.policy().getIfPresentQuietly(key) == entry;
    }

    /**
     * Opens a stored file for reading without the monitor, for a caller that pinned it under the monitor and checks
     * afterwards ({@link #holds}) that the copy it found is still the one stored; null when it is not on disk.
     */
    public FileChannel openStored(StoreKey key) throws IOException {
        try {
            return FileChannel.open(dataFile(key), StandardOpenOption.READ);
        } catch (NoSuchFileException e) {
            return null;
        }
    }

    synchronized boolean isPinned(StoreKey key) {
        return pins.containsKey(key);
    }

    /**
     * Reserves room for {@code bytes} more, evicting unpinned files if needed; throws 507 when there is none. Room
     * means both: under the capacity by the store's own accounting, and on the file system, whose free bytes must
     * cover this reservation and all others in flight (counted as if none of their bytes were written yet: near a
     * full disk this evicts a little too much rather than let a fetch run into it).
     */
    public synchronized void reserve(long bytes) throws FetchException {
        if (bytes > capacity) {
            throw FetchException.storeFull("file of " + bytes + " bytes is larger than the pool's capacity of " + capacity);
        }
        evict(eviction.bytesToFree(used(), bytes));
        if (used() + bytes > capacity) {
            throw FetchException.storeFull("store full of pinned data");
        }
        long lacking = bytes + reservedBytes - diskFree.getAsLong();
        if (lacking > 0) {
            List<StoreKey> victims = victims(lacking);
            if (bytesOf(victims) < lacking) { // evicting all that may go would not do: keep it
                throw FetchException.storeFull("the pool's disk is full (" + lacking + " bytes lacking for " + bytes
                        + "; what is left is being read or fetched)");
            }
            LOG.info("store: its file system lacks {} bytes for a reservation of {}; evicting", lacking, bytes);
            evict(victims);
            lacking = bytes + reservedBytes - diskFree.getAsLong();
            if (lacking > 0) {
                throw FetchException.storeFull("the pool's disk is full (" + lacking + " bytes lacking for " + bytes + ")");
            }
        }
        reservedBytes += bytes;
    }

    public synchronized void release(long bytes) {
        reservedBytes -= bytes;
    }

    /**
     * Makes a fetched file a hit: renames its part file (already fsync'ed, sidecar already written) to the final
     * name and turns its reservation into committed bytes.
     */
    public synchronized void commit(StoreKey key, StoreEntry entry, long reserved, boolean fromPeer) throws IOException {
        commitFrom(partFile(key), key, entry, reserved);
        (fromPeer ? peerBytes : originBytes).add(entry.size);
    }

    /**
     * Makes an upload's copy a hit once the origin confirmed the write (its upload file fsync'ed, its sidecar
     * written): it replaces any older copy of the file.
     */
    public synchronized void commitUpload(StoreKey key, StoreEntry entry, long reserved) throws IOException {
        commitFrom(uploadFile(key), key, entry, reserved);
    }

    private void commitFrom(Path from, StoreKey key, StoreEntry entry, long reserved) throws IOException {
        Path target = dataFile(key);
        move(from, target);
        forceDirectory(target.getParent());
        dropPartial(key); // the complete copy supersedes any blocks of it
        StoreEntry old = index.asMap().put(key, entry);
        if (old != null) {
            committedBytes -= old.size;
            gone(old);
        }
        reservedBytes -= reserved;
        committedBytes += entry.size;
        evictIfNeeded();
    }

    /** Removes a file from the index and the disk (stale, vanished, or evicted), and any blocks of it. */
    public synchronized long drop(StoreKey key) {
        dropPartial(key);
        StoreEntry e = index.asMap().remove(key);
        if (e != null) {
            committedBytes -= e.size;
            gone(e);
        }
        deleteQuietly(dataFile(key));
        deleteQuietly(sidecarFile(key));
        return e == null ? 0 : e.size;
    }

    /** Evicts down to the low watermark if the store is above the high one (after a fetch, or a watermark change). */
    public synchronized void evictIfNeeded() {
        evict(eviction.bytesToFree(used(), 0));
    }

    private void evict(long needed) {
        if (needed > 0) {
            evict(victims(needed));
        }
    }

    /** The least recently used unpinned complete and partial files whose bytes add up to {@code needed}, or all there are. */
    private List<StoreKey> victims(long needed) {
        List<Eviction.Candidate> partialCandidates = new ArrayList<>();
        long now = System.nanoTime();
        for (PartialFile p : partials.values()) {
            partialCandidates.add(new Eviction.Candidate(p.key(), p.bitmap().storedBytes(), now - p.lastUse));
        }
        return Eviction.victims(index, pins::containsKey, needed, partialCandidates);
    }

    private long bytesOf(List<StoreKey> victims) {
        long bytes = 0;
        for (StoreKey victim : victims) {
            PartialFile p = partials.get(victim);
            StoreEntry e = index.policy().getIfPresentQuietly(victim);
            bytes += p != null && e == null ? p.bitmap().storedBytes() : (e == null ? 0 : e.size);
        }
        return bytes;
    }

    private void evict(List<StoreKey> victims) {
        for (StoreKey victim : victims) {
            long size = partials.containsKey(victim) && !index.asMap().containsKey(victim) ? dropPartial(victim) : drop(victim);
            evictions.increment();
            evictedBytes.add(size);
            LOG.info("store: evicted {} ({} bytes), {} of {} bytes used", victim, size, used(), capacity);
        }
    }

    /**
     * Evicts one file at an admin's request (JMX {@code evict(path)}): its size, or -1 when no complete copy is
     * stored. A file being read or fetched is refused, so that no client loses the file under it and no fetch in
     * flight puts it back right after.
     */
    public synchronized long evict(StoreKey key) {
        if (pins.containsKey(key)) {
            throw new IllegalStateException("it is being read or fetched by " + pins.get(key)
                    + " transfer(s) now; try again when they end");
        }
        if (!index.asMap().containsKey(key) && !partials.containsKey(key)) {
            return -1;
        }
        long size = partials.containsKey(key) && !index.asMap().containsKey(key) ? dropPartial(key) : drop(key);
        evictions.increment();
        evictedBytes.add(size);
        return size;
    }

    public long evictions() {
        return evictions.sum();
    }

    public long evictedBytes() {
        return evictedBytes.sum();
    }

    /** Bytes read from origins into this store since start: complete fetches, and what failed fetches had read. */
    public long originBytes() {
        return originBytes.sum();
    }

    /** Bytes of stored files that were pulled from other pools rather than the origin. */
    public long peerBytes() {
        return peerBytes.sum();
    }

    /** A fetch was discarded because its bytes did not have the origin's checksum. */
    public void checksumMismatch() {
        checksumMismatches.increment();
    }

    public long checksumMismatches() {
        return checksumMismatches.sum();
    }

    /** A stored file was read to compute checksums that a client asked for and its fill had not computed. */
    void checksumsComputedOnDemand() {
        checksumsOnDemand.increment();
    }

    public long checksumComputationsOnDemand() {
        return checksumsOnDemand.sum();
    }

    /**
     * The checksums kept in a stored file's sidecar (read from disk: the in-memory index stays small, and only
     * requests that ask for a digest come here); none when the file is not stored or its sidecar predates them.
     */
    public Checksums checksums(StoreKey key) {
        try {
            return Json.read(Files.readAllBytes(sidecarFile(key)), Sidecar.class).knownChecksums();
        } catch (IOException | IllegalArgumentException e) {
            LOG.debug("store: no checksums for {}: {}", key, e.toString());
            return Checksums.NONE;
        }
    }

    public synchronized long used() {
        return committedBytes + reservedBytes;
    }

    public synchronized long freeBytes() {
        return Math.max(0, capacity - used());
    }

    public synchronized int files() {
        return index.asMap().size();
    }

    /** Files found at start-up whose sidecars are not yet read (they are proven before they are served). */
    public int unverifiedFiles() {
        return unverified.get();
    }

    /** Waits until every file found at start-up has been proven or dropped; false when {@code timeout} passed first. */
    public boolean awaitVerified(Duration timeout) throws InterruptedException {
        return verified.await(timeout.toMillis(), java.util.concurrent.TimeUnit.MILLISECONDS);
    }

    // --- partial files (blocks) ---

    /** The partial file of {@code key}, a use of it (LRU); null when none is stored. Caller holds the monitor for more. */
    public synchronized PartialFile partial(StoreKey key) {
        PartialFile p = partials.get(key);
        if (p != null) {
            p.lastUse = System.nanoTime();
        }
        return p;
    }

    public synchronized int partialFiles() {
        return partials.size();
    }

    /**
     * Starts a partial file with no block: {@code <hex>.blocks} as long as the origin's file (a sparse file: holes
     * take no space) and a sidecar with an empty bitmap, so that a crash before its first block leaves nothing
     * unproven behind.
     */
    public synchronized PartialFile createPartial(StoreKey key, String originUrl, long size, long mtime, int blockSize)
            throws IOException {
        BlockBitmap bitmap = BlockBitmap.empty(size, blockSize);
        Path file = blocksFile(key);
        FileChannel writer = create(file);
        try {
            try (java.io.RandomAccessFile raf = new java.io.RandomAccessFile(file.toFile(), "rw")) {
                raf.setLength(size);
            }
            writeSidecar(blocksSidecarFile(key), partialSidecar(originUrl, mtime, bitmap));
        } catch (IOException e) {
            writer.close();
            deleteQuietly(file);
            throw e;
        }
        PartialFile p = new PartialFile(key, originUrl, mtime, bitmap, writer);
        partials.put(key, p);
        return p;
    }

    private static Sidecar partialSidecar(String originUrl, long mtime, BlockBitmap bitmap) {
        return new Sidecar(originUrl, bitmap.size(), mtime, null, System.currentTimeMillis() / 1000, null, bitmap.blockSize(),
                bitmap.encode());
    }

    /** Opens a partial file for reading; null when it is gone. */
    public synchronized FileChannel openPartial(StoreKey key) throws IOException {
        try {
            return FileChannel.open(blocksFile(key), StandardOpenOption.READ);
        } catch (NoSuchFileException e) {
            dropPartial(key);
            return null;
        }
    }

    /**
     * Makes blocks {@code [from, toExclusive)} of {@code p}, written by a fetch that reserved {@code reserved} bytes,
     * proven: the data fsync'ed first, then the sidecar with their bits (atomically replaced), and only then the
     * bits in memory, so nothing is served or kept across a restart that is not on disk. The reservation becomes
     * committed bytes. Throws (the caller releasing the reservation) when the file was dropped meanwhile.
     */
    public void prove(PartialFile p, int from, int toExclusive, long reserved) throws IOException {
        synchronized (p) { // one sidecar write at a time per file, each with every bit proven before it
            p.writer().force(false);
            BlockBitmap next;
            synchronized (this) {
                requireCurrent(p);
                next = p.bitmap().with(from, toExclusive);
            }
            writeSidecar(blocksSidecarFile(p.key()), partialSidecar(p.originUrl(), p.mtime(), next));
            synchronized (this) {
                requireCurrent(p);
                long before = p.bitmap().storedBytes();
                p.bitmap().set(from, toExclusive);
                committedBytes += p.bitmap().storedBytes() - before;
                reservedBytes -= reserved;
            }
        }
        evictIfNeeded();
    }

    private void requireCurrent(PartialFile p) throws IOException {
        if (partials.get(p.key()) != p) {
            throw new IOException("the partial file was dropped");
        }
    }

    /** Bytes read from an origin into a partial file (proven or not). */
    public void countOriginBytes(long bytes) {
        originBytes.add(bytes);
    }

    /** Removes a partial file from memory and disk; returns the bytes it held. */
    public synchronized long dropPartial(StoreKey key) {
        PartialFile p = partials.remove(key);
        if (p == null) {
            return 0;
        }
        long stored = p.bitmap().storedBytes();
        committedBytes -= stored;
        p.closeQuietly();
        deleteQuietly(blocksFile(key));
        deleteQuietly(blocksSidecarFile(key));
        return stored;
    }

    // --- files ---

    public Path uploadFile(StoreKey key) {
        return sibling(dataFile(key), UPLOAD);
    }

    /** Creates (truncating leftovers) the file an upload's copy is written into. */
    public FileChannel createUpload(StoreKey key) throws IOException {
        return create(uploadFile(key));
    }

    /** Deletes the copy of an upload that failed or was refused. */
    public void deleteUpload(StoreKey key) {
        deleteQuietly(uploadFile(key));
    }

    /** Makes the directory the key's files go in, when it is not there yet. */
    public void makeDirectoryFor(StoreKey key) throws IOException {
        Files.createDirectories(dataFile(key).getParent(), mode.directoryAttribute());
    }

    /** Creates (truncating leftovers) the part file a fetch writes into. */
    public FileChannel createPart(StoreKey key) throws IOException {
        return create(partFile(key));
    }

    /** Opens the part file {@link #createPart} made, for writing and reading, as it is. */
    public FileChannel openPart(StoreKey key) throws IOException {
        return FileChannel.open(partFile(key), StandardOpenOption.WRITE, StandardOpenOption.READ);
    }

    private FileChannel create(Path part) throws IOException {
        FileChannel channel;
        try { // the directory is there for most (a miss makes it before the monitor): one system call, not three
            channel = openCreating(part);
        } catch (java.nio.file.NoSuchFileException e) {
            Files.createDirectories(part.getParent(), mode.directoryAttribute());
            channel = openCreating(part);
        }
        try {
            mode.applyToFile(part);
        } catch (IOException e) {
            channel.close();
            throw e;
        }
        return channel;
    }

    private FileChannel openCreating(Path file) throws IOException {
        return FileChannel.open(file, Set.of(StandardOpenOption.CREATE, StandardOpenOption.TRUNCATE_EXISTING,
                StandardOpenOption.WRITE, StandardOpenOption.READ), mode.fileAttribute());
    }

    /** Deletes the part file of a failed fetch; what it had read from the origin still counts as origin bytes. */
    public void deletePart(StoreKey key) {
        Path part = partFile(key);
        try {
            originBytes.add(Files.size(part));
        } catch (IOException e) {
            // gone already: nothing to count
        }
        deleteQuietly(part);
    }

    /**
     * Writes a complete file's sidecar atomically: temporary file, fsync, rename. The rename is under the monitor,
     * as {@link #keepChecksums}'s is, so that one never puts an older copy's sidecar in place of this one.
     */
    public void writeSidecar(StoreKey key, Sidecar sidecar) throws IOException {
        Path target = sidecarFile(key);
        Path tmp = sibling(target, TMP);
        writeTemporary(tmp, sidecar);
        synchronized (this) {
            move(tmp, target);
        }
    }

    /** A partial file's sidecar: temporary file, fsync, rename. */
    private void writeSidecar(Path target, Sidecar sidecar) throws IOException {
        Path tmp = sibling(target, TMP);
        writeTemporary(tmp, sidecar);
        move(tmp, target);
    }

    /**
     * A stored copy, read for computing checksums: its sidecar and its data, opened together under the monitor;
     * null when {@code copy} is no longer the key's stored copy (dropped, evicted or replaced meanwhile).
     */
    synchronized StoredCopy openCopy(StoreKey key, StoreEntry copy) throws IOException {
        if (index.policy().getIfPresentQuietly(key) != copy) {
            return null;
        }
        Sidecar sidecar = Json.read(Files.readAllBytes(sidecarFile(key)), Sidecar.class);
        FileChannel data = openData(key);
        return data == null ? null : new StoredCopy(sidecar, data);
    }

    /** What {@link #openCopy} opened; the caller closes {@code data}. */
    record StoredCopy(Sidecar sidecar, FileChannel data) {
    }

    /**
     * Adds checksums computed after the fill to a stored copy's sidecar ({@code base}, as {@link #openCopy} read it),
     * if that copy is still the key's stored copy and its sidecar unchanged; false (nothing written) otherwise: the
     * copy was dropped or replaced while they were computed, or another writer was first.
     */
    boolean keepChecksums(StoreKey key, StoreEntry copy, Sidecar base, Checksums more) throws IOException {
        Path target = sidecarFile(key);
        Path tmp = sibling(target, CHECKSUMS_TMP);
        writeTemporary(tmp, base.withMoreChecksums(more)); // the fsync outside the monitor
        synchronized (this) {
            boolean current = index.policy().getIfPresentQuietly(key) == copy;
            if (current) {
                try {
                    current = base.equals(Json.read(Files.readAllBytes(target), Sidecar.class));
                } catch (IOException | IllegalArgumentException e) {
                    current = false;
                }
            }
            if (current) {
                move(tmp, target);
                return true;
            }
        }
        deleteQuietly(tmp);
        return false;
    }

    private void writeTemporary(Path tmp, Sidecar sidecar) throws IOException {
        try (FileChannel out = FileChannel.open(tmp, Set.of(StandardOpenOption.CREATE, StandardOpenOption.TRUNCATE_EXISTING,
                StandardOpenOption.WRITE), mode.fileAttribute())) {
            mode.applyToFile(tmp);
            java.nio.ByteBuffer bytes = java.nio.ByteBuffer.wrap(Json.bytes(sidecar));
            while (bytes.hasRemaining()) {
                out.write(bytes);
            }
            out.force(true);
        } catch (IOException e) {
            deleteQuietly(tmp); // e.g. a full disk: the old sidecar, if any, stands
            throw e;
        }
    }

    private static void move(Path from, Path to) throws IOException {
        try {
            Files.move(from, to, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        } catch (AtomicMoveNotSupportedException e) {
            throw new IOException("store file system cannot rename atomically: " + e.getMessage(), e);
        }
    }

    /** Makes a rename durable; best effort, since not every file system lets a directory be opened. */
    private static void forceDirectory(Path dir) {
        try (FileChannel ch = FileChannel.open(dir, StandardOpenOption.READ)) {
            ch.force(true);
        } catch (IOException | UnsupportedOperationException e) {
            LOG.debug("cannot fsync directory {}: {}", dir, e.toString());
        }
    }

    private static void deleteQuietly(Path file) {
        try {
            Files.deleteIfExists(file);
        } catch (IOException e) {
            LOG.warn("store: cannot delete {}: {}", file, e.toString());
        }
    }

    // --- start-up ---

    /**
     * Rebuilds the index from the sidecars ({@link StoreRecovery}). A data file counts only when its sidecar names an
     * origin URL that hashes to its name and a size equal to its length; part files, upload copies, temporary files,
     * orphans and mismatches are deleted. Files enter the LRU order by modification time, the best guess of their
     * last use after a restart. Logs one line with the count and the time it took (the pool serves nothing before).
     */
    private void rebuild() throws IOException {
        long start = System.nanoTime();
        StoreRecovery.Found found = StoreRecovery.scan(data, RECOVERY_THREADS);
        int dropped = 0;
        for (Path file : found.blocks()) {
            String name = file.getFileName().toString();
            if (!restorePartial(file, name.substring(0, name.length() - BLOCKS.length()))) {
                LOG.info("store: dropping {} (a partial file without a proven bitmap)", data.relativize(file));
                deleteQuietly(file);
                deleteQuietly(sibling(file, SIDECAR));
                dropped++;
            }
        }
        for (Path file : found.unproven()) {
            LOG.info("store: dropping {} (partial, temporary, orphaned or unproven)", data.relativize(file));
            deleteQuietly(file);
            dropped++;
        }
        List<StoreRecovery.Complete> complete = new ArrayList<>(found.complete());
        complete.sort(Comparator.comparingLong(StoreRecovery.Complete::lastModified));
        for (StoreRecovery.Complete c : complete) {
            index.put(c.key(), StoreEntry.unverified(c.size()));
            committedBytes += c.size();
        }
        unverified.set(complete.size());
        rebuildMillis = (System.nanoTime() - start) / 1_000_000;
        LOG.info("store {}: index ready in {} ms: {} files and {} partial files, {} bytes of {}; dropped {} partial, "
                + "temporary or orphaned files", data, rebuildMillis, complete.size(), partials.size(), committedBytes,
                capacity, dropped);
        Thread verifier = new Thread(() -> verifyAll(complete), "store-verifier");
        verifier.setDaemon(true);
        verifier.start();
    }

    /**
     * Proves the files found at start-up, oldest first (so that the entries it replaces keep their LRU order), each
     * sidecar read outside the monitor; a file a request proved first is skipped. Logs one line at the end.
     */
    private void verifyAll(List<StoreRecovery.Complete> found) {
        long start = System.nanoTime();
        int dropped = 0;
        try {
            for (StoreRecovery.Complete c : found) {
                StoreEntry e;
                synchronized (this) {
                    e = index.policy().getIfPresentQuietly(c.key());
                }
                if (e == null || e.isVerified()) {
                    continue;
                }
                StoreEntry proven = proven(c.key(), e);
                synchronized (this) {
                    if (index.policy().getIfPresentQuietly(c.key()) == e && settle(c.key(), e, proven) == null) {
                        dropped++;
                    }
                }
            }
            LOG.info("store {}: {} files found at start-up proven in {} ms; {} dropped (sidecar disagrees)", data,
                    found.size() - dropped, (System.nanoTime() - start) / 1_000_000, dropped);
        } catch (RuntimeException e) {
            LOG.error("store: verifying the files found at start-up stopped (they are proven at first use): {}", e.toString());
        } finally {
            verified.countDown();
        }
    }

    /** The entry an unverified one's sidecar proves: the URL hashes to the name and the size is the file's; else null. */
    private StoreEntry proven(StoreKey key, StoreEntry found) {
        try {
            Sidecar s = Json.read(Files.readAllBytes(sidecarFile(key)), Sidecar.class);
            if (s.originUrl() != null && s.size() == found.size && StoreKey.hashOf(s.originUrl()).equals(key)) {
                return new StoreEntry(s.size(), s.mtime(), s.etag());
            }
        } catch (IOException | IllegalArgumentException e) {
            LOG.debug("store: sidecar of {} unreadable: {}", key, e.toString());
        }
        return null;
    }

    /** Under the monitor: {@code found} replaced by {@code proven}, or the file dropped when it is not proven (null). */
    private StoreEntry settle(StoreKey key, StoreEntry found, StoreEntry proven) {
        if (proven == null) {
            LOG.info("store: dropping {} (its sidecar does not prove it complete)", data.relativize(dataFile(key)));
            drop(key);
            return null;
        }
        index.asMap().replace(key, found, proven);
        gone(found);
        return proven;
    }

    /** An entry left the index (proven, replaced, dropped or evicted): one fewer to prove if it was unverified. */
    private void gone(StoreEntry e) {
        if (!e.isVerified()) {
            unverified.decrementAndGet();
        }
        whenGone.accept(e);
    }

    /**
     * {@code listener} hears of every entry that leaves the index (evicted, dropped, replaced by a newer copy or by its
     * proven self after a restart), under the store's monitor: what holds the entry's file open lets it go there.
     */
    public void whenGone(Consumer<StoreEntry> listener) {
        this.whenGone = listener;
    }

    /** How long the start-up's index rebuild took (walk, sidecars, deletions), in milliseconds. */
    public long rebuildMillis() {
        return rebuildMillis;
    }

    /**
     * Takes a partial file back after a restart when its sidecar names an origin URL hashing to its name, a size equal
     * to its length and a bitmap that fits: the blocks it proved are kept, any written after are not (no bit).
     */
    private boolean restorePartial(Path file, String hex) {
        StoreKey key = StoreKey.ofHex(hex);
        if (key == null || !blocksFile(key).equals(file)) {
            return false;
        }
        try {
            Sidecar s = Json.read(Files.readAllBytes(blocksSidecarFile(key)), Sidecar.class);
            if (s.originUrl() == null || !StoreKey.hashOf(s.originUrl()).equals(key) || s.size() != Files.size(file)
                    || s.blockSize() == null) {
                return false;
            }
            BlockBitmap bitmap = BlockBitmap.decode(s.size(), s.blockSize(), s.blocks());
            FileChannel writer = FileChannel.open(file, StandardOpenOption.WRITE, StandardOpenOption.READ);
            PartialFile p = new PartialFile(key, s.originUrl(), s.mtime(), bitmap, writer);
            partials.put(key, p);
            committedBytes += bitmap.storedBytes();
            return true;
        } catch (IOException | IllegalArgumentException | ArithmeticException e) {
            LOG.debug("store: partial file {} unproven: {}", file, e.toString());
            return false;
        }
    }
}
