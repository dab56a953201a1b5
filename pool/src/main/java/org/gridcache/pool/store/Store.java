package org.gridcache.pool.store;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import java.io.IOException;
import java.io.UncheckedIOException;
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
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Supplier;
import java.util.stream.Stream;
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
 * a file that is being evicted or replaced. Callers that must combine a lookup with other state (coalescing of
 * fetches) synchronise on the store too.
 */
public final class Store {
    private static final Logger LOG = LoggerFactory.getLogger(Store.class);
    public static final String PART = ".part";
    /** A file being uploaded through this pool (write-through): apart from a fetch's part file of the same key. */
    public static final String UPLOAD = ".upload";
    public static final String SIDECAR = ".json";
    private static final String TMP = ".tmp";

    private final Path data;
    private final StoreMode mode;
    private final long capacity;
    private final Eviction eviction;
    private final Cache<StoreKey, StoreEntry> index = newIndex();
    private final Map<StoreKey, Integer> pins = new HashMap<>();
    private long committedBytes;
    private long reservedBytes;
    private final LongAdder evictions = new LongAdder();
    private final LongAdder evictedBytes = new LongAdder();
    private final LongAdder originBytes = new LongAdder();
    private final LongAdder peerBytes = new LongAdder();
    private final LongAdder checksumMismatches = new LongAdder();

    private Store(Path root, long capacity, Supplier<ClusterSettings> settings, StoreMode mode) {
        this.data = root.resolve("data");
        this.mode = mode;
        this.capacity = capacity;
        this.eviction = new Eviction(capacity, settings);
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
        Store store = new Store(root, capacity, settings, mode);
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
        return data.resolve(hex.substring(0, 2)).resolve(hex.substring(2, 4)).resolve(hex);
    }

    Path sidecarFile(StoreKey key) {
        return sibling(dataFile(key), SIDECAR);
    }

    public Path partFile(StoreKey key) {
        return sibling(dataFile(key), PART);
    }

    private static Path sibling(Path file, String suffix) {
        return file.resolveSibling(file.getFileName() + suffix);
    }

    // --- index, pins and space (under the monitor) ---

    public synchronized StoreEntry lookup(StoreKey key) {
        return index.getIfPresent(key);
    }

    /** Whether a complete copy is stored; unlike {@link #lookup} this is not a use (LRU order stays). */
    public synchronized boolean contains(StoreKey key) {
        return index.asMap().containsKey(key);
    }

    /** Opens a stored file for reading; null (and the entry dropped) when it vanished from disk behind our back. */
    public synchronized FileChannel openData(StoreKey key) throws IOException {
        try {
            return FileChannel.open(dataFile(key), StandardOpenOption.READ);
        } catch (NoSuchFileException e) {
            LOG.warn("store: {} vanished from disk; dropping it from the index", dataFile(key));
            drop(key);
            return null;
        }
    }

    public synchronized void pin(StoreKey key) {
        pins.merge(key, 1, Integer::sum);
    }

    public synchronized void unpin(StoreKey key) {
        pins.computeIfPresent(key, (k, n) -> n == 1 ? null : n - 1);
    }

    synchronized boolean isPinned(StoreKey key) {
        return pins.containsKey(key);
    }

