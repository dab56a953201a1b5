package org.gridcache.pool.origin;

import io.netty.buffer.ByteBuf;
import io.netty.handler.codec.http.HttpResponseStatus;
import java.io.IOException;
import java.net.URI;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;
import java.util.Collection;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.function.Supplier;
import org.gridcache.common.origin.FileOriginRoots;
import org.gridcache.common.origin.LocalOriginRoot;
import org.gridcache.common.origin.LocalOriginWrites;
import org.gridcache.common.origin.OriginEntry;
import org.gridcache.common.ticket.Ticket;
import org.gridcache.pool.http.FetchException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A PUT into a {@code file://} origin: below the root of the mount that holds it (in a {@code --file-origin-root},
 * else 403), no link followed ({@link LocalOriginWrites}), into a temporary file beside the target that is renamed
 * over it only when every byte arrived and was checked; an aborted upload deletes the temporary file, so readers of
 * the origin never see a part. Disk writes run on threads of their own, never the event loop.
 */
public final class FileOriginUploader implements OriginUploader {
    private static final Logger LOG = LoggerFactory.getLogger(FileOriginUploader.class);
    private final Supplier<? extends Collection<OriginEntry>> mounts;
    private final FileOriginRoots roots;
    private final ExecutorService executor = Executors.newCachedThreadPool(r -> {
        Thread t = new Thread(r, "file-origin-upload");
        t.setDaemon(true);
        return t;
    });

    public FileOriginUploader(Supplier<? extends Collection<OriginEntry>> mounts, FileOriginRoots roots) {
        this.mounts = mounts;
        this.roots = roots;
    }

    @Override
    public boolean supports(URI origin) {
        return "file".equalsIgnoreCase(origin.getScheme());
    }

    @Override
    public CompletableFuture<OriginUploader.Upload> start(URI origin, long length, Ticket ticket) {
        return CompletableFuture.supplyAsync(() -> {
            try {
                return new FileUpload(open(origin));
            } catch (IOException e) {
                throw new java.util.concurrent.CompletionException(refusal(origin, e));
            }
        }, executor);
    }

    private LocalOriginWrites.Upload open(URI origin) throws IOException {
        FileMounts.Located at = FileMounts.locate(mounts.get(), origin);
        if (at.names().isEmpty()) {
            throw new LocalOriginRoot.NotServed("the root of a file:// origin is not a file to write");
        }
        return new LocalOriginWrites(roots.root(at.mount().url())).upload(at.names());
    }

    private static FetchException refusal(URI origin, IOException e) {
        if (e instanceof FileOriginRoots.NotAllowed || e instanceof LocalOriginRoot.NotServed) {
            LOG.warn("file origin {} not written: {}", origin.getPath(), e.getMessage());
            return new FetchException(HttpResponseStatus.FORBIDDEN, "origin file not written: " + e.getMessage());
        }
        if (e instanceof LocalOriginWrites.MissingParent || e instanceof NoSuchFileException || e instanceof NotDirectoryException) {
            return new FetchException(HttpResponseStatus.CONFLICT, "conflict: the origin has no collection to hold the file");
        }
        if (e instanceof FileAlreadyExistsException) {
            return new FetchException(HttpResponseStatus.CONFLICT, "conflict: a collection exists at the origin");
        }
        if (e instanceof AccessDeniedException) {
            return new FetchException(HttpResponseStatus.FORBIDDEN, "the origin directory is not writable by the pool");
        }
        if (e.getMessage() != null && e.getMessage().contains("No space left")) {
            return new FetchException(HttpResponseStatus.INSUFFICIENT_STORAGE, "the origin is full");
        }
        LOG.warn("writing file origin {} failed: {}", origin.getPath(), e.toString());
        return FetchException.badGateway("cannot write file origin: " + e.getMessage());
    }

    private final class FileUpload implements OriginUploader.Upload {
        private final LocalOriginWrites.Upload upload;
        /**
         * Aborted once only: a write that fails aborts, and so does the upload's owner when it learns of the failure
         * or of the client's leaving; a second close of the directory stream would throw.
         */
        private final java.util.concurrent.atomic.AtomicBoolean aborted = new java.util.concurrent.atomic.AtomicBoolean();

        FileUpload(LocalOriginWrites.Upload upload) {
            this.upload = upload;
        }

        @Override
        public CompletableFuture<Void> write(ByteBuf chunk) {
            return CompletableFuture.runAsync(() -> {
                try {
                    LocalOriginWrites.writeFully(upload.channel(), chunk.nioBuffer());
                } catch (IOException e) {
                    abort();
                    throw new java.util.concurrent.CompletionException(refusal(URI.create("file:///"), e));
                } finally {
                    chunk.release();
                }
            }, executor);
        }

        @Override
        public CompletableFuture<Result> finish() {
            return CompletableFuture.supplyAsync(() -> {
                try (upload) {
                    boolean replaced = upload.commit();
                    return new Result(replaced ? 204 : 201, replaced ? "replaced" : "created",
                            upload.committedMtimeMillis() / 1000);
                } catch (IOException e) {
                    throw new java.util.concurrent.CompletionException(refusal(URI.create("file:///"), e));
                }
            }, executor);
        }

        @Override
        public void abort() {
            if (!aborted.compareAndSet(false, true)) {
                return;
            }
            executor.execute(() -> {
                try {
                    upload.close(); // not committed: the temporary file is deleted
                } catch (IOException e) {
                    LOG.warn("cannot remove an aborted upload's temporary file: {}", e.toString());
                }
            });
        }
    }
}
