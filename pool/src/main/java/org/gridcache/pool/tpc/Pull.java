package org.gridcache.pool.tpc;

import io.netty.buffer.Unpooled;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.nio.ByteBuffer;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicLong;
import org.gridcache.common.ticket.Ticket;
import org.gridcache.common.checksum.ChecksumComputation;
import org.gridcache.common.checksum.ChecksumType;
import org.gridcache.common.checksum.Checksums;
import org.gridcache.common.checksum.DigestRequest;
import org.gridcache.pool.origin.OriginUploader;
import org.gridcache.pool.store.Sidecar;
import org.gridcache.pool.store.StoreKey;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A pull: the remote file GET (its {@code Digest} asked for), streamed chunk by chunk into the origin at the ticket's
 * path with the pool's upload machinery ({@link OriginUploader}, the origin's credential mode) and into a copy in the
 * store, checksummed on the way (adler32 and crc32c on its own thread, md5 and sha-256 on a second one). The
 * origin's upload is finished only when every announced byte came and the checksum agrees; the copy becomes a hit
 * only after the origin confirmed it. Any failure aborts the origin upload (nothing complete there), deletes the copy
 * and returns its reservation.
 */
final class Pull implements Copy {
    private static final Logger LOG = LoggerFactory.getLogger(Pull.class);
    private static final int CHUNK = 64 * 1024;
    private final CopyService service;
    private final Ticket ticket;
    private final String token;
    private final ChecksumCheck check;
    private final Map<String, String> headers;
    private volatile boolean cancelled;
    private volatile InputStream body;
    private volatile RemoteSession remote;

    Pull(CopyService service, CopyOrder order) {
        this.service = service;
        this.ticket = order.ticket();
        this.token = order.token();
        this.check = order.check();
        this.headers = order.headers();
    }

    @Override
    public String run(AtomicLong moved) throws CopyFailure {
        URI origin = URI.create(ticket.originUrl());
        OriginUploader uploader = service.uploaders().stream().filter(u -> u.supports(origin)).findFirst()
                .orElseThrow(() -> new CopyFailure("this pool cannot write " + origin.getScheme() + " origins"));
        remote = service.openRemote(ticket, token);
        if (cancelled) {
            remote.close();
        }
        RemoteSession.Streamed response = get(remote);
        body = response.body();
        OriginUploader.Upload upload = null;
        StoreKey key = StoreKey.ofOrigin(ticket.originUrl());
        StoreCopy copy = null;
        BackgroundDigest costly = null;
        boolean done = false;
        service.staleCopies().uploadStarted(key);
        try {
            if (response.status() != 200) {
                throw new CopyFailure("the remote answered GET with " + response.status());
            }
            long length = response.length();
            if (length < 0) {
                throw new CopyFailure("the remote sent no Content-Length: this pool writes origins with known lengths only");
            }
            upload = CopyService.await(uploader.start(origin, length, ticket), "the origin");
            copy = StoreCopy.open(service.store(), key, length, "the third-party copy of " + ticket.path());
            Set<ChecksumType> types = java.util.EnumSet.noneOf(ChecksumType.class);
            types.addAll(service.kept());
            types.add(check.type());
            Set<ChecksumType> cheap = java.util.EnumSet.copyOf(types);
            cheap.removeIf(type -> !type.cheap());
            types.removeAll(cheap);
            ChecksumComputation computation = new ChecksumComputation(cheap);
            costly = types.isEmpty() ? null : new BackgroundDigest(types, service.workers());
            Pending pending = new Pending();
            long received = stream(upload, copy, computation, costly, length, moved, pending);
            if (received != length) {
                throw new CopyFailure("the remote sent " + received + " of " + length + " bytes");
            }
            Checksums checksums = computation.finish();
            if (costly != null) {
                checksums = checksums.with(costly.finish());
            }
            String mismatch = check.mismatch(response.headers().get(DigestRequest.DIGEST),
                    response.headers().get(DigestRequest.REPR_DIGEST), checksums);
            if (mismatch != null) {
                throw new CopyFailure(mismatch); // its last chunk held back: the origin never has the whole file
            }
            pending.release(upload);
            OriginUploader.Result result = CopyService.await(upload.finish(), "the origin");
            if (!result.success()) {
                throw new CopyFailure("the origin answered PUT " + ticket.path() + " with " + result.status() + ": " + result.reason());
            }
            done = true;
            boolean kept = copy.commit(new Sidecar(ticket.originUrl(), length, result.mtimeSeconds(), null,
                    System.currentTimeMillis(), checksums.toHex()));
            LOG.info("COPY {} by {}: pulled {} bytes, origin {}{}", ticket.path(), ticket.subject(), received, result.status(),
                    kept ? ", kept as a hit" : ", not kept");
            return "remote";
        } finally {
            if (costly != null) {
                costly.close();
            }
            service.staleCopies().uploadEnded(key);
            if (!done) {
                if (upload != null) {
                    upload.abort();
                }
                if (copy != null) {
                    copy.discard();
                }
            }
            close(body);
            remote.close(); // its connections serve this copy only
        }
    }