    /** Reserves room for {@code bytes} more, evicting unpinned files if needed; throws 507 when there is none. */
    public synchronized void reserve(long bytes) throws FetchException {
        if (bytes > capacity) {
            throw FetchException.storeFull("file of " + bytes + " bytes is larger than the pool's capacity of " + capacity);
        }
        evict(eviction.bytesToFree(used(), bytes));
        if (used() + bytes > capacity) {
            throw FetchException.storeFull("store full of pinned data");
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
        StoreEntry old = index.asMap().put(key, entry);
        if (old != null) {
            committedBytes -= old.size;
        }
        reservedBytes -= reserved;
        committedBytes += entry.size;
        evictIfNeeded();
    }

    /** Removes a file from the index and the disk (stale, vanished, or evicted). */
    public synchronized long drop(StoreKey key) {
        StoreEntry e = index.asMap().remove(key);
        if (e != null) {
            committedBytes -= e.size;
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
        if (needed <= 0) {
            return;
        }
        for (StoreKey victim : Eviction.victims(index, pins::containsKey, needed)) {
            long size = drop(victim);
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
        if (!index.asMap().containsKey(key)) {
            return -1;
        }
        long size = drop(key);
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

    /** Creates (truncating leftovers) the part file a fetch writes into. */
    public FileChannel createPart(StoreKey key) throws IOException {
        return create(partFile(key));
    }

    private FileChannel create(Path part) throws IOException {
        Files.createDirectories(part.getParent(), mode.directoryAttribute());
        FileChannel channel = FileChannel.open(part, Set.of(StandardOpenOption.CREATE, StandardOpenOption.TRUNCATE_EXISTING,
                StandardOpenOption.WRITE, StandardOpenOption.READ), mode.fileAttribute());
        try {
            mode.applyToFile(part);
        } catch (IOException e) {
            channel.close();
            throw e;
        }
        return channel;
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

    /** Writes a sidecar atomically: temporary file, fsync, rename. */
    public void writeSidecar(StoreKey key, Sidecar sidecar) throws IOException {
        Path target = sidecarFile(key);
        Path tmp = sibling(target, TMP);
        try (FileChannel out = FileChannel.open(tmp, Set.of(StandardOpenOption.CREATE, StandardOpenOption.TRUNCATE_EXISTING,
                StandardOpenOption.WRITE), mode.fileAttribute())) {
            mode.applyToFile(tmp);
            out.write(java.nio.ByteBuffer.wrap(Json.bytes(sidecar)));
            out.force(true);
        }
        move(tmp, target);
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
     * Rebuilds the index from the sidecars. A data file counts only when its sidecar names an origin URL that
     * hashes to its name and a size equal to its length; part files, temporary files, orphans and mismatches are
     * deleted. Files enter the LRU order by modification time, the best guess of their last use after a restart.
     */
    private void rebuild() throws IOException {
        List<Path> files;
        try (Stream<Path> walk = Files.walk(data)) {
            files = walk.filter(Files::isRegularFile).toList();
        }
        List<Path> accepted = new ArrayList<>();
        int dropped = 0;
        for (Path file : files) {
            String name = file.getFileName().toString();
            if (name.endsWith(SIDECAR)) {
                continue; // judged together with its data file; orphans are removed below
            }
            StoreKey key = StoreKey.ofHex(name);
            if (key != null && dataFile(key).equals(file) && isComplete(key)) {
                accepted.add(file);
            } else {
                LOG.info("store: dropping {} (partial, temporary or unproven)", data.relativize(file));
                deleteQuietly(file);
                if (key != null) {
                    deleteQuietly(sidecarFile(key));
                }
                dropped++;
            }
        }
        dropped += deleteOrphanSidecars(files);
        accepted.sort(Comparator.comparing(Store::lastModified));
        for (Path file : accepted) {
            StoreKey key = StoreKey.ofHex(file.getFileName().toString());
            Sidecar s = Json.read(Files.readAllBytes(sidecarFile(key)), Sidecar.class);
            index.put(key, new StoreEntry(s.size(), s.mtime(), s.etag()));
            committedBytes += s.size();
        }
        LOG.info("store {}: {} files, {} bytes of {}; dropped {} partial or orphaned files", data, accepted.size(),
                committedBytes, capacity, dropped);
    }

    private boolean isComplete(StoreKey key) {
        try {
            Sidecar s = Json.read(Files.readAllBytes(sidecarFile(key)), Sidecar.class);
            return s.originUrl() != null && StoreKey.ofOrigin(s.originUrl()).equals(key) && s.size() == Files.size(dataFile(key));
        } catch (IOException | IllegalArgumentException e) {
            return false;
        }
    }

    private int deleteOrphanSidecars(List<Path> files) {
        int n = 0;
        for (Path file : files) {
            String name = file.getFileName().toString();
            if (name.endsWith(SIDECAR) && !Files.exists(file.resolveSibling(name.substring(0, name.length() - SIDECAR.length())))) {
                LOG.info("store: dropping orphaned sidecar {}", data.relativize(file));
                deleteQuietly(file);
                n++;
            }
        }
        return n;
    }

    private static long lastModified(Path file) {
        try {
            return Files.getLastModifiedTime(file).toMillis();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
