package org.gridcache.pool.serve;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelFuture;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.handler.stream.ChunkedWriteHandler;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Arrays;
import java.util.Random;
import org.gridcache.pool.mover.SharedFileRegion;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class FileRegionChunksTest {
    @TempDir
    Path dir;

    private static byte[] drain(EmbeddedChannel channel) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (Object o; (o = channel.readOutbound()) != null; ) {
            ByteBuf b = (ByteBuf) o;
            byte[] bytes = new byte[b.readableBytes()];
            b.readBytes(bytes);
            out.writeBytes(bytes);
            b.release();
        }
        return out.toByteArray();
    }


    @Test
    void aRegionBecomesItsBytesInChunks() throws IOException {
        byte[] data = new byte[5 * FileRegionChunks.CHUNK + 321];
        new Random(3).nextBytes(data);
        Files.write(dir.resolve("f"), data);
        try (FileChannel file = FileChannel.open(dir.resolve("f"), StandardOpenOption.READ)) {
            EmbeddedChannel channel = new EmbeddedChannel(new ChunkedWriteHandler(), new FileRegionChunks());
            ChannelFuture written = channel.writeAndFlush(new SharedFileRegion(file, 7, data.length - 7 - 9));
            channel.runPendingTasks();
            assertTrue(written.isSuccess(), () -> "failed: " + written.cause());
            assertArrayEquals(Arrays.copyOfRange(data, 7, data.length - 9), drain(channel));
        }
    }

    @Test
    void aFileShorterThanItsRegionClosesTheConnectionRatherThanHangingIt() throws IOException {
        byte[] data = new byte[2 * FileRegionChunks.CHUNK];
        Files.write(dir.resolve("f"), data);
        try (FileChannel file = FileChannel.open(dir.resolve("f"), StandardOpenOption.READ)) {
            EmbeddedChannel channel = new EmbeddedChannel(new ChunkedWriteHandler(), new FileRegionChunks());
            ChannelFuture written = channel.writeAndFlush(new SharedFileRegion(file, 0, data.length + 1));
            channel.runPendingTasks();
            assertFalse(written.isSuccess());
            assertFalse(channel.isOpen(), "the client must see the body cut short");
        }
    }
}
