package org.gridcache.pool.store;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The partial files (blocks) the store holds: a concurrent map of {@link PartialFile}s, each PARTIAL while held.
 * Proven bytes count in the store's {@link SpaceAllocator}. Creating, proving and dropping a file write or delete
 * files on the caller's thread with no lock shared by requests held (see {@link PartialFile} for its own locks).
 */
public final class PartialFiles {
    private static final Logger LOG = LoggerFactory.getLogger(PartialFiles.class);

    private final Store store;
    private final StoreFiles files;
    private final SpaceAllocator space;
    private final Map<StoreKey, PartialFile> partials = new ConcurrentHashMap<>();
    /** Wakes the evictor after a proof added bytes. */
    private final Runnable proved;

    PartialFiles(Store store, StoreFiles files, SpaceAllocator space, Runnable proved) {
        this.store = store;
        this.files = files;
        this.space = space;
        this.proved = proved;
    }

    PartialFile get(StoreKey key) {
        return partials.get(key);
    }

    /** The partial file of {@code key}, a use of it (LRU); null when none is stored. */
    public PartialFile partial(StoreKey key) {
        PartialFile p = partials.get(key);
        if (p != null) {
            p.lastUse = System.nanoTime();
        }
        return p;
    }

    boolean contains(StoreKey key) {
        return partials.containsKey(key);
    }

    public int size() {
        return partials.size();
    }

    /** The partial files as eviction sees them: proven bytes and age. */
    List<Eviction.Candidate> candidates() {
        List<Eviction.Candidate> out = new ArrayList<>();
        long now = System.nanoTime();
        for (PartialFile p : partials.values()) {
            long stored;
            synchronized (p) {
                stored = p.bitmap().storedBytes();
            }
            out.add(new Eviction.Candidate(p.key(), stored, now - p.lastUse));
        }
        return out;
    }

    /**
     * Starts a partial file with no block: {@code <hex>.blocks} as long as the origin's file (sparse: holes take no
     * space) and a sidecar with an empty bitmap, so a crash before its first block leaves nothing unproven behind.
     * When another request started one for the key meanwhile, that one is returned and this one's file deleted.
     */
    public PartialFile create(StoreKey key, String originUrl, long size, long mtime, int blockSize) throws IOException {
        BlockBitmap bitmap = BlockBitmap.empty(size, blockSize);
        Path file = files.blocksFile(key);
        Path tmpFile = StoreFiles.sibling(file, "." + Thread.currentThread().getId() + StoreFiles.TMP);
        FileChannel writer = files.create(tmpFile);
        try {
            try (RandomAccessFile raf = new RandomAccessFile(tmpFile.toFile(), "rw")) {
                raf.setLength(size);
            }
        } catch (IOException e) {
            writer.close();
            StoreFiles.deleteQuietly(tmpFile);
            throw e;
        }
        PartialFile p = new PartialFile(key, originUrl, mtime, bitmap, writer);
        PartialFile first = partials.putIfAbsent(key, p);
        if (first != null) { // another request was first: its file stands
            p.closeQuietly();
            StoreFiles.deleteQuietly(tmpFile);
            return first;
        }
        try {
            StoreFiles.move(tmpFile, file); // the open channel follows the file
            files.writeSidecar(files.blocksSidecarFile(key), sidecar(p, bitmap));
        } catch (IOException e) {
            partials.remove(key, p);
            p.remove();
            p.createdOrFailed();
            p.closeQuietly();
            StoreFiles.deleteQuietly(tmpFile);
            StoreFiles.deleteQuietly(file);
            throw e;
        }
        p.become(ReplicaState.NEW, ReplicaState.PARTIAL); // false when dropped meanwhile: REMOVED, callers look again
        p.createdOrFailed();
        return p;
    }

    static Sidecar sidecar(PartialFile p, BlockBitmap bitmap) {
        return new Sidecar(p.originUrl(), bitmap.size(), p.mtime(), null, System.currentTimeMillis() / 1000, null,
                bitmap.blockSize(), bitmap.encode());
    }

    /**
     * Opens the write of blocks {@code [first, toExclusive)} of {@code p}: their bytes reserved (the evictor making
     * room; {@link StoreException.Reason#NO_SPACE} when there is none).
     */
    public BlockWriter openRun(PartialFile p, int first, int toExclusive) throws StoreException {
        BlockBitmap bitmap = p.bitmap(); // geometry only: immutable
        long offset = bitmap.startOf(first);
        long length = bitmap.startOf(toExclusive - 1) + bitmap.lengthOf(toExclusive - 1) - offset;
        store.reserve(length);
        return new BlockWriter(store, p, first, toExclusive, offset, length);
    }

