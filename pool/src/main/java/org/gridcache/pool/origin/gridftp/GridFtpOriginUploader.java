package org.gridcache.pool.origin.gridftp;

import io.netty.buffer.ByteBuf;
import io.netty.handler.codec.http.HttpResponseStatus;
import java.io.IOException;
import java.io.InputStream;
import java.io.InterruptedIOException;
import java.net.URI;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.RejectedExecutionException;
import org.gridcache.common.origin.OriginEntry;
import org.gridcache.common.ticket.Ticket;
import org.gridcache.gridftp.GridFtpConnection;
import org.gridcache.gridftp.GridFtpException;
import org.gridcache.gridftp.RemoteEntry;
import org.gridcache.pool.http.FetchException;
import org.gridcache.pool.origin.OriginUploader;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A PUT to a {@code gsiftp://} origin: STOR with jGlobus ({@link GridFtpConnection#store}) as the ticket's user (the
 * delegated proxy {@code OriginAccess} obtained) or as the pool, on the pool's GridFTP threads. The body reaches the
 * blocking store through {@link Body}, which holds the one chunk the client sent last and tells the event loop it was
 * taken only when the store has read all of it, so the client is read no faster than the server writes. An abort
 * makes the store's stream fail: in stream mode the server keeps what it got, so the store deletes the partial file
 * (DELE). The origin's refusals (403, 404, 409, 507) reach the client as for a GridFTP read.
 */
public final class GridFtpOriginUploader implements OriginUploader {
    private static final Logger LOG = LoggerFactory.getLogger(GridFtpOriginUploader.class);
    private final GridFtpSessions sessions;

    GridFtpOriginUploader(GridFtpSessions sessions) {
        this.sessions = sessions;
    }

    @Override
    public boolean supports(URI origin) {
        return OriginEntry.GSIFTP.equalsIgnoreCase(origin.getScheme());
    }

    @Override
    public CompletableFuture<OriginUploader.Upload> start(URI origin, long length, Ticket ticket) {
        GridFtpSessions.Login login;
        try {
            login = sessions.login(ticket);
        } catch (FetchException e) {
            return CompletableFuture.failedFuture(e);
        }
        CompletableFuture<OriginUploader.Upload> started = new CompletableFuture<>();
        try {
            sessions.execute(() -> store(origin, length, ticket, login, started));
        } catch (RejectedExecutionException e) {
            return CompletableFuture.failedFuture(GridFtpSessions.shuttingDown());
        }
        return started;
    }

    /** On a GridFTP thread until the server answered the STOR: open, look at the target, hand out the upload, store. */
    private void store(URI origin, long length, Ticket ticket, GridFtpSessions.Login login,
                       CompletableFuture<OriginUploader.Upload> started) {
        String path = GridFtpSessions.path(origin);
        Body body = new Body(login.options().replyTimeout());
        CompletableFuture<Result> result = new CompletableFuture<>();
        try (GridFtpConnection conn = GridFtpSessions.open(origin, login.credential(), login.options())) {
            boolean existed = exists(conn, path);
            started.complete(new GridFtpUpload(body, result));
            conn.store(path, body, length);
            RemoteEntry stored = conn.stat(path);
            long mtime = stored.mtimeMillis() < 0 ? -1 : stored.mtimeMillis() / 1000;
            result.complete(new Result(existed ? 204 : 201, existed ? "replaced" : "created", mtime));
        } catch (GridFtpException e) {
            FetchException refusal = GridFtpSessions.reason(e, origin, ticket);
            if (!body.aborted()) {
                LOG.info("GridFTP upload of {} for {} failed: {}", ticket.path(), ticket.subject(), refusal.getMessage());
            }
            fail(started, body, result, refusal);
        } catch (FetchException e) {
            fail(started, body, result, e);
        } catch (RuntimeException e) {
            LOG.error("GridFTP upload of {} failed", ticket.path(), e);
            fail(started, body, result, FetchException.badGateway("GridFTP client failed: " + e));
        }
    }

    private static void fail(CompletableFuture<OriginUploader.Upload> started, Body body, CompletableFuture<Result> result,
                             FetchException refusal) {
        if (!started.completeExceptionally(refusal)) {
            body.refused(refusal);
            result.completeExceptionally(refusal);
        }
    }

