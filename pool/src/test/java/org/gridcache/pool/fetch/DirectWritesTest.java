package org.gridcache.pool.fetch;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.io.IOException;
import java.net.URI;
import java.nio.ByteBuffer;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.ReadableByteChannel;
import java.nio.channels.WritableByteChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.gridcache.common.ClusterSettings;
import org.gridcache.common.Ticket;
import org.gridcache.pool.origin.OriginFetcher;
import org.gridcache.pool.store.Store;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Fills written past the page cache ({@code pool.direct-writes}): every byte stored whatever the size and the pieces
 * it arrives in, the written bytes kept in memory for the slowest reader and no longer, within the pool-wide bound,
 * and a file system's refusal or a full disk.
 */
class DirectWritesTest {
    private static final int STAGE = DirectPartWriter.STAGE;

    @TempDir
    Path dir;

    /** Sends its content in pieces of random sizes once {@code go} opens; keeps every piece to check their release. */
    private static final class PiecesOrigin implements OriginFetcher {
        final byte[] content;
        final CountDownLatch go = new CountDownLatch(1);
        final List<ByteBuf> pieces = new ArrayList<>();
        /** Fails the fetch once this many bytes were sent (-1: never). */
        final long failAfter;

        PiecesOrigin(byte[] content) {
            this(content, -1);
        }

        PiecesOrigin(byte[] content, long failAfter) {
            this.content = content;
            this.failAfter = failAfter;
        }

        @Override
        public boolean supports(URI origin) {
            return true;
        }

        @Override
        public void fetch(URI origin, DownloadSink sink) {
            new Thread(() -> {
                try {
                    sink.begin(content.length, 1, null);
                    assertTrue(go.await(30, TimeUnit.SECONDS));
                    Random random = new Random(content.length);
                    for (int at = 0; at < content.length; ) {
                        int n = Math.min(content.length - at, 1 + random.nextInt(200_000));
                        ByteBuf piece = Unpooled.directBuffer(n).writeBytes(content, at, n);
                        synchronized (pieces) {
                            pieces.add(piece);
                        }
                        sink.write(piece, () -> { });
                        piece.release(); // the sink keeps what it needs with references of its own
                        at += n;
                        if (failAfter >= 0 && at >= failAfter) {
                            sink.fail(FetchException.badGateway("the origin went away"));
                            return;
                        }
                    }
                    sink.complete();
                } catch (FetchException e) {
                    sink.fail(e);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }).start();
        }

        boolean allReleased() {
            synchronized (pieces) {
                return pieces.stream().allMatch(p -> p.refCnt() == 0);
            }
        }

        @Override
        public void close() {
        }
    }

    /** A cut-through client as the fetch sees it: the position it still has to send from. */
    private static final class Reader implements Download.Listener {
        volatile long from;
        final CountDownLatch ended = new CountDownLatch(1);

        Reader(long from) {
            this.from = from;
        }

        @Override
        public void changed(Download d) {
            if (d.state() == Download.State.COMPLETE || d.state() == Download.State.FAILED) {
                ended.countDown();
            }
        }

        @Override
        public long readingFrom() {
            return from;
        }
    }

    private static byte[] content(int size) {
        byte[] content = new byte[size];
        new Random(size).nextBytes(content);
        return content;
    }

    private static Ticket ticket(String name, long size) {
        return new Ticket("/" + name, "p", Ticket.READ, Long.MAX_VALUE, "anonymous", "door", "http://o/" + name, size, 1);
    }

    private byte[] storedContent() throws IOException {
        try (Stream<Path> files = Files.walk(dir.resolve("data"))) {
            Path data = files.filter(Files::isRegularFile).filter(f -> !f.toString().endsWith(Store.SIDECAR)).findFirst().orElseThrow();
            return Files.readAllBytes(data);
        }
    }

    /** Fills {@code content} with {@code reader} listening before the first byte; returns the completed fetch. */
    private Download fill(Downloads downloads, PiecesOrigin origin, String name, Reader reader) throws Exception {
        Downloads.Joined joined = (Downloads.Joined) downloads.open(ticket(name, origin.content.length));
        joined.file().close();
        Download download = joined.download();
        download.addListener(reader);
        origin.go.countDown();
        assertTrue(reader.ended.await(30, TimeUnit.SECONDS), "the fill ended");
        assertEquals(Download.State.COMPLETE, download.state(), () -> String.valueOf(download.failure()));
        return download;
    }