    /**
     * Makes blocks {@code [from, toExclusive)} of {@code p}, written by a fetch that reserved {@code reserved} bytes,
     * proven: the data fsync'ed first, then the sidecar with their bits (atomically replaced), and only then the
     * bits in memory, so nothing is served or kept across a restart that is not on disk. The reservation becomes
     * stored bytes. Throws {@link StoreException.Reason#GONE} (the caller releasing the reservation) when the file
     * was dropped meanwhile.
     */
    void prove(PartialFile p, int from, int toExclusive, long reserved) throws IOException {
        synchronized (p.proving) {
            p.writer().force(false);
            BlockBitmap next;
            synchronized (p) {
                requireHeld(p);
                next = p.bitmap().with(from, toExclusive);
            }
            files.writeSidecar(files.blocksSidecarFile(p.key()), sidecar(p, next));
            synchronized (p) {
                requireHeld(p);
                long before = p.bitmap().storedBytes();
                p.bitmap().set(from, toExclusive);
                space.commit(reserved, p.bitmap().storedBytes() - before);
            }
        }
        proved.run();
    }

    private static void requireHeld(PartialFile p) throws StoreException {
        if (p.state() != ReplicaState.PARTIAL) {
            throw StoreException.gone("the partial file was dropped");
        }
    }

    /**
     * Makes a partial file whose every block is proven a complete replica, as XrdPfc's file is complete once its
     * bitmap is full: the complete sidecar is written, the data file made a hard link to the blocks file (its
     * readers read on, and a crash in between leaves both, of which start-up keeps the complete one), the entry
     * published, and only then the partial file removed. The caller pins the key, so eviction leaves both alone; a
     * drop of the partial file meanwhile (another version, a write notice) wins, and the new entry is dropped with
     * it. False when there was nothing to do: blocks missing, dropped, or a complete copy already stored. No lock.
     */
    public boolean complete(PartialFile p) throws IOException {
        synchronized (p) {
            if (!p.bitmap().complete()) {
                return false;
            }
        }
        if (p.state() != ReplicaState.PARTIAL || !p.completing.compareAndSet(false, true)) {
            return false; // dropped, or another prover is completing it
        }
        try {
            return completeOnce(p);
        } finally {
            p.completing.set(false);
        }
    }

    private boolean completeOnce(PartialFile p) throws IOException {
        StoreKey key = p.key();
        Sidecar sidecar = new Sidecar(p.originUrl(), p.size(), p.mtime(), null, System.currentTimeMillis() / 1000);
        Path tmp = StoreFiles.sibling(files.sidecarFile(key), ".complete" + StoreFiles.TMP);
        files.writeTemporary(tmp, sidecar);
        Path data = files.dataFile(key);
        boolean linked = store.sidecars().renameAfter(key, tmp, () -> {
            if (store.contains(key) || Files.exists(files.partFile(key)) || Files.exists(files.uploadFile(key))) {
                return false; // a whole-file fetch or an upload is committing (or did): its copy and sidecar stand
            }
            try {
                Files.createLink(data, files.blocksFile(key));
                return true;
            } catch (FileAlreadyExistsException e) {
                return false;
            }
        });
        if (!linked) {
            return false;
        }
        StoreFiles.forceDirectory(data.getParent());
        StoreEntry entry = store.origins().entryOf(sidecar);
        space.add(entry.size());
        StoreEntry replaced = store.index().publish(key, entry);
        if (replaced != null) {
            space.remove(replaced.size());
        }
        if (!p.become(ReplicaState.PARTIAL, ReplicaState.REMOVED)) {
            store.drop(key, entry); // dropped while it was completed: so is the copy made of it
            return false;
        }
        discard(p);
        store.counters().filled(entry.size(), false);
        return true;
    }

    /** Removes the key's partial file from memory and disk; the bytes it held, or -1 when there was none. */
    public long drop(StoreKey key) {
        PartialFile p = partials.get(key);
        return p == null ? -1 : drop(p);
    }

    /** Removes {@code p} (if no other call removed it first); the bytes it held, or -1. */
    public long drop(PartialFile p) {
        return p.remove() ? discard(p) : -1;
    }

