package org.gridcache.pool.tpc;

import io.netty.handler.codec.http.HttpMethod;
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.nio.channels.Channels;
import java.nio.channels.FileChannel;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicLong;
import org.gridcache.common.ticket.Ticket;
import org.gridcache.common.checksum.ChecksumComputation;
import org.gridcache.common.checksum.Checksums;
import org.gridcache.common.checksum.DigestRequest;
import org.gridcache.pool.fetch.Download;
import org.gridcache.pool.fetch.Downloads;
import org.gridcache.pool.http.FetchException;
import org.gridcache.pool.store.StoreKey;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A push: the file PUT to the remote with its {@code Content-Length}, from this pool's store. A hit is sent as it
 * is; a miss is first filled through the normal miss path ({@link Downloads}: one fetch however many wait, checked
 * and committed as any fetch), then sent. The bytes are checksummed on the way; after the PUT the remote is asked
 * (HEAD with {@code Want-Digest}) and its answer compared with the stored copy's checksum (the sidecar's, else the
 * one computed while sending). A failed PUT is broken off mid-body (the remote keeps no complete file); a PUT that
 * succeeded but fails verification is undone with a DELETE.
 */
final class Push implements Copy {
    private static final Logger LOG = LoggerFactory.getLogger(Push.class);
    private final CopyService service;
    private final Ticket ticket;
    private final String token;
    private final ChecksumCheck check;
    private final Map<String, String> headers;
    private volatile boolean cancelled;
    private volatile CompletableFuture<?> filling;
    private volatile RemoteSession remote;

    Push(CopyService service, CopyOrder order) {
        this.service = service;
        this.ticket = order.ticket();
        this.token = order.token();
        this.check = order.check();
        this.headers = order.headers();
    }

    @Override
    public String run(AtomicLong moved) throws CopyFailure {
        try (RemoteSession session = service.openRemote(ticket, token)) {
            remote = session;
            if (cancelled) {
                session.close();
            }
            return push(session, moved); // the session's connections served this copy only: closed with it
        }
    }

    private String push(RemoteSession client, AtomicLong moved) throws CopyFailure {
        service.requireReadPermission(ticket, token); // as the user's GET would be checked
        Downloads.Source source;
        try {
            source = service.downloads().open(ticket);
        } catch (FetchException e) {
            throw new CopyFailure(e.getMessage());
        } catch (IOException e) {
            throw new CopyFailure("the pool's store failed: " + CopyService.oneLine(e));
        }
        StoreKey key = source instanceof Downloads.Hit h ? h.key() : ((Downloads.Joined) source).key();
        FileChannel file = source instanceof Downloads.Hit h ? h.file() : ((Downloads.Joined) source).file();
        boolean hit = source instanceof Downloads.Hit;
        try {
            long size = hit ? ((Downloads.Hit) source).entry().size() : filled(((Downloads.Joined) source).download());
            ChecksumComputation computation = new ChecksumComputation(java.util.Set.of(check.type()));
            int status = put(client, file, size, computation, moved);
            if (status < 200 || status >= 300) {
                throw new CopyFailure("the remote answered PUT with " + status);
            }
            Checksums ours = service.store().checksums(key).with(computation.finish());
            String mismatch = verify(client, ours);
            if (mismatch != null) {
                delete(client);
                throw new CopyFailure(mismatch);
            }
            LOG.info("COPY {} by {}: pushed {} bytes ({}), remote {}", ticket.path(), ticket.subject(), size,
                    hit ? "hit" : "miss", status);
            return hit ? "hit" : "miss";
        } finally {
            try {
                file.close();
            } catch (IOException e) {
                // read done
            }
            service.store().unpin(key);
        }
    }

