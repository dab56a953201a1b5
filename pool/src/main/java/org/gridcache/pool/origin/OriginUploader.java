package org.gridcache.pool.origin;

import io.netty.buffer.ByteBuf;
import java.net.URI;
import java.util.concurrent.CompletableFuture;
import org.gridcache.common.ticket.Ticket;

/**
 * An origin protocol's side of a PUT through a pool: the body streamed to the origin while it arrives, one chunk
 * at a time (the next is read from the client only when the origin took this one), so a pool holds one chunk per
 * upload whatever the file's size. One implementation per protocol, chosen by URL scheme.
 */
public interface OriginUploader {

    boolean supports(URI origin);

    /**
     * Opens the upload of {@code length} bytes to {@code origin} with the credential {@code ticket} names; completes
     * when the origin is ready for bytes, or fails with a {@code FetchException} (its status and reason for the client).
     */
    CompletableFuture<Upload> start(URI origin, long length, Ticket ticket);

    /** One upload in progress. */
    interface Upload {
        /** Sends {@code chunk} (this takes it over); completes when the origin took it. */
        CompletableFuture<Void> write(ByteBuf chunk);

        /**
         * All bytes were written: completes with the origin's answer ({@link Result#mtimeSeconds} of what it now
         * holds, where it says), or fails with a {@code FetchException}.
         */
        CompletableFuture<Result> finish();

        /** The client broke off or the body was refused: the origin is left without a complete file where the protocol allows. */
        void abort();
    }

    /** The origin's answer: its status and one-line reason, and the stored file's modification time (-1 unknown). */
    record Result(int status, String reason, long mtimeSeconds) {
        public boolean success() {
            return status >= 200 && status < 300;
        }
    }
}
