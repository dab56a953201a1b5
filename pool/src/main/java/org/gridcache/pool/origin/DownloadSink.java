package org.gridcache.pool.origin;

import io.netty.buffer.ByteBuf;
import java.io.IOException;
import java.nio.channels.FileChannel;
import org.gridcache.pool.http.FetchException;

/** Where an {@link OriginFetcher} puts what it fetches (implemented by the fetch package's {@code Download}). */
public interface DownloadSink {

    /**
     * The origin answered with the file: its size ({@code -1} unknown), modification time (epoch seconds, -1
     * unknown) and ETag (may be null). Throws when the pool will not take it (size differs from the ticket's, no
     * room); the fetcher then stops and calls {@link #fail}.
     */
    void begin(long contentLength, long mtime, String etag) throws FetchException;

    /**
     * Appends the readable bytes of {@code data} (the sink takes a reference of its own; the caller still releases
     * {@code data}). The bytes are kept in memory until written to disk behind the clients (write-behind); false
     * means the pool's write-behind memory is exhausted: stop reading from the origin until {@code resume} runs.
     */
    boolean write(ByteBuf data, Runnable resume) throws FetchException;

    /** Appends up to {@code count} bytes of {@code source} from {@code position}; returns how many were copied. */
    long transferFrom(FileChannel source, long position, long count) throws IOException, FetchException;

    /** Bytes received so far. */
    long received();

    void complete();

    /**
     * What must hold of the complete file, besides its size, before it becomes a hit: given the part file (all
     * bytes on disk, fsync'ed) and its size, throws to discard it and fail the fetch (e.g. a checksum mismatch).
     */
    interface Verification {
        void verify(FileChannel partFile, long size) throws IOException, FetchException;
    }

    /**
     * Announces, before {@link #begin}, that this fetch will end with {@link #complete(Verification)}: the file's
     * last byte is then held back from waiting clients until the verification passed, so that a mismatch fails
     * their transfers too (an aborted connection) instead of handing them a complete-looking response. {@code type}
     * is the checksum the origin will be asked for: the sink computes it while the file fills, so that the comparison
     * needs no read-back.
     */
    default void willVerify(org.gridcache.common.checksum.ChecksumType type) {
    }

    /** As {@link #complete()}, the file becoming a hit only if {@code verification} passes on what was written. */
    default void complete(Verification verification) {
        complete();
    }

    /**
     * The checksums the origin gave for the file (an HTTP origin's {@code Digest}, GridFTP's CKSM): the
     * file becomes a hit only if what the pool computed while it filled agrees on every type both know. Given
     * before {@link #begin}, the last byte is held back from clients until then (as {@link #willVerify}); its types are
     * computed while the file fills.
     */
    default void originChecksums(org.gridcache.common.checksum.Checksums offered) {
    }

    /**
     * Whether the sink computes {@code type} while it fills (cluster setting {@code pool.checksums} when the fetch
     * began, and the type announced by {@link #willVerify}): an origin's checksum of that type given to
     * {@link #originChecksums} is then verified without reading the file back.
     */
    default boolean computes(org.gridcache.common.checksum.ChecksumType type) {
        return false;
    }

    void fail(FetchException reason);
}