    @Test
    void everyByteIsStoredWhateverTheSizeAndThePiecesItArrivesIn() throws Exception {
        for (int size : new int[] {1, 4095, 4096, 4097, STAGE - 1, STAGE, STAGE + 1, 3 * STAGE + 12_345}) {
            Path sub = dir.resolve("s" + size);
            Files.createDirectories(sub);
            Store store = Store.open(sub, 1 << 30, ClusterSettings::defaults);
            PiecesOrigin origin = new PiecesOrigin(content(size));
            try (Downloads downloads = new Downloads(store, List.of(origin), () -> 64 << 20, null,
                    () -> java.util.EnumSet.allOf(org.gridcache.common.checksum.ChecksumType.class), () -> 0)) {
                Download d = fill(downloads, origin, "f.bin", new Reader(Long.MAX_VALUE));
                assertEquals(size, d.written());
                try (Stream<Path> files = Files.walk(sub.resolve("data"))) {
                    Path data = files.filter(Files::isRegularFile).filter(f -> !f.toString().endsWith(Store.SIDECAR)).findFirst().orElseThrow();
                    assertArrayEquals(origin.content, Files.readAllBytes(data), "size " + size);
                }
                assertEquals(0, downloads.retainedBytes(), "no reader: nothing kept");
                assertEquals(0, downloads.writeBehindBytes(), "the write-behind budget given back");
            }
            assertTrue(origin.allReleased(), "every piece released, size " + size);
        }
    }

    /**
     * Past the page cache, the written bytes stay in memory from the slowest reader's position on (it would read them
     * back from the disk otherwise), are let go as it moves, and all of them once it leaves.
     */
    @Test
    void writtenBytesStayInMemoryForTheSlowestReaderOnly() throws Exception {
        int size = 3 * STAGE + 777;
        Store store = Store.open(dir, 1 << 30, ClusterSettings::defaults);
        PiecesOrigin origin = new PiecesOrigin(content(size));
        try (Downloads downloads = new Downloads(store, List.of(origin), () -> 64 << 20, null,
                () -> java.util.EnumSet.allOf(org.gridcache.common.checksum.ChecksumType.class), () -> 0)) {
            Reader reader = new Reader(0);
            Download d = fill(downloads, origin, "kept.bin", reader);
            assertArrayEquals(origin.content, storedContent());
            ByteBuf first = d.memorySlice(0, 10);
            assertNotNull(first, "the reader at 0 is sent the file from memory, though all of it is on disk");
            assertEquals(origin.content[0], first.getByte(first.readerIndex()));
            first.release();
            assertEquals(size, downloads.retainedBytes());

            reader.from = 2 * STAGE;
            d.readerMoved();
            assertNull(d.memorySlice(STAGE, 10), "passed by every reader: let go");
            ByteBuf later = d.memorySlice(2 * STAGE, 10);
            assertEquals(origin.content[2 * STAGE], later.getByte(later.readerIndex()));
            later.release();
            assertTrue(downloads.retainedBytes() <= size - 2 * STAGE + 200_000, "at most one piece before the reader");

            d.removeListener(reader);
            assertNull(d.memorySlice(size - 1, 1), "no reader left: nothing kept");
            assertEquals(0, downloads.retainedBytes());
        }
        assertTrue(origin.allReleased(), "every piece released");
    }

