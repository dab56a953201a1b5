package org.gridcache.pool.origin;

import io.netty.handler.codec.http.HttpResponseStatus;
import java.io.IOException;
import java.net.URI;
import java.nio.channels.ClosedByInterruptException;
import java.nio.channels.FileChannel;
import java.nio.file.AccessDeniedException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import org.gridcache.pool.fetch.DownloadSink;
import org.gridcache.pool.fetch.FetchException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Fetches {@code file://} origins (a local or mounted file system) by copying in chunks with
 * {@link FileChannel#transferTo}, so waiting clients see progress after every chunk. Blocking file I/O, hence its
 * own threads rather than an event loop.
 */
public final class FileOriginFetcher implements OriginFetcher {
    private static final Logger LOG = LoggerFactory.getLogger(FileOriginFetcher.class);
    private static final long CHUNK = 1L << 20;
    private final AtomicInteger threads = new AtomicInteger();
    private final ExecutorService executor = Executors.newCachedThreadPool(r -> {
        Thread t = new Thread(r, "file-fetcher-" + threads.incrementAndGet());
        t.setDaemon(true);
        return t;
    });

    @Override
    public boolean supports(URI origin) {
        return "file".equalsIgnoreCase(origin.getScheme());
    }

    @Override
    public void fetch(URI origin, DownloadSink sink) {
        executor.execute(() -> copy(origin, sink));
    }

    private static void copy(URI origin, DownloadSink sink) {
        Path path;
        try {
            path = Path.of(origin);
        } catch (IllegalArgumentException | java.nio.file.FileSystemNotFoundException e) {
            sink.fail(FetchException.badGateway("unusable file origin URL"));
            return;
        }
        try (FileChannel source = FileChannel.open(path, StandardOpenOption.READ)) {
            long size = source.size();
            sink.begin(size, Files.getLastModifiedTime(path).toMillis() / 1000, null);
            long position = 0;
            while (position < size) {
                long n = sink.transferFrom(source, position, Math.min(CHUNK, size - position));
                if (n <= 0) {
                    break; // the file shrank under us: complete() reports the short copy
                }
                position += n;
            }
            sink.complete();
        } catch (NoSuchFileException e) {
            sink.fail(new FetchException(HttpResponseStatus.NOT_FOUND, "not found at origin"));
        } catch (AccessDeniedException e) {
            sink.fail(new FetchException(HttpResponseStatus.FORBIDDEN, "origin file is not readable by the pool"));
        } catch (ClosedByInterruptException e) {
            sink.fail(new FetchException(HttpResponseStatus.SERVICE_UNAVAILABLE, "pool is shutting down"));
        } catch (IOException e) {
            LOG.warn("reading file origin {} failed: {}", path, e.toString());
            sink.fail(FetchException.badGateway("cannot read file origin: " + e.getMessage()));
        } catch (FetchException e) {
            sink.fail(e);
        }
    }

    @Override
    public void close() {
        executor.shutdownNow();
    }
}