    /** Whether a file is at {@code path} (a directory there is 409: a PUT cannot replace a collection). */
    private static boolean exists(GridFtpConnection conn, String path) throws GridFtpException, FetchException {
        try {
            if (conn.stat(path).directory()) {
                throw new FetchException(HttpResponseStatus.CONFLICT, "conflict: a collection exists at the origin");
            }
            return true;
        } catch (GridFtpException e) {
            if (e.kind() == GridFtpException.Kind.NOT_FOUND) {
                return false;
            }
            throw e;
        }
    }

    private record GridFtpUpload(Body body, CompletableFuture<Result> result) implements OriginUploader.Upload {
        @Override
        public CompletableFuture<Void> write(ByteBuf chunk) {
            return body.offer(chunk);
        }

        @Override
        public CompletableFuture<Result> finish() {
            body.end();
            return result;
        }

        @Override
        public void abort() {
            body.abort();
        }
    }

    /**
     * The body as the blocking store reads it: at most one chunk of the client's, handed over by the event loop and
     * read by the store's thread; the chunk's future completes when the store has read all of it. The store's thread
     * waits at most the GridFTP timeout for the next chunk (a client that stalls ends the upload).
     */
    static final class Body extends InputStream {
        private final long waitMillis;
        private ByteBuf current;
        private CompletableFuture<Void> taken;
        private boolean ended;
        private IOException broken;
        private FetchException refusal;

        Body(Duration wait) {
            this.waitMillis = Math.max(1, wait.toMillis());
        }

        synchronized CompletableFuture<Void> offer(ByteBuf chunk) {
            if (refusal != null || broken != null || ended || current != null) {
                chunk.release();
                return CompletableFuture.failedFuture(refusal != null ? refusal
                        : FetchException.badGateway("the GridFTP upload is no longer taking data"));
            }
            current = chunk;
            taken = new CompletableFuture<>();
            notifyAll();
            return taken;
        }

        synchronized void end() {
            ended = true;
            notifyAll();
        }

        /** The client broke off, or its body was refused: the store fails, and deletes what the server got. */
        void abort() {
            CompletableFuture<Void> pending;
            synchronized (this) {
                if (broken == null) {
                    broken = new IOException("the client broke off the upload");
                }
                pending = drop();
                notifyAll();
            }
            if (pending != null) {
                pending.completeExceptionally(FetchException.badGateway("the upload was aborted"));
            }
        }

        synchronized boolean aborted() {
            return broken != null;
        }

        /** The server refused or the store failed: a chunk still waiting, and every later one, fail with its reason. */
        void refused(FetchException reason) {
            CompletableFuture<Void> pending;
            synchronized (this) {
                refusal = reason;
                pending = drop();
                notifyAll();
            }
            if (pending != null) {
                pending.completeExceptionally(reason);
            }
        }

        private CompletableFuture<Void> drop() {
            if (current != null) {
                current.release();
                current = null;
            }
            CompletableFuture<Void> pending = taken;
            taken = null;
            return pending;
        }

        @Override
        public int read() throws IOException {
            byte[] one = new byte[1];
            int n = read(one, 0, 1);
            return n < 0 ? -1 : one[0] & 0xff;
        }

        @Override
        public int read(byte[] b, int off, int len) throws IOException {
            if (len == 0) {
                return 0;
            }
            CompletableFuture<Void> done;
            int n;
            synchronized (this) {
                long deadline = System.nanoTime() + waitMillis * 1_000_000;
                while (current == null && !ended && broken == null && refusal == null) {
                    long left = (deadline - System.nanoTime()) / 1_000_000;
                    if (left <= 0) {
                        throw new IOException("the client sent nothing for " + waitMillis / 1000 + " s");
                    }
                    try {
                        wait(left);
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                        throw new InterruptedIOException("the pool is shutting down");
                    }
                }
                if (broken != null) {
                    throw broken;
                }
                if (refusal != null) {
                    throw new IOException(refusal.getMessage());
                }
                if (current == null) {
                    return -1; // ended, and everything was read
                }
                n = Math.min(len, current.readableBytes());
                current.readBytes(b, off, n);
                if (current.isReadable()) {
                    return n;
                }
                current.release();
                current = null;
                done = taken;
                taken = null;
            }
            done.complete(null); // outside the lock: the event loop reads the next chunk
            return n;
        }
    }
}
