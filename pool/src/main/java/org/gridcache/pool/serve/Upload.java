package org.gridcache.pool.serve;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.HttpContent;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.handler.codec.http.LastHttpContent;
import java.net.URI;
import java.util.ArrayDeque;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import org.gridcache.common.cluster.ActiveTransfer;
import org.gridcache.common.ticket.Ticket;
import org.gridcache.common.checksum.ChecksumType;
import org.gridcache.common.checksum.Checksums;
import org.gridcache.common.checksum.DigestRequest;
import org.gridcache.common.checksum.UploadDigest;
import org.gridcache.pool.origin.OriginAccess;
import org.gridcache.pool.fetch.StaleCopies;
import org.gridcache.pool.http.Refusal;
import org.gridcache.pool.mover.ActiveTransfers;
import org.gridcache.pool.mover.PoolStats;
import org.gridcache.pool.origin.OriginUploader;
import org.gridcache.pool.store.Store;
import org.gridcache.pool.store.StoreKey;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One PUT through this pool (write-through, ARCHITECTURE.md "A write through a pool"), once {@link Admission}
 * admitted its head (a door's ticket for this path and pool, operation {@code write}, for the announced length; the
 * origin from the mount table): the origin upload is opened and only then is the client told {@code 100 Continue}.
 * Each chunk of the body goes to the origin and, through its {@link UploadCopy}, to the checksums and a copy in the
 * store; the next is read only when the origin took it (auto-read off: TCP pushes back on the client), so an upload
 * of any size holds one chunk, and up to {@link #DIGESTS_AHEAD} chunks ahead of the checksums. The last chunk is held
 * back until the body's checksums are known: a mismatch with the client's {@code Digest} / {@code Content-MD5} aborts
 * the origin upload before its end (nothing committed there) and answers 400. The copy becomes a hit only when the
 * origin answered 2xx and the sizes agree. A client that breaks off aborts the origin upload and leaves nothing in the
 * store. Runs on the channel's event loop; every answer closes the connection ({@link BodyRequests#answer}).
 */
final class Upload {
    private static final Logger LOG = LoggerFactory.getLogger(Upload.class);
    /** Body chunks (of up to 64 KiB) an upload may read ahead of its checksums. */
    private static final int DIGESTS_AHEAD = 16;

    /**
     * What uploads use of the pool: the origin protocols it can write, the write notices' bookkeeping, the checksums
     * kept in a copy's sidecar ({@code pool.checksums}), the disk writers, the transfers in progress.
     */
    record Services(Store store, OriginAccess access, List<OriginUploader> uploaders, StaleCopies staleCopies,
                    PoolStats stats, Set<ChecksumType> kept, Executor diskWriters, ActiveTransfers transfers) {
    }

    private final ChannelHandlerContext ctx;
    private final HttpRequest request;
    private final Services services;
    private final String path;
    private final Ticket ticket;
    private final String token;
    /** The mount's name, for the client's reasons (never its URL: that stays inside the cluster). */
    private final String originName;
    private final long length;
    private final UploadDigest digest;
    private final UploadCopy copy;
    private final ArrayDeque<HttpContent> pending = new ArrayDeque<>();
    private volatile long received; // written on the event loop, read by the pool's record
    private ActiveTransfers.Transfer progress;
    /** The body's checksums, once its last byte was read. */
    private Checksums checksums;
    private OriginUploader.Upload origin;
    /** A chunk is on its way to the origin (or the origin is being opened): read nothing more. */
    private boolean busy = true;
    private boolean ended;
    /**
     * The chunks handed to the disk writer and not yet digested, oldest first: reading goes on while they are (a hop
     * to the disk writer and back per chunk costs a scheduling delay each on a busy machine).
     */
    private final ArrayDeque<CompletableFuture<Void>> undigested = new ArrayDeque<>();

    private Upload(ChannelHandlerContext ctx, HttpRequest request, Admission.Admitted admitted, Services services,
                   UploadDigest digest) {
        this.ctx = ctx;
        this.request = request;
        this.services = services;
        this.path = admitted.path();
        this.ticket = admitted.ticket();
        this.token = admitted.token();
        this.originName = admitted.mount();
        this.length = ticket.size(); // the admission compared it with the announced length
        this.digest = digest;
        this.copy = new UploadCopy(services.store(), services.diskWriters(), ctx.executor(), path,
                StoreKey.ofOrigin(ticket.originUrl()), length, digest.computation(services.kept()));
    }

    /** Starts an admitted PUT; refuses (400) a {@code Digest} or {@code Content-MD5} it cannot read. */
    static Upload start(ChannelHandlerContext ctx, HttpRequest request, Admission.Admitted admitted, Services services)
            throws Refusal {
        UploadDigest digest;
        try {
            digest = UploadDigest.of(request.headers().get(DigestRequest.DIGEST), request.headers().get(UploadDigest.CONTENT_MD5));
        } catch (IllegalArgumentException e) {
            throw new Refusal(HttpResponseStatus.BAD_REQUEST, e.getMessage());
        }
        Upload upload = new Upload(ctx, request, admitted, services, digest);
        upload.begin();
        return upload;
    }

    private void begin() {
        progress = services.transfers().begin(ActiveTransfer.UPLOAD, ticket, path, length, () -> received);
        copy.open();
        services.staleCopies().uploadStarted(copy.key());
        CompletableFuture<?> credential = ticket.needsUserCredential()
                ? (services.access() == null ? CompletableFuture.failedFuture(new Refusal(HttpResponseStatus.BAD_GATEWAY,
                        "this pool cannot write origins with the user's credential (no TLS)"))
                        : services.access().credential(ticket, token))
                : CompletableFuture.completedFuture(null);
        URI url = URI.create(ticket.originUrl());
        OriginUploader uploader = services.uploaders().stream().filter(u -> u.supports(url)).findFirst().orElse(null);
        if (uploader == null) {
            fail(new Refusal(HttpResponseStatus.NOT_IMPLEMENTED, "uploads to " + url.getScheme()
                    + " origins are not supported by pools yet: PUT through the door (without Expect: 100-continue)"));
            return;
        }
        credential.thenCompose(c -> uploader.start(url, length, ticket)).whenComplete((o, error) -> ctx.executor().execute(() -> {
            if (error != null) {
                fail(error);
                return;
            }
            if (ended) {
                o.abort(); // the client left while the origin was being opened
                return;
            }
            origin = o;
            busy = false;
            if (HttpUtil.is100ContinueExpected(request)) {
                ctx.writeAndFlush(new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, HttpResponseStatus.CONTINUE));
            }
            next();
        }));
    }

    /** A chunk of the body from the client; taken over. */
    void content(HttpContent content) {
        if (ended) {
            content.release();
            return;
        }
        pending.add(content);
        next();
    }

    /** Sends what waits, one chunk at a time; reads more from the client when nothing does. */
    private void next() {
        while (!ended && origin != null && !busy) {
            HttpContent content = pending.poll();
            if (content == null) {
                ctx.read();
                return;
            }
            chunk(content);
        }
    }

    private void chunk(HttpContent content) {
        ByteBuf data = content.content();
        received += data.readableBytes();
        if (received > length) {
            content.release();
            fail(new Refusal(HttpResponseStatus.BAD_REQUEST, "the body is longer than its Content-Length"));
            return;
        }
        boolean last = content instanceof LastHttpContent;
        if (last && (received != length || content.decoderResult().isFailure())) {
            content.release(); // the connection ended before the body did: never a short file at the origin
            fail(new Refusal(HttpResponseStatus.BAD_REQUEST, "the body ended after " + received + " of its " + length + " bytes"));
            return;
        }
        busy = true;
        CompletableFuture<Void> digested = copy.digest(data.retainedDuplicate());
        if (last) {
            // the last bytes reach the origin only once the body's checksums agree with the client's
            digested.whenComplete((ok, error) -> ctx.executor().execute(() -> lastChunk(content, error)));
            return;
        }
        undigested.add(digested);
        while (!undigested.isEmpty() && undigested.peekFirst().isDone()) {
            undigested.pollFirst();
        }
        CompletableFuture<Void> sent = send(content);
        // a failed digest shows in the next chunk's wait or, at the latest, the last chunk's
        afterSent(undigested.size() > DIGESTS_AHEAD ? CompletableFuture.allOf(sent, undigested.pollFirst()) : sent, false);
    }

    private void lastChunk(HttpContent content, Throwable digestError) {
        if (ended || digestError != null) {
            content.release();
            if (digestError != null) {
                fail(digestError);
            }
            return;
        }
        checksums = copy.finish();
        String mismatch = digest.mismatch(checksums);
        if (mismatch != null) {
            content.release();
            // the last bytes never reach the origin: its upload is incomplete, and nothing is committed
            fail(new Refusal(HttpResponseStatus.BAD_REQUEST, mismatch));
            return;
        }
        afterSent(send(content), true);
    }

    /** Hands the chunk's bytes to the origin and releases the chunk. */
    private CompletableFuture<Void> send(HttpContent content) {
        ByteBuf data = content.content();
        CompletableFuture<Void> sent = data.isReadable() ? origin.write(data.retain()) : CompletableFuture.completedFuture(null);
        content.release();
        return sent;
    }

    private void afterSent(CompletableFuture<Void> sent, boolean last) {
        sent.whenComplete((ok, error) -> ctx.executor().execute(() -> {
            if (error != null) {
                fail(error);
                return;
            }
            if (ended) {
                return;
            }
            busy = false;
            if (last) {
                finish();
            } else {
                next();
            }
        }));
    }

    /**
     * The origin's refusal in the door's words (the same whichever of the two wrote), with the origin's own reason
     * after them: who was refused, what, on which mount.
     */
    private Refusal refusal(OriginUploader.Result result) {
        String who = ticket.needsUserCredential() ? ticket.subject() : "this pool";
        String words = switch (result.status()) {
            case 401, 403 -> "the origin refuses " + who + " PUT " + path;
            case 507 -> "origin " + originName + " has no space for " + path;
            default -> "origin " + originName + " answered PUT " + path + " with " + result.status();
        };
        int code = result.status() == 401 ? 403 : result.status(); // the origin's 401: this client cannot fix it
        return new Refusal(HttpResponseStatus.valueOf(code), words + " (origin " + originName + ", " + result.status() + "): "
                + result.reason());
    }

    private void finish() {
        busy = true;
        origin.finish().whenComplete((result, error) -> ctx.executor().execute(() -> {
            if (error != null) {
                fail(error);
                return;
            }
            if (!result.success()) {
                fail(refusal(result));
                return;
            }
            ended = true; // the origin holds the file: nothing is abandoned from here on
            progress.end();
            copy.commit(ticket.originUrl(), checksums, result.mtimeSeconds(), received)
                    .whenComplete((cached, commitError) -> ctx.executor().execute(() -> {
                        services.staleCopies().uploadEnded(copy.key());
                        LOG.info("PUT {} by {}: {} bytes, origin {}{}", path, ticket.who(), received, result.status(),
                                Boolean.TRUE.equals(cached) ? ", kept as a hit" : ", not kept");
                        answer(HttpResponseStatus.valueOf(result.status()), result.status() == 201 ? "created" : "stored");
                    }));
        }));
    }

    void clientGone() {
        if (!ended) {
            LOG.info("PUT {}: the client left after {} of {} bytes; the origin upload is aborted", path, received, length);
            abandon();
        }
    }

    private void fail(Throwable error) {
        if (ended) {
            return;
        }
        abandon();
        Refusal refusal = Failures.of(error);
        if (refusal == null) {
            LOG.error("PUT {} failed: {}", path, error.toString());
            refusal = new Refusal(HttpResponseStatus.BAD_GATEWAY, "the upload to the origin failed");
        }
        answer(refusal.status(), refusal.reason());
    }

    /** Nothing of this upload stays: the origin's upload aborted, the copy deleted, the space returned. */
    private void abandon() {
        ended = true;
        if (progress != null) {
            progress.end();
        }
        HttpContent c;
        while ((c = pending.poll()) != null) {
            c.release();
        }
        if (origin != null) {
            origin.abort();
        }
        copy.release();
        services.staleCopies().uploadEnded(copy.key());
    }

    private void answer(HttpResponseStatus status, String reason) {
        BodyRequests.answer(ctx, services.stats(), "PUT", path, status, reason);
    }
}