    /** Waits until the miss's fetch has the whole file, checked; returns its size. */
    private long filled(Download download) throws CopyFailure {
        CompletableFuture<Void> done = new CompletableFuture<>();
        Download.Listener listener = d -> {
            if (d.state() == Download.State.COMPLETE || d.state() == Download.State.FAILED) {
                done.complete(null);
            }
        };
        download.addListener(listener);
        filling = done;
        try {
            listener.changed(download); // it may have ended before the listener was added
            CopyService.await(done, "the fetch");
        } finally {
            download.removeListener(listener);
        }
        if (cancelled) {
            throw new CopyFailure("the client left");
        }
        if (download.state() == Download.State.FAILED) {
            FetchException f = download.failure();
            throw new CopyFailure("the pool could not read the file from its origin: " + (f == null ? "fetch failed" : f.getMessage()));
        }
        return download.size();
    }

    private int put(RemoteSession client, FileChannel file, long size, ChecksumComputation computation, AtomicLong moved)
            throws CopyFailure {
        try {
            return client.put(URI.create(ticket.remote()), headers, () -> new Sent(file, computation, moved), size).status();
        } catch (IOException e) {
            throw new CopyFailure(cancelled ? "the client left" : "the PUT to the remote " + CopyService.hostOf(ticket.remote())
                    + " failed after " + moved.get() + " bytes: " + CopyService.oneLine(e));
        }
    }

    /** Null when the remote's checksum agrees (or none is required and none given); else why not. */
    private String verify(RemoteSession client, Checksums ours) throws CopyFailure {
        Map<String, String> head = new java.util.LinkedHashMap<>(headers);
        head.put(DigestRequest.WANT_DIGEST, check.want());
        try {
            RemoteSession.Answer response = client.send(URI.create(ticket.remote()), HttpMethod.HEAD, head);
            if (response.status() != 200) {
                return check.required() ? "the remote answered HEAD with " + response.status() + " after the PUT" : null;
            }
            return check.mismatch(response.headers().get(DigestRequest.DIGEST),
                    response.headers().get(DigestRequest.REPR_DIGEST), ours);
        } catch (IOException e) {
            return check.required() ? "cannot ask the remote for its checksum: " + CopyService.oneLine(e) : null;
        }
    }

    /** Undoes a PUT the remote took but that failed verification: nothing wrong may stay there. */
    private void delete(RemoteSession client) {
        try {
            int status = client.send(URI.create(ticket.remote()), HttpMethod.DELETE, headers).status();
            if (status >= 300) {
                LOG.warn("COPY {}: the remote refused to DELETE the copy that failed verification: {}", ticket.path(), status);
            }
        } catch (IOException | CopyFailure e) {
            LOG.warn("COPY {}: the copy that failed verification could not be deleted at the remote: {}", ticket.path(), e.toString());
        }
    }

    @Override
    public void cancel() {
        cancelled = true;
        CompletableFuture<?> f = filling;
        if (f != null) {
            f.complete(null);
        }
        RemoteSession r = remote;
        if (r != null) {
            r.close(); // breaks off a PUT or a wait for the remote's answer
        }
    }

    /**
     * The PUT's body: the stored file from its start (a redirected PUT reads it again), counted and checksummed on the
     * way; it breaks off (an IOException, so the HTTP client aborts the request mid-body) once the client left.
     */
    private final class Sent extends FilterInputStream {
        private final ChecksumComputation computation;
        private final AtomicLong moved;
        private long sent;

        Sent(FileChannel file, ChecksumComputation computation, AtomicLong moved) {
            super(Channels.newInputStream(position(file)));
            this.computation = computation;
            this.moved = moved;
            moved.set(0);
        }

        @Override
        public int read(byte[] b, int off, int len) throws IOException {
            if (cancelled) {
                throw new IOException("the client left");
            }
            int n = super.read(b, off, len);
            if (n > 0) {
                computation.update(b, off, n);
                sent += n;
                moved.set(sent);
            }
            return n;
        }

        @Override
        public int read() throws IOException {
            byte[] one = new byte[1];
            return read(one, 0, 1) < 0 ? -1 : one[0] & 0xff;
        }

        @Override
        public void close() {
            // the file is closed by the push, not by the HTTP client
        }
    }

    private static FileChannel position(FileChannel file) {
        try {
            return file.position(0);
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }
}