    /** Beyond the pool-wide bound (here the write-behind memory, 1 MiB), a fill keeps nothing: its readers go to the disk. */
    @Test
    void theMemoryKeptForReadersIsBoundedPoolWide() throws Exception {
        int size = 4 * STAGE;
        Store store = Store.open(dir, 1 << 30, ClusterSettings::defaults);
        PiecesOrigin origin = new PiecesOrigin(content(size));
        try (Downloads downloads = new Downloads(store, List.of(origin), () -> 1 << 20, null,
                () -> java.util.EnumSet.allOf(org.gridcache.common.checksum.ChecksumType.class), () -> 0)) {
            Reader reader = new Reader(0);
            Download d = fill(downloads, origin, "bounded.bin", reader);
            assertArrayEquals(origin.content, storedContent());
            assertTrue(downloads.retainedBytes() <= 1 << 20, "within the bound: " + downloads.retainedBytes());
            assertNull(d.memorySlice(0, 1), "the reader at 0 reads from the disk");
            d.removeListener(reader);
            assertEquals(0, downloads.retainedBytes());
        }
    }

    /** A fill that fails midway keeps nothing: its memory, its budget and its reader's bytes are all given back. */
    @Test
    void aFailedFillKeepsNothing() throws Exception {
        int size = 4 * STAGE;
        Store store = Store.open(dir, 1 << 30, ClusterSettings::defaults);
        PiecesOrigin origin = new PiecesOrigin(content(size), 2 * STAGE + 3);
        try (Downloads downloads = new Downloads(store, List.of(origin), () -> 64 << 20, null,
                () -> java.util.EnumSet.allOf(org.gridcache.common.checksum.ChecksumType.class), () -> 0)) {
            Downloads.Joined joined = (Downloads.Joined) downloads.open(ticket("failed.bin", size));
            joined.file().close();
            Reader reader = new Reader(0);
            joined.download().addListener(reader);
            origin.go.countDown();
            assertTrue(reader.ended.await(30, TimeUnit.SECONDS), "the fill ended");
            assertEquals(Download.State.FAILED, joined.download().state());
            quiesce(downloads); // the disk writer may still have been writing a slice when the origin failed
            assertNull(joined.download().memorySlice(0, 1));
            assertEquals(0, downloads.retainedBytes());
            assertEquals(0, downloads.writeBehindBytes());
            joined.download().removeListener(reader);
        }
        assertTrue(origin.allReleased(), "every piece released");
    }

    /** Returns once both disk writers have finished what they were doing: each runs one of two tasks that meet. */
    private static void quiesce(Downloads downloads) throws Exception {
        java.util.concurrent.CyclicBarrier meet = new java.util.concurrent.CyclicBarrier(3);
        for (int i = 0; i < 2; i++) {
            downloads.diskWriters().execute(() -> {
                try {
                    meet.await(30, TimeUnit.SECONDS);
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                }
            });
        }
        meet.await(30, TimeUnit.SECONDS);
    }

    /** Files smaller than pool.direct-writes go through the page cache, as before: their written bytes are let go at once. */
    @Test
    void aFileBelowTheSettingGoesThroughThePageCache() throws Exception {
        int size = 2 * STAGE;
        Store store = Store.open(dir, 1 << 30, ClusterSettings::defaults);
        PiecesOrigin origin = new PiecesOrigin(content(size));
        try (Downloads downloads = new Downloads(store, List.of(origin), () -> 64 << 20, null,
                () -> java.util.EnumSet.allOf(org.gridcache.common.checksum.ChecksumType.class), () -> size + 1L)) {
            Reader reader = new Reader(0);
            Download d = fill(downloads, origin, "small.bin", reader);
            assertArrayEquals(origin.content, storedContent());
            assertNull(d.memorySlice(0, 1), "in the page cache: read from the part file");
            assertEquals(0, downloads.retainedBytes());
            d.removeListener(reader);
        }
        assertTrue(origin.allReleased());
    }