    /** Evicts {@code p} unless a reader pins its key (atomically with the pins, as complete files); bytes or -1. */
    long evict(PartialFile p, ReplicaIndex pins) {
        return pins.unlessPinned(p.key(), () -> p.become(ReplicaState.PARTIAL, ReplicaState.REMOVED)) ? discard(p) : -1;
    }

    /** What follows a partial file's move to REMOVED: out of the map, its bytes given back, its files deleted. */
    private long discard(PartialFile p) {
        partials.remove(p.key(), p);
        long stored;
        synchronized (p) { // a proof that read the state before the removal has counted its bytes by now
            stored = p.bitmap().storedBytes();
        }
        space.remove(stored);
        p.closeQuietly();
        StoreFiles.deleteQuietly(files.blocksFile(p.key()));
        StoreFiles.deleteQuietly(files.blocksSidecarFile(p.key()));
        return stored;
    }

    /** Opens a partial file for reading; null (and it dropped) when its file is gone. */
    public FileChannel open(StoreKey key) throws IOException {
        FileChannel file = StoreFiles.openForReading(files.blocksFile(key));
        if (file == null) {
            drop(key);
        }
        return file;
    }

    /**
     * Takes a partial file back after a restart when its sidecar names an origin URL hashing to its name, a size equal
     * to its length and a bitmap that fits: the blocks it proved are kept, any written after are not (no bit).
     */
    boolean restore(Path file, String hex) {
        StoreKey key = StoreKey.ofHex(hex);
        if (key == null || !files.blocksFile(key).equals(file)) {
            return false;
        }
        try {
            Sidecar s = StoreFiles.readSidecar(files.blocksSidecarFile(key));
            if (s.originUrl() == null || !StoreKey.hashOf(s.originUrl()).equals(key) || s.size() != Files.size(file)
                    || s.blockSize() == null) {
                return false;
            }
            BlockBitmap bitmap = BlockBitmap.decode(s.size(), s.blockSize(), s.blocks());
            FileChannel writer = FileChannel.open(file, StandardOpenOption.WRITE, StandardOpenOption.READ);
            PartialFile p = new PartialFile(key, s.originUrl(), s.mtime(), bitmap, writer);
            p.become(ReplicaState.NEW, ReplicaState.PARTIAL);
            p.createdOrFailed();
            partials.put(key, p);
            space.add(bitmap.storedBytes());
            return true;
        } catch (IOException | IllegalArgumentException | ArithmeticException e) {
            LOG.debug("store: partial file {} unproven: {}", file, e.toString());
            return false;
        }
    }

    /**
     * The write of a run of blocks {@code [first, toExclusive)} of a partial file, opened by {@link PartialFiles#openRun}
     * with the run's bytes reserved: the ranged read writes them at their offsets, {@link #commit} proves them (the data
     * fsync'ed, the bits in the sidecar, then in memory; the reservation becomes stored bytes), {@link #cancel} gives the
     * room back and sets no bit (what was written stays unproven in the blocks file, as after a crash). How commit and
     * cancel exclude each other: {@link WriteHandle}.
     */
    public static final class BlockWriter extends WriteHandle {
        private final Store store;
        private final PartialFile file;
        private final int first;
        private final int toExclusive;
        private final long offset;
        private final long length;

        BlockWriter(Store store, PartialFile file, int first, int toExclusive, long offset, long length) {
            super(store, length);
            this.store = store;
            this.file = file;
            this.first = first;
            this.toExclusive = toExclusive;
            this.offset = offset;
            this.length = length;
        }

        /** Where the run starts in the file. */
        public long offset() {
            return offset;
        }

        /** The run's bytes. */
        public long length() {
            return length;
        }

        /** Writes {@code bytes} at {@code position} of the run (0 is its first byte); refuses bytes past its end. */
        public void write(ByteBuffer bytes, long position) throws IOException {
            if (position < 0 || position + bytes.remaining() > length) {
                throw new IOException("origin sent more than the " + length + " bytes asked for");
            }
            file.write(bytes, offset + position);
        }

        /**
         * Proves the run's blocks; throws {@link StoreException.Reason#GONE} when the partial file was dropped meanwhile
         * or the write ended before, and on any failure no bit is set and the room is returned.
         */
        public void commit() throws IOException {
            commitWith(reserved -> store.blocks().prove(file, first, toExclusive, reserved));
        }

        @Override
        void discard() {
            // no bit set: the bytes written stay unproven, and are written again by the next read of these blocks
        }
    }
}
