package org.gridcache.pool;

import io.netty.buffer.ByteBuf;
import java.io.IOException;
import java.nio.channels.FileChannel;

/** Where an {@link OriginFetcher} puts what it fetches (implemented by {@link Download}). */
interface DownloadSink {

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

    void fail(FetchException reason);
}