    /**
     * A file system that refuses to open the part file past the page cache (EINVAL at the open, as ramfs does) gets the
     * fill through the page cache: every byte stored, nothing kept in memory for the reader, who reads the part file.
     */
    @Test
    void aRefusedOpenPastThePageCacheFillsThroughIt() throws Exception {
        int size = 3 * STAGE + 777;
        Store store = Store.open(dir, 1 << 30, ClusterSettings::defaults);
        PiecesOrigin origin = new PiecesOrigin(content(size));
        java.util.concurrent.atomic.AtomicInteger refusals = new java.util.concurrent.atomic.AtomicInteger();
        try (Downloads downloads = new Downloads(store, List.of(origin), () -> 64 << 20, null,
                () -> java.util.EnumSet.allOf(org.gridcache.common.checksum.ChecksumType.class), () -> 0)) {
            downloads.partFiles = key -> new Download.PartFile() {
                @Override
                public FileChannel open() throws IOException {
                    return store.disk().openPart(key);
                }

                @Override
                public FileChannel openDirect() throws IOException {
                    refusals.incrementAndGet();
                    throw new IOException("Invalid argument");
                }
            };
            Reader reader = new Reader(0);
            Download d = fill(downloads, origin, "refused-open.bin", reader);
            assertEquals(1, refusals.get(), "asked once, at the first write");
            assertEquals(size, d.written());
            assertArrayEquals(origin.content, storedContent());
            assertNull(d.memorySlice(0, 1), "through the page cache: the reader reads the part file");
            assertEquals(0, downloads.retainedBytes());
            assertEquals(0, downloads.writeBehindBytes());
            d.removeListener(reader);
        }
        assertTrue(origin.allReleased(), "every piece released");
    }

    /** What a {@link StubChannel}'s positional write does. */
    private interface PositionalWrite {
        int write(ByteBuffer src, long position) throws IOException, InterruptedException;
    }

    /** A channel whose positional writes do what the test says; what the writer needs of a FileChannel, no more. */
    private static final class StubChannel extends FileChannel {
        private final PositionalWrite write;

        StubChannel(PositionalWrite write) {
            this.write = write;
        }

        static StubChannel failing(String failure) {
            return new StubChannel((src, position) -> {
                throw new IOException(failure);
            });
        }

        @Override
        public int write(ByteBuffer src, long position) throws IOException {
            try {
                return write.write(src, position);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new java.io.InterruptedIOException();
            }
        }

        @Override
        public int read(ByteBuffer dst) {
            throw new UnsupportedOperationException();
        }

        @Override
        public long read(ByteBuffer[] dsts, int offset, int length) {
            throw new UnsupportedOperationException();
        }

        @Override
        public int write(ByteBuffer src) {
            throw new UnsupportedOperationException();
        }

        @Override
        public long write(ByteBuffer[] srcs, int offset, int length) {
            throw new UnsupportedOperationException();
        }

        @Override
        public long position() {
            throw new UnsupportedOperationException();
        }

        @Override
        public FileChannel position(long newPosition) {
            throw new UnsupportedOperationException();
        }

        @Override
        public long size() {
            throw new UnsupportedOperationException();
        }

        @Override
        public FileChannel truncate(long size) {
            throw new UnsupportedOperationException();
        }

        @Override
        public void force(boolean metaData) {
            throw new UnsupportedOperationException();
        }

        @Override
        public long transferTo(long position, long count, WritableByteChannel target) {
            throw new UnsupportedOperationException();
        }

        @Override
        public long transferFrom(ReadableByteChannel src, long position, long count) {
            throw new UnsupportedOperationException();
        }

        @Override
        public int read(ByteBuffer dst, long position) {
            throw new UnsupportedOperationException();
        }

        @Override
        public MappedByteBuffer map(MapMode mode, long position, long size) {
            throw new UnsupportedOperationException();
        }

        @Override
        public FileLock lock(long position, long size, boolean shared) {
            throw new UnsupportedOperationException();
        }

        @Override
        public FileLock tryLock(long position, long size, boolean shared) {
            throw new UnsupportedOperationException();
        }

        @Override
        protected void implCloseChannel() {
        }
    }

    /** A file system that refuses writes past the page cache (EINVAL) gets every byte through it instead. */
    @Test
    void aRefusedWritePastThePageCacheGoesThroughIt() throws Exception {
        byte[] content = content(2 * STAGE + 5000);
        Path file = dir.resolve("refused.bin");
        try (FileChannel buffered = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.WRITE);
             DirectPartWriter writer = new DirectPartWriter(StubChannel.failing("Invalid argument"), () -> buffered)) {
            assertTrue(writer.pastPageCache());
            for (int at = 0; at < content.length; at += 70_000) {
                writer.append(ByteBuffer.wrap(content, at, Math.min(70_000, content.length - at)));
            }
            assertFalse(writer.pastPageCache(), "refused: through the page cache from now on");
            assertEquals(content.length, writer.finish());
        }
        assertArrayEquals(content, Files.readAllBytes(file));
    }

