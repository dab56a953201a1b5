package org.gridcache.pool.store;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.Set;
import org.gridcache.common.Json;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The store's files on disk (ARCHITECTURE.md, "Disk layout"): where each kind lives under {@code data/ab/cd/<hex>},
 * and the system calls that create, rename, fsync and delete them. Holds no lock and no state but the layout: every
 * call here runs on the caller's thread, outside any lock that requests share.
 */
public final class StoreFiles {
    private static final Logger LOG = LoggerFactory.getLogger(StoreFiles.class);
    static final String TMP = ".tmp";
    /** A sidecar with checksums computed on demand, before its rename (a restart deletes it, as any stray file). */
    static final String CHECKSUMS_TMP = ".checksums.tmp";

    final Path data;
    final StoreMode mode;
    /** Asks the evictor for this many bytes on disk after ENOSPC; true when it freed some (worth one more try). */
    private final java.util.function.LongPredicate makeRoom;

    StoreFiles(Path data, StoreMode mode, java.util.function.LongPredicate makeRoom) {
        this.data = data;
        this.mode = mode;
        this.makeRoom = makeRoom;
    }

    Path dataFile(StoreKey key) {
        String hex = key.hex();
        return data.resolve(hex.substring(0, 2) + '/' + hex.substring(2, 4) + '/' + hex); // one resolve: a hit's path per request
    }

    Path sidecarFile(StoreKey key) {
        return sibling(dataFile(key), Store.SIDECAR);
    }

    Path blocksFile(StoreKey key) {
        return sibling(dataFile(key), Store.BLOCKS);
    }

    Path blocksSidecarFile(StoreKey key) {
        return sibling(blocksFile(key), Store.SIDECAR);
    }

    /** The part file a fetch writes into, renamed to the data file when the fetch is proven complete. */
    public Path partFile(StoreKey key) {
        return sibling(dataFile(key), Store.PART);
    }

    /** The file an upload's copy is written into: apart from a fetch's part file of the same key. */
    public Path uploadFile(StoreKey key) {
        return sibling(dataFile(key), Store.UPLOAD);
    }

    /** Opens the part file of a fill, for writing and reading, as it is (its {@link ReplicaWriter} created it). */
    public FileChannel openPart(StoreKey key) throws IOException {
        return FileChannel.open(partFile(key), StandardOpenOption.WRITE, StandardOpenOption.READ);
    }

    static Path sibling(Path file, String suffix) {
        return file.resolveSibling(file.getFileName() + suffix);
    }

    /** Opens {@code file} for reading; null when it is not there. */
    static FileChannel openForReading(Path file) throws IOException {
        try {
            return FileChannel.open(file, StandardOpenOption.READ);
        } catch (NoSuchFileException e) {
            return null;
        }
    }

    /** Creates (truncating leftovers) a file to write and read, and its directory when it is not there yet. */
    FileChannel create(Path file) throws IOException {
        FileChannel channel;
        try { // the directory is there for most (a miss makes it first): one system call, not three
            channel = openCreating(file);
        } catch (NoSuchFileException e) {
            Files.createDirectories(file.getParent(), mode.directoryAttribute());
            channel = openCreating(file);
        }
        try {
            mode.applyToFile(file);
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

    /** Makes the directory the key's files go in, when it is not there yet. */
    public void makeDirectoryFor(StoreKey key) throws IOException {
        Files.createDirectories(dataFile(key).getParent(), mode.directoryAttribute());
    }

    /** Reads a sidecar; throws when it is missing or unreadable. */
    static Sidecar readSidecar(Path file) throws IOException {
        return Json.read(Files.readAllBytes(file), Sidecar.class);
    }

    /** Writes {@code sidecar} in place of {@code target} atomically: temporary file, fsync, rename. */
    void writeSidecar(Path target, Sidecar sidecar) throws IOException {
        Path tmp = sibling(target, TMP);
        writeTemporary(tmp, sidecar);
        move(tmp, target);
    }

    /**
     * Writes {@code sidecar} into {@code tmp} and fsyncs it; deletes it again when that fails. When the file system
     * has no space (ENOSPC), the evictor makes room and the write is tried once more.
     */
    void writeTemporary(Path tmp, Sidecar sidecar) throws IOException {
        WriteHandle.retryOnNoSpace(makeRoom, SpaceAllocator.SIDECAR, "write a sidecar", () -> writeTemporaryOnce(tmp, sidecar));
    }

    private void writeTemporaryOnce(Path tmp, Sidecar sidecar) throws IOException {
        try (FileChannel out = FileChannel.open(tmp, Set.of(StandardOpenOption.CREATE, StandardOpenOption.TRUNCATE_EXISTING,
                StandardOpenOption.WRITE), mode.fileAttribute())) {
            mode.applyToFile(tmp);
            ByteBuffer bytes = ByteBuffer.wrap(Json.bytes(sidecar));
            while (bytes.hasRemaining()) {
                out.write(bytes);
            }
            out.force(true);
        } catch (IOException e) {
            deleteQuietly(tmp); // e.g. a full disk: the old sidecar, if any, stands
            throw e;
        }
    }

    /** An atomic rename replacing {@code to}; a file system that cannot rename atomically is refused. */
    static void move(Path from, Path to) throws IOException {
        try {
            Files.move(from, to, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        } catch (AtomicMoveNotSupportedException e) {
            throw new IOException("store file system cannot rename atomically: " + e.getMessage(), e);
        }
    }

    /** Makes a rename durable; best effort, since not every file system lets a directory be opened. */
    static void forceDirectory(Path dir) {
        try (FileChannel ch = FileChannel.open(dir, StandardOpenOption.READ)) {
            ch.force(true);
        } catch (IOException | UnsupportedOperationException e) {
            LOG.debug("cannot fsync directory {}: {}", dir, e.toString());
        }
    }

    static void deleteQuietly(Path file) {
        try {
            Files.deleteIfExists(file);
        } catch (IOException e) {
            LOG.warn("store: cannot delete {}: {}", file, e.toString());
        }
    }

    /** Deletes a complete copy's data file and sidecar. */
    void deleteComplete(StoreKey key) {
        deleteQuietly(dataFile(key));
        deleteQuietly(sidecarFile(key));
    }
}
