package org.gridcache.pool.mover;

import static org.gridcache.pool.OutboundBytes.drain;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.handler.ssl.SslContextBuilder;
import io.netty.handler.ssl.util.SelfSignedCertificate;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.Arrays;
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

    /** Sends [start, start + length) and returns what the channel wrote, asserting the send completed. */
    private static byte[] send(MappedReads reads, StoreEntry entry, FileChannel file, long start, long length) {
        EmbeddedChannel channel = new EmbeddedChannel(new ChannelInboundHandlerAdapter());
        ChannelHandlerContext ctx = channel.pipeline().firstContext();
        ChannelFuture done = MappedSend.send(ctx, reads, entry, file, start, length);
        channel.runPendingTasks();
        assertTrue(done.isSuccess(), () -> "send failed: " + done.cause());
        return drain(channel);
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

    @Test
    void aFileShorterThanItsEntryFailsTheSendBeforeAnyByte() throws IOException {
        byte[] data = write("f", 5 * MIB, 1);
        MappedReads reads = new MappedReads(() -> MappedReadClients.ALL);
        StoreEntry entry = new StoreEntry(data.length + 1, -1, null); // truncated under the store
        try (FileChannel file = open(dir.resolve("f"))) {
            EmbeddedChannel channel = new EmbeddedChannel(new ChannelInboundHandlerAdapter());
            ChannelFuture done = MappedSend.send(channel.pipeline().firstContext(), reads, entry, file, 0, data.length + 1);
            channel.runPendingTasks();
            assertInstanceOf(IOException.class, done.cause());
            assertEquals(0, drain(channel).length);
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