    /** A full disk fails the write, as through the page cache: no fallback hides it (the client gets 507). */
    @Test
    void aFullDiskFailsTheWrite() throws Exception {
        Path file = dir.resolve("full.bin");
        try (FileChannel buffered = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.WRITE);
             DirectPartWriter writer = new DirectPartWriter(StubChannel.failing("No space left on device"), () -> buffered)) {
            IOException e = assertThrows(IOException.class, () -> writer.append(ByteBuffer.wrap(content(STAGE))));
            assertTrue(FetchException.isNoSpace(e), e.toString());
            assertEquals(0, Files.size(file), "nothing written the other way");
        }
    }

    /**
     * A fill closed on another thread while its disk writer is in a write (the fill failed meanwhile) keeps its stage
     * until the write returns. Lent to another fill at the close, the stage took that fill's bytes into this one's
     * write, and this one's leftovers into that fill's file: a fill in CI counted a stage more than its origin sent.
     */
    @Test
    void aStageInAWriteIsNotLentToAnotherFillWhenItsFillCloses() throws Exception {
        CountDownLatch inWrite = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        java.io.ByteArrayOutputStream wrote = new java.io.ByteArrayOutputStream();
        DirectPartWriter closing = new DirectPartWriter(new StubChannel((src, position) -> {
            inWrite.countDown();
            assertTrue(release.await(30, TimeUnit.SECONDS));
            byte[] bytes = new byte[src.remaining()];
            src.get(bytes);
            synchronized (wrote) {
                wrote.write(bytes);
            }
            return bytes.length;
        }), () -> {
            throw new java.nio.channels.ClosedChannelException();
        });
        byte[] mine = new byte[STAGE];
        java.util.Arrays.fill(mine, (byte) 0xAA);
        java.util.concurrent.CompletableFuture<Long> appending = java.util.concurrent.CompletableFuture.supplyAsync(() -> {
            try {
                return closing.append(ByteBuffer.wrap(mine));
            } catch (IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
        });
        assertTrue(inWrite.await(30, TimeUnit.SECONDS), "the stage is being written");
        closing.close();
        List<DirectPartWriter> others = new ArrayList<>();
        try {
            for (int i = 0; i <= DirectPartWriter.KEEP; i++) { // more fills than stages wait for reuse: one would get it
                DirectPartWriter other = new DirectPartWriter(new StubChannel((src, position) -> {
                    throw new IOException("one byte never fills a stage");
                }), () -> null);
                others.add(other);
                other.append(ByteBuffer.wrap(new byte[] {(byte) 0xBB}));
            }
            release.countDown();
            assertEquals(STAGE, appending.get(30, TimeUnit.SECONDS), "the write in flight completed");
            synchronized (wrote) {
                assertArrayEquals(mine, wrote.toByteArray(), "the closed fill's write wrote its own bytes, all of them");
            }
            assertThrows(java.nio.channels.ClosedChannelException.class, () -> closing.append(ByteBuffer.wrap(mine)),
                    "closed: no more bytes taken");
        } finally {
            release.countDown();
            for (DirectPartWriter other : others) {
                other.close();
            }
        }
    }

    /** A write cut short by the fill's close is not taken for a file system's refusal: no fallback, no warning. */
    @Test
    void aWriteCutShortByTheCloseIsNotARefusal() throws Exception {
        Path file = dir.resolve("closed.bin");
        try (FileChannel buffered = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.WRITE);
             DirectPartWriter writer = new DirectPartWriter(new StubChannel((src, position) -> {
                 throw new java.nio.channels.AsynchronousCloseException();
             }), () -> buffered)) {
            assertThrows(java.nio.channels.ClosedChannelException.class, () -> writer.append(ByteBuffer.wrap(content(STAGE))));
            assertTrue(writer.pastPageCache(), "not refused");
            assertEquals(0, Files.size(file), "nothing written the other way");
        }
    }
}
