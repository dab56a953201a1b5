package org.gridcache.pool.mover;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelOutboundHandlerAdapter;
import io.netty.channel.ChannelPromise;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.handler.ssl.SslContextBuilder;
import io.netty.handler.ssl.util.SelfSignedCertificate;
import io.netty.util.ReferenceCountUtil;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.gridcache.common.MappedReadClients;
import org.gridcache.pool.store.StoreEntry;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class MappedReadsTest {
    private static final int MIB = 1 << 20;
    @TempDir
    Path dir;

    private byte[] write(String name, int size, long seed) throws IOException {
        byte[] data = new byte[size];
        new Random(seed).nextBytes(data);
        Files.write(dir.resolve(name), data);
        return data;
    }

    private static FileChannel open(Path file) throws IOException {
        return FileChannel.open(file, StandardOpenOption.READ);
    }

    /**
     * Takes each written buffer as a socket does: copies its bytes, releases it, then completes the write (an
     * EmbeddedChannel would complete the write first and keep the buffer, which a socket never does).
     */
    private static final class CopyingSocket extends ChannelOutboundHandlerAdapter {
        final ByteArrayOutputStream bytes = new ByteArrayOutputStream();

        @Override
        public void write(ChannelHandlerContext ctx, Object msg, ChannelPromise promise) {
            ByteBuf b = (ByteBuf) msg;
            byte[] copy = new byte[b.readableBytes()];
            b.readBytes(copy);
            bytes.writeBytes(copy);
            b.release();
            promise.setSuccess();
        }
    }

    /** Sends [start, start + length) and returns what the socket took, asserting the send completed. */
    private static byte[] send(MappedReads reads, StoreEntry entry, FileChannel file, long start, long length) {
        CopyingSocket socket = new CopyingSocket();
        EmbeddedChannel channel = new EmbeddedChannel(socket, new ChannelInboundHandlerAdapter());
        long[] progressed = {0};
        ChannelFuture done = MappedSend.send(channel.pipeline().lastContext(), reads, entry, file, start, length,
                n -> progressed[0] += n);
        channel.runPendingTasks();
        assertTrue(done.isSuccess(), () -> "send failed: " + done.cause());
        assertEquals(length, progressed[0], "every byte written was told as progress");
        return socket.bytes.toByteArray();
    }

    @Test
    void aRangeAcrossChunksAndSegmentsGoesOutByteExact() throws IOException {
        byte[] data = write("f", 21 * MIB + 123, 1);
        MappedReads reads = new MappedReads(() -> MappedReadClients.ALL, 1L << 30, 8 * MIB); // segments of 8 MiB
        StoreEntry entry = new StoreEntry(data.length, -1, null);
        try (FileChannel file = open(dir.resolve("f"))) {
            assertArrayEquals(data, send(reads, entry, file, 0, data.length));
            long start = 8 * MIB - 5; // straddles the first segment boundary, ends inside the last segment
            int length = 9 * MIB + 4097;
            assertArrayEquals(Arrays.copyOfRange(data, (int) start, (int) start + length),
                    send(reads, entry, file, start, length));
        }
    }

    @Test
    void aReplacedFileIsNeverServedFromTheOldVersionsMapping() throws IOException {
        byte[] v1 = write("f", 5 * MIB, 1);
        MappedReads reads = new MappedReads(() -> MappedReadClients.ALL);
        StoreEntry first = new StoreEntry(v1.length, 1, null);
        try (FileChannel old = open(dir.resolve("f"))) {
            assertArrayEquals(v1, send(reads, first, old, 0, v1.length));
            byte[] v2 = write("new", 5 * MIB, 2); // a new version committed over the old one, as the store does
            Files.move(dir.resolve("new"), dir.resolve("f"), StandardCopyOption.ATOMIC_MOVE);
            StoreEntry second = new StoreEntry(v2.length, 2, null);
            try (FileChannel current = open(dir.resolve("f"))) {
                assertArrayEquals(v2, send(reads, second, current, 0, v2.length));
            }
            // a response still holding the old entry (looked up before the commit) gets the old bytes, consistently
            assertArrayEquals(v1, send(reads, first, old, 0, v1.length));
        }
    }

    /** Holds every write (the socket has not taken it) until {@link #writeAll}: chunks stay queued. */
    private static final class HeldWrites extends ChannelOutboundHandlerAdapter {
        final List<Object> messages = new ArrayList<>();
        final List<ChannelPromise> promises = new ArrayList<>();

        @Override
        public void write(ChannelHandlerContext ctx, Object msg, ChannelPromise promise) {
            messages.add(msg);
            promises.add(promise);
        }

        /** The socket takes what is held, as it would when the client reads on. */
        int writeAll() {
            int n = messages.size();
            for (int i = 0; i < n; i++) {
                ReferenceCountUtil.release(messages.get(i));
                promises.get(i).setSuccess();
            }
            messages.subList(0, n).clear();
            promises.subList(0, n).clear();
            return n;
        }
    }

    @Test
    void anEvictedFilesMappingGoesAtOnceWhenUnusedAndOnlyAfterItsQueuedChunksWhenInUse() throws IOException {
        byte[] data = write("f", 5 * MIB, 4); // two chunks: 4 MiB and 1 MiB
        MappedReads reads = new MappedReads(() -> MappedReadClients.ALL);
        long before = reads.mappedSegments();
        StoreEntry idle = new StoreEntry(data.length, 1, null);
        StoreEntry busy = new StoreEntry(data.length, 2, null);
        try (FileChannel file = open(dir.resolve("f"))) {
            assertArrayEquals(data, send(reads, idle, file, 0, data.length));
            assertEquals(before + 1, reads.mappedSegments(), "kept after the read");
            reads.forget(idle); // evicted while nobody reads it: its disk space must be free now
            assertEquals(before, reads.mappedSegments());

            HeldWrites socket = new HeldWrites();
            EmbeddedChannel channel = new EmbeddedChannel(socket, new ChannelInboundHandlerAdapter());
            ChannelFuture done = MappedSend.send(channel.pipeline().lastContext(), reads, busy, file, 0, data.length, n -> { });
            assertEquals(2, socket.messages.size(), "two chunks queued");
            reads.forget(busy); // evicted while its chunks sit in the socket's queue
            assertEquals(before + 1, reads.mappedSegments(), "no queued chunk may point at unmapped memory");
            assertEquals(2, socket.writeAll());
            assertTrue(done.isSuccess());
            assertEquals(before, reads.mappedSegments(), "unmapped once its chunks are written");
        }
    }

    @Test
    void aSendForAnEntryAlreadyGoneMapsForItselfAndKeepsNothing() throws IOException {
        byte[] data = write("f", 6 * MIB, 5);
        MappedReads reads = new MappedReads(() -> MappedReadClients.ALL);
        long before = reads.mappedSegments();
        StoreEntry gone = new StoreEntry(data.length, 1, null);
        reads.forget(gone); // dropped while a hit that had looked it up was about to send
        try (FileChannel file = open(dir.resolve("f"))) {
            assertArrayEquals(data, send(reads, gone, file, 0, data.length));
        }
        assertEquals(before, reads.mappedSegments());
    }

    @Test
    void aFileShorterThanItsEntryFailsTheSendBeforeAnyByte() throws IOException {
        byte[] data = write("f", 5 * MIB, 1);
        MappedReads reads = new MappedReads(() -> MappedReadClients.ALL);
        StoreEntry entry = new StoreEntry(data.length + 1, -1, null); // truncated under the store
        try (FileChannel file = open(dir.resolve("f"))) {
            CopyingSocket socket = new CopyingSocket();
            EmbeddedChannel channel = new EmbeddedChannel(socket, new ChannelInboundHandlerAdapter());
            ChannelFuture done = MappedSend.send(channel.pipeline().lastContext(), reads, entry, file, 0, data.length + 1, n -> { });
            channel.runPendingTasks();
            assertInstanceOf(IOException.class, done.cause());
            assertEquals(0, socket.bytes.size());
        }
    }

    @Test
    void onlyLargePlainBodiesToTheClientsTheSettingNamesAreMapped() throws Exception {
        EmbeddedChannel plain = new EmbeddedChannel(new ChannelInboundHandlerAdapter());
        ChannelHandlerContext ctx = plain.pipeline().firstContext();
        assertTrue(new MappedReads(() -> MappedReadClients.ALL).suits(ctx, MappedReads.SMALLEST));
        assertFalse(new MappedReads(() -> MappedReadClients.ALL).suits(ctx, MappedReads.SMALLEST - 1));
        assertFalse(new MappedReads(() -> MappedReadClients.NONE).suits(ctx, 1L << 30));
        // an EmbeddedChannel's peer is no address of this host
        assertFalse(new MappedReads(() -> MappedReadClients.LOCAL).suits(ctx, 1L << 30));

        SelfSignedCertificate cert = new SelfSignedCertificate();
        EmbeddedChannel tls = new EmbeddedChannel(
                SslContextBuilder.forServer(cert.certificate(), cert.privateKey()).build().newHandler(plain.alloc()),
                new ChannelInboundHandlerAdapter());
        assertFalse(new MappedReads(() -> MappedReadClients.ALL).suits(tls.pipeline().lastContext(), 1L << 30));
    }
}