    private RemoteSession.Streamed get(RemoteSession session) throws CopyFailure {
        Map<String, String> all = new java.util.LinkedHashMap<>(headers);
        all.put(DigestRequest.WANT_DIGEST, check.want());
        try {
            return session.get(URI.create(ticket.remote()), all);
        } catch (IOException e) {
            session.close();
            throw new CopyFailure(cancelled ? "the client left"
                    : "cannot GET from the remote " + CopyService.hostOf(ticket.remote()) + ": " + CopyService.oneLine(e));
        } catch (CopyFailure e) {
            session.close();
            throw e;
        }
    }

    /**
     * Reads the remote's body into the origin and the copy, one chunk at a time; returns the bytes read. One chunk is
     * on its way to the origin while the next is read from the remote (a round trip per chunk held a pull to a third
     * of a direct copy), and the last chunk read is held back from the origin ({@code pending.held}) until the
     * checksum agrees, so that a copy failing verification never completes the origin's upload.
     */
    private long stream(OriginUploader.Upload upload, StoreCopy copy, ChecksumComputation computation, BackgroundDigest costly,
                        long length, AtomicLong moved, Pending pending) throws CopyFailure {
        long received = 0;
        while (true) {
            byte[] buffer = new byte[CHUNK];
            int n;
            try {
                n = body.readNBytes(buffer, 0, buffer.length);
            } catch (IOException e) {
                throw new CopyFailure(cancelled ? "the client left" : "the remote broke off after " + received + " bytes");
            }
            if (cancelled) {
                throw new CopyFailure("the client left");
            }
            if (n <= 0) {
                pending.drain();
                return received;
            }
            received += n;
            if (received > length) {
                throw new CopyFailure("the remote sent more than its Content-Length");
            }
            computation.update(buffer, 0, n);
            if (costly != null) {
                costly.update(ByteBuffer.wrap(buffer, 0, n)); // a new buffer each turn: never changed once handed on
            }
            copy.write(ByteBuffer.wrap(buffer, 0, n));
            pending.hold(upload, n == buffer.length ? buffer : java.util.Arrays.copyOf(buffer, n));
            moved.set(received);
        }
    }

    /** The chunk on its way to the origin, and the one held back behind it. */
    private static final class Pending {
        private CompletableFuture<Void> sending = CompletableFuture.completedFuture(null);
        private byte[] held;

        /** Sends what was held (once the origin took the chunk before it) and holds {@code chunk}. */
        void hold(OriginUploader.Upload upload, byte[] chunk) throws CopyFailure {
            if (held != null) {
                CopyService.await(sending, "the origin");
                sending = upload.write(Unpooled.wrappedBuffer(held));
            }
            held = chunk;
        }

        /** Waits until the origin took everything sent. */
        void drain() throws CopyFailure {
            CopyService.await(sending, "the origin");
        }

        /** Sends the held chunk, the last, and waits until the origin took it. */
        void release(OriginUploader.Upload upload) throws CopyFailure {
            drain();
            if (held != null) {
                CopyService.await(upload.write(Unpooled.wrappedBuffer(held)), "the origin");
                held = null;
            }
        }
    }

    @Override
    public void cancel() {
        cancelled = true;
        close(body); // unblocks the read
        RemoteSession r = remote;
        if (r != null) {
            r.close(); // unblocks the wait for the remote's answer
        }
    }

    private static void close(InputStream in) {
        if (in != null) {
            try {
                in.close();
            } catch (IOException e) {
                // already gone
            }
        }
    }
}
