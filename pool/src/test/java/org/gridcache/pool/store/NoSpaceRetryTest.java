package org.gridcache.pool.store;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.io.IOException;
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
import org.gridcache.pool.http.FetchException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A fill's write that meets a full file system makes the store evict and is tried once more, as the fill writes. */
class NoSpaceRetryTest {
    @TempDir
    Path tmp;

    private final List<Long> roomAsked = new ArrayList<>();

    /** A part file whose first {@code refusals} positional writes the file system refuses after half their bytes. */
    private static final class FullDisk extends FileChannel {
        private final FileChannel disk;
        private int refusals;

        FullDisk(FileChannel disk, int refusals) {
            this.disk = disk;
            this.refusals = refusals;
        }

        @Override
        public int write(ByteBuffer src, long position) throws IOException {
            if (refusals > 0) {
                refusals--;
                ByteBuffer half = src.duplicate();
                half.limit(half.position() + half.remaining() / 2);
                int n = disk.write(half, position);
                src.position(src.position() + n);
                throw new IOException("No space left on device");
            }
            return disk.write(src, position);
        }

        @Override
        public int read(ByteBuffer dst) throws IOException {
            return disk.read(dst);
        }

        @Override
        public long read(ByteBuffer[] dsts, int offset, int length) throws IOException {
            return disk.read(dsts, offset, length);
        }

        @Override
        public int write(ByteBuffer src) throws IOException {
            return write(src, disk.position()); // not used by the fill's writer
        }

        @Override
        public long write(ByteBuffer[] srcs, int offset, int length) throws IOException {
            return disk.write(srcs, offset, length);
        }

        @Override
        public long position() throws IOException {
            return disk.position();
        }

        @Override
        public FileChannel position(long newPosition) throws IOException {
            disk.position(newPosition);
            return this;
        }

        @Override
        public long size() throws IOException {
            return disk.size();
        }

        @Override
        public FileChannel truncate(long size) throws IOException {
            disk.truncate(size);
            return this;
        }

        @Override
        public void force(boolean metaData) throws IOException {
            disk.force(metaData);
        }

        @Override
        public long transferTo(long position, long count, WritableByteChannel target) throws IOException {
            return disk.transferTo(position, count, target);
        }

        @Override
        public long transferFrom(ReadableByteChannel src, long position, long count) throws IOException {
            return disk.transferFrom(src, position, count);
        }

        @Override
        public int read(ByteBuffer dst, long position) throws IOException {
            return disk.read(dst, position);
        }

        @Override
        public MappedByteBuffer map(MapMode mode, long position, long size) throws IOException {
            return disk.map(mode, position, size);
        }

        @Override
        public FileLock lock(long position, long size, boolean shared) throws IOException {
            return disk.lock(position, size, shared);
        }

        @Override
        public FileLock tryLock(long position, long size, boolean shared) throws IOException {
            return disk.tryLock(position, size, shared);
        }

        @Override
        protected void implCloseChannel() throws IOException {
            disk.close();
        }
    }

    /** As the fill's write-behind writes a chunk received: positional writes from the first byte not written. */
    private void writeChunk(FileChannel channel, ByteBuf buf, long position, boolean roomMade) throws IOException {
        int index = buf.readerIndex();
        int length = buf.readableBytes();
        int[] done = {0};
        WriteHandle.retryOnNoSpace(bytes -> roomAsked.add(bytes) && roomMade, length, "write a fill", () -> {
            while (done[0] < length) {
                done[0] += buf.getBytes(index + done[0], channel, position + done[0], length - done[0]);
            }
        });
    }

    private Path part() {
        return tmp.resolve("part");
    }

    private FileChannel open() throws IOException {
        return FileChannel.open(part(), StandardOpenOption.CREATE, StandardOpenOption.WRITE);
    }

    private static byte[] random(int n) {
        byte[] b = new byte[n];
        new Random(n).nextBytes(b);
        return b;
    }

    @Test
    void oneRefusalEvictsAndTheWriteGoesOnWhereItStopped() throws IOException {
        byte[] data = random(100_000);
        try (FileChannel channel = new FullDisk(open(), 1)) {
            writeChunk(channel, Unpooled.wrappedBuffer(data, 0, 40_000), 0, true);
            writeChunk(channel, Unpooled.wrappedBuffer(data, 40_000, 60_000), 40_000, true);
        }
        assertEquals(List.of(40_000L), roomAsked, "the store was asked once, for the chunk");
        assertArrayEquals(data, Files.readAllBytes(part()), "every byte in its place");
    }

    @Test
    void aSecondRefusalFailsTheFillWithInsufficientStorage() throws IOException {
        byte[] data = random(10_000);
        IOException e;
        try (FileChannel channel = new FullDisk(open(), 2)) {
            e = assertThrows(IOException.class, () -> writeChunk(channel, Unpooled.wrappedBuffer(data), 0, true));
        }
        assertEquals(1, roomAsked.size(), "room made once, the write tried once more, no more");
        assertEquals(507, FetchException.storeWrite("write the file", e).status().code());
    }

    @Test
    void noRoomMadeFailsAtOnce() throws IOException {
        IOException e;
        try (FileChannel channel = new FullDisk(open(), 1)) {
            e = assertThrows(IOException.class, () -> writeChunk(channel, Unpooled.wrappedBuffer(random(1000)), 0, false));
        }
        assertEquals(1, roomAsked.size());
        assertEquals(507, FetchException.storeWrite("write the file", e).status().code());
    }

    @Test
    void otherErrorsAreNotRetried() {
        assertThrows(IOException.class, () -> WriteHandle.retryOnNoSpace(bytes -> roomAsked.add(bytes), 1, "write",
                () -> { throw new IOException("Input/output error"); }));
        assertEquals(List.of(), roomAsked, "no eviction for an error that is not a full disk");
    }
}
