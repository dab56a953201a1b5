package org.gridcache.pool.origin.gridftp;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.handler.codec.http.HttpResponseStatus;
import java.io.IOException;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.gridcache.pool.http.FetchException;
import org.junit.jupiter.api.Test;


/**
 * The hand-over between the event loop and the blocking GridFTP store ({@link GridFtpOriginUploader.Body}): a chunk is
 * "taken" only once the store read all of it, the end is -1, and every way it can end badly (client gone, server
 * refusal, a client that stalls) ends both sides. The STOR itself: GridFtpUploadsThroughAPoolTest, against a real server.
 */
class GridFtpUploadBodyTest {

    @Test
    void aChunkIsTakenOnlyWhenReadWholeAndTheEndIsMinusOne() throws Exception {
        GridFtpOriginUploader.Body body = new GridFtpOriginUploader.Body(Duration.ofSeconds(5));
        ByteBuf chunk = Unpooled.wrappedBuffer(new byte[] {1, 2, 3, 4, 5});
        CompletableFuture<Void> taken = body.offer(chunk);
        byte[] into = new byte[3];
        assertEquals(3, body.read(into, 0, 3));
        assertFalse(taken.isDone(), "two bytes are still to be read: the client must wait");
        assertEquals(2, body.read(into, 0, 3));
        assertTrue(taken.isDone());
        assertEquals(0, chunk.refCnt(), "released once read");
        body.end();
        assertEquals(-1, body.read());
    }

    @Test
    void theStoreWaitsForTheNextChunk() throws Exception {
        GridFtpOriginUploader.Body body = new GridFtpOriginUploader.Body(Duration.ofSeconds(10));
        CompletableFuture<byte[]> read = CompletableFuture.supplyAsync(() -> {
            byte[] b = new byte[2];
            try {
                body.read(b, 0, 2);
            } catch (IOException e) {
                throw new IllegalStateException(e);
            }
            return b;
        });
        body.offer(Unpooled.wrappedBuffer(new byte[] {7, 8}));
        assertArrayEquals(new byte[] {7, 8}, read.get(10, TimeUnit.SECONDS));
    }

    @Test
    void anAbortFailsTheStoresReadAndTheChunkInHand() {
        GridFtpOriginUploader.Body body = new GridFtpOriginUploader.Body(Duration.ofSeconds(5));
        ByteBuf chunk = Unpooled.wrappedBuffer(new byte[10]);
        CompletableFuture<Void> taken = body.offer(chunk);
        body.abort();
        assertTrue(taken.isCompletedExceptionally());
        assertEquals(0, chunk.refCnt());
        IOException e = assertThrows(IOException.class, () -> body.read(new byte[4], 0, 4));
        assertEquals("the client broke off the upload", e.getMessage());
        assertTrue(body.aborted());
    }

    @Test
    void aRefusalFailsTheWaitingChunkAndEveryLaterOneWithItsReason() {
        GridFtpOriginUploader.Body body = new GridFtpOriginUploader.Body(Duration.ofSeconds(5));
        CompletableFuture<Void> taken = body.offer(Unpooled.wrappedBuffer(new byte[10]));
        FetchException full = new FetchException(HttpResponseStatus.INSUFFICIENT_STORAGE, "the origin is full");
        body.refused(full);
        ExecutionException first = assertThrows(ExecutionException.class, taken::get);
        assertSame(full, first.getCause());
        ByteBuf later = Unpooled.wrappedBuffer(new byte[3]);
        ExecutionException second = assertThrows(ExecutionException.class, () -> body.offer(later).get());
        assertSame(full, second.getCause());
        assertEquals(0, later.refCnt());
        assertThrows(IOException.class, () -> body.read(new byte[1], 0, 1));
    }

    @Test
    void aClientThatSendsNothingEndsTheStoreAfterTheTimeout() {
        GridFtpOriginUploader.Body body = new GridFtpOriginUploader.Body(Duration.ofMillis(200));
        IOException e = assertThrows(IOException.class, () -> body.read(new byte[4], 0, 4));
        assertTrue(e.getMessage().startsWith("the client sent nothing for"), e.getMessage());
    }
}
