package org.gridcache.pool.origin;

import io.netty.handler.codec.http.HttpResponseStatus;
import java.io.IOException;
import java.net.URI;
import java.nio.channels.ClosedByInterruptException;
import java.nio.channels.FileChannel;
import java.nio.file.AccessDeniedException;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;
import java.util.Collection;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;
import org.gridcache.common.origin.FileOriginRoots;
import org.gridcache.common.origin.LocalOriginRoot;
import org.gridcache.common.origin.OriginEntry;
import org.gridcache.pool.http.FetchException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Fetches {@code file://} origins (a local or mounted file system) by copying in chunks with
 * {@link FileChannel#transferTo}, so waiting clients see progress after every chunk. Blocking file I/O, hence its
 * own threads rather than an event loop.
 *
 * <p>A file is read only below the root of a {@code file://} origin of the mount table, and reached from that root
 * without following any symbolic link ({@link LocalOriginRoot}): the door resolved the file when it issued the
 * ticket, and whatever is swapped in between (a link to a secret, a directory replaced by a link) is refused with
 * 403 and its reason rather than read. A mount whose root lies in no directory the pool's administrator allows
 * ({@link FileOriginRoots}, {@code --file-origin-root}) is refused with 403 before anything is opened.
 */
public final class FileOriginFetcher implements OriginFetcher {
    private static final Logger LOG = LoggerFactory.getLogger(FileOriginFetcher.class);
    private static final long CHUNK = 1L << 20;
    private final Supplier<? extends Collection<OriginEntry>> mounts;
    private final FileOriginRoots roots;
    private final AtomicInteger threads = new AtomicInteger();
    private final ExecutorService executor = Executors.newCachedThreadPool(r -> {
        Thread t = new Thread(r, "file-fetcher-" + threads.incrementAndGet());
        t.setDaemon(true);
        return t;
    });

    /**
     * {@code mounts}: the mount table now, whose {@code file://} entries are the only roots read from; {@code roots}:
     * the directories this pool lets them lie in ({@code --file-origin-root}).
     */
    public FileOriginFetcher(Supplier<? extends Collection<OriginEntry>> mounts, FileOriginRoots roots) {
        this.mounts = mounts;
        this.roots = roots;
    }

    @Override
    public boolean supports(URI origin) {
        return "file".equalsIgnoreCase(origin.getScheme());
    }

    @Override
    public void fetch(URI origin, DownloadSink sink) {
        executor.execute(() -> copy(origin, sink));
    }

    private void copy(URI origin, DownloadSink sink) {
        try (LocalOriginRoot.OpenFile file = open(origin)) {
            FileChannel source = file.channel();
            long size = source.size();
            sink.begin(size, file.attributes().lastModifiedTime().toMillis() / 1000, null);
            long position = 0;
            while (position < size) {
                long n = sink.transferFrom(source, position, Math.min(CHUNK, size - position));
                if (n <= 0) {
                    break; // the file shrank under us: complete() reports the short copy
                }
                position += n;
            }
            sink.complete();
        } catch (FileOriginRoots.NotAllowed e) {
            LOG.warn("file origin {} refused: {} (allowed: {})", origin.getPath(), e.getMessage(), roots);
            sink.fail(new FetchException(HttpResponseStatus.FORBIDDEN, "origin file not served: " + e.getMessage()));
        } catch (LocalOriginRoot.NotServed e) {
            LOG.warn("file origin {} refused: {}", origin.getPath(), e.getMessage());
            sink.fail(new FetchException(HttpResponseStatus.FORBIDDEN, "origin file not served: " + e.getMessage()));
        } catch (NoSuchFileException | NotDirectoryException e) {
            sink.fail(new FetchException(HttpResponseStatus.NOT_FOUND, "not found at origin"));
        } catch (AccessDeniedException e) {
            sink.fail(new FetchException(HttpResponseStatus.FORBIDDEN, "origin file is not readable by the pool"));
        } catch (ClosedByInterruptException e) {
            sink.fail(new FetchException(HttpResponseStatus.SERVICE_UNAVAILABLE, "pool is shutting down"));
        } catch (IOException e) {
            LOG.warn("reading file origin {} failed: {}", origin.getPath(), e.toString());
            sink.fail(FetchException.badGateway("cannot read file origin: " + e.getMessage()));
        } catch (FetchException e) {
            sink.fail(e);
        }
    }

    /**
     * The file, opened from the root of the deepest {@code file://} mount that holds it, if this pool allows that root
     * ({@link FileOriginRoots}): nothing is opened for a mount outside them.
     */
    private LocalOriginRoot.OpenFile open(URI origin) throws IOException {
        FileMounts.Located at = FileMounts.locate(mounts.get(), origin);
        LocalOriginRoot root;
        try {
            root = roots.root(at.mount().url());
        } catch (IllegalArgumentException e) {
            throw new LocalOriginRoot.NotServed("the mount table's URL names no local directory");
        }
        return root.open(at.names());
    }

    @Override
    public void close() {
        executor.shutdownNow();
    }
}
