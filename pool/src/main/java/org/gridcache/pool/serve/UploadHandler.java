package org.gridcache.pool.serve;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.socket.ChannelInputShutdownEvent;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpContent;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaderValues;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.handler.codec.http.LastHttpContent;
import io.netty.handler.codec.http.QueryStringDecoder;
import io.netty.util.ReferenceCountUtil;
import java.io.IOException;
import java.net.URI;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.Executor;
import org.gridcache.common.GridPath;
import org.gridcache.common.OriginEntry;
import org.gridcache.common.Ticket;
import org.gridcache.common.TicketCodec;
import org.gridcache.common.TicketException;
import org.gridcache.common.UrlCodec;
import org.gridcache.common.checksum.ChecksumComputation;
import org.gridcache.common.checksum.ChecksumType;
import org.gridcache.common.checksum.Checksums;
import org.gridcache.common.checksum.DigestRequest;
import org.gridcache.common.checksum.UploadDigest;
import org.gridcache.pool.access.DelegatedCredentials;
import org.gridcache.pool.access.OriginAccess;
import org.gridcache.pool.fetch.FetchException;
import org.gridcache.pool.fetch.StaleCopies;
import org.gridcache.pool.ops.PoolOperations;
import org.gridcache.pool.ops.PoolStats;
import org.gridcache.pool.origin.OriginUploader;
import org.gridcache.pool.store.Sidecar;
import org.gridcache.pool.store.Store;
import org.gridcache.pool.store.StoreEntry;
import org.gridcache.pool.store.StoreKey;
import org.gridcache.zk.MountTable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A PUT through this pool (write-through, ARCHITECTURE.md "A write through a pool"): placed before the aggregator,
 * so the body is never gathered in memory. The request is admitted as a read is (a ticket its door signed, for this
 * path and pool, operation {@code write}; a pool's signature never admits a write; the announced length equal to the
 * ticket's; the origin from the mount table), then the origin upload is opened and only then is the client told
 * {@code 100 Continue}. Each chunk of the body goes to the origin and to a copy in the store, and the next is read
 * only when the origin took it (auto-read off: TCP pushes back on the client), so an upload of any size holds one
 * chunk. The last chunk is held back until the body's checksums are known: a mismatch with the client's
 * {@code Digest} / {@code Content-MD5} aborts the origin upload before its end (nothing committed there) and
 * answers 400. The checksums and the copy's disk writes run on the pool's disk writers, never on the event loop
 * (all four checksums together run at a few hundred MB/s: on the loop they would stall every other connection it
 * serves); a chunk goes to the origin while it is checksummed, and the next is read when the origin took it, up to
 * 16 chunks ahead of the checksums. The copy
 * becomes a hit only when the origin answered 2xx and the sizes agree, with the checksums in its sidecar. A client that breaks off aborts the origin upload and leaves nothing in the store. Every PUT answer
 * closes the connection (a request pipelined behind a body is not worth the bookkeeping); a refusal lingers
 * ({@link LingeringClose}), so a client still sending its body reads it instead of a reset.
 */
final class UploadHandler extends ChannelInboundHandlerAdapter {
    private static final Logger LOG = LoggerFactory.getLogger(UploadHandler.class);
    /** Body chunks (of up to 64 KiB) an upload may read ahead of its checksums. */
    private static final int DIGESTS_AHEAD = 16;
    private final String poolName;
    private final TicketCodec tickets;
    private final MountTable mounts;
    private final PoolOperations operations;
    private final Store store;
    private final OriginAccess access;
    private final List<OriginUploader> uploaders;
    private final StaleCopies staleCopies;
    private final PoolStats stats;
    private final Set<ChecksumType> kept;
    private final Executor diskWriters;
    private Upload upload;

    UploadHandler(String poolName, TicketCodec tickets, MountTable mounts, PoolOperations operations, Store store,
                  OriginAccess access, List<OriginUploader> uploaders, StaleCopies staleCopies, PoolStats stats,
                  Set<ChecksumType> kept, Executor diskWriters) {
        this.poolName = poolName;
        this.tickets = tickets;
        this.mounts = mounts;
        this.operations = operations;
        this.store = store;
        this.access = access;
        this.uploaders = uploaders;
        this.staleCopies = staleCopies;
        this.stats = stats;
        this.kept = kept;
        this.diskWriters = diskWriters;
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        if (upload == null && msg instanceof HttpRequest request && request.method().equals(HttpMethod.PUT)) {
            upload = new Upload(ctx, request);
            ReferenceCountUtil.release(msg);
            upload.begin();
            return;
        }
        if (upload != null) {
            if (msg instanceof HttpContent content) {
                upload.content(content);
            } else {
                ReferenceCountUtil.release(msg); // a request pipelined behind a PUT: the connection closes after it
            }
            return;
        }
        ctx.fireChannelRead(msg);
    }

    @Override
    public void userEventTriggered(ChannelHandlerContext ctx, Object evt) throws Exception {
        if (evt instanceof ChannelInputShutdownEvent && upload != null) {
            if (!upload.bodyRead) {
                ctx.close(); // the client's FIN before its body's end: it broke off (channelInactive abandons)
            }
            return; // else the body is all here: the upload's answer closes the connection
        }
        super.userEventTriggered(ctx, evt);
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) throws Exception {
        if (upload != null) {
            upload.clientGone();
        }
        super.channelInactive(ctx);
    }

    /**
     * One PUT, on the channel's event loop, but for the checksums and the copy's writes: those run on a disk writer,
     * one chunk at a time ({@link #digesting}), and only they touch {@link #computation} and {@link #copy} while a
     * chunk is being digested.
     */
    private final class Upload {
        private final ChannelHandlerContext ctx;
        private final HttpRequest request;
        private final String rawPath;
        private final ArrayDeque<HttpContent> pending = new ArrayDeque<>();
        private String path;
        private Ticket ticket;
        private StoreKey key;
        private long length;
        private long received;
        private long reserved;
        private FileChannel copy;
        private UploadDigest digest;
        private ChecksumComputation computation;
        /** The body's checksums, once its last byte was read (a computation can be finished only once). */
        private Checksums checksums;
        private OriginUploader.Upload origin;
        /** The mount's name, for the client's reasons (never its URL: that stays inside the cluster). */
        private String originName;
        /** A chunk is on its way to the origin (or the origin is being opened): read nothing more. */
        private boolean busy = true;
        private boolean ended;
        /** The body's last chunk has come from the client (whole: the codec marks one cut short as failed). */
        private boolean bodyRead;
        /** The last chunk's checksum update and copy write, on a disk writer; the next starts after it. */
        private CompletableFuture<Void> digesting = CompletableFuture.completedFuture(null);
        /**
         * The chunks handed to the disk writer and not yet digested, oldest first: reading goes on while they are
         * (a hop to the disk writer and back per chunk costs a scheduling delay each on a busy machine), up to
         * {@link #DIGESTS_AHEAD} chunks, so an upload holds at most that many (1 MiB) beyond the one being sent.
         */
        private final ArrayDeque<CompletableFuture<Void>> undigested = new ArrayDeque<>();

        Upload(ChannelHandlerContext ctx, HttpRequest request) {
            this.ctx = ctx;
            this.request = request;
            String uri = request.uri();
            int q = uri.indexOf('?');
            this.rawPath = q < 0 ? uri : uri.substring(0, q); // never log the query: it holds the ticket
        }

        void begin() {
            ctx.channel().config().setAutoRead(false);
            try {
                admit();
            } catch (FetchException e) {
                refuse(e.status(), e.getMessage());
                return;
            }
            staleCopies.uploadStarted(key);
            CompletableFuture<?> credential = ticket.needsUserCredential()
                    ? (access == null ? CompletableFuture.failedFuture(new DelegatedCredentials.CompletionFailure(
                            FetchException.badGateway("this pool cannot write origins with the user's credential (no TLS)")))
                            : access.credential(ticket, tokenOf(request.uri())))
                    : CompletableFuture.completedFuture(null);
            URI url = URI.create(ticket.originUrl());
            OriginUploader uploader = uploaders.stream().filter(u -> u.supports(url)).findFirst().orElse(null);
            if (uploader == null) {
                fail(new FetchException(HttpResponseStatus.NOT_IMPLEMENTED, "uploads to " + url.getScheme()
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

        /** The checks a read's ticket passes, for a write; throws with the status and reason to answer. */
        private void admit() throws FetchException {
            if (!request.decoderResult().isSuccess()) {
                throw new FetchException(HttpResponseStatus.BAD_REQUEST, "malformed request");
            }
            String sent; // the path as named: a ticket opens exactly that
            try {
                sent = UrlCodec.decode(new QueryStringDecoder(request.uri()).rawPath());
                path = GridPath.normalize(sent);
            } catch (IllegalArgumentException e) {
                throw new FetchException(HttpResponseStatus.BAD_REQUEST, "bad path: " + e.getMessage());
            }
            if (!HttpUtil.isContentLengthSet(request) || HttpUtil.isTransferEncodingChunked(request)) {
                throw new FetchException(HttpResponseStatus.LENGTH_REQUIRED, "a PUT to a pool needs a Content-Length");
            }
            length = HttpUtil.getContentLength(request, -1L);
            try {
                ticket = tickets.verify(tokenOf(request.uri()), sent, poolName, Ticket.WRITE); // exactly its path
            } catch (TicketException e) {
                throw new FetchException(HttpResponseStatus.FORBIDDEN, e.getMessage());
            }
            if (ticket.issuedByPool()) {
                LOG.warn("{} signed a write ticket for {}", ticket.door(), path);
                throw new FetchException(HttpResponseStatus.FORBIDDEN, "only a door grants a write: a pool's ticket cannot");
            }
            if (ticket.size() != length) {
                throw new FetchException(HttpResponseStatus.BAD_REQUEST, "the ticket was issued for " + ticket.size()
                        + " bytes, the request announces " + length + ": ask the door again");
            }
            Optional<OriginEntry> entry = mounts.resolve(path);
            if (entry.isEmpty()) {
                throw new FetchException(HttpResponseStatus.NOT_FOUND, "no origin serves this path now");
            }
            if (entry.get().credentialMode() != ticket.credential()) {
                throw new FetchException(HttpResponseStatus.FORBIDDEN, "the mount table changed since the ticket was issued: ask the door again");
            }
            ticket = ticket.withOrigin(entry.get().urlOf(path));
            originName = entry.get().name();
            if (!operations.state().equals(org.gridcache.common.PoolRecord.ENABLED)) {
                throw new FetchException(HttpResponseStatus.SERVICE_UNAVAILABLE, "pool " + poolName + " is "
                        + operations.state() + " and takes no uploads: ask the door again");
            }
            try {
                digest = UploadDigest.of(request.headers().get(DigestRequest.DIGEST), request.headers().get(UploadDigest.CONTENT_MD5));
            } catch (IllegalArgumentException e) {
                throw new FetchException(HttpResponseStatus.BAD_REQUEST, e.getMessage());
            }
            computation = digest.computation(kept);
            key = StoreKey.ofOrigin(ticket.originUrl());
            try {
                store.reserve(length);
                reserved = length;
                copy = store.disk().createUpload(key);
            } catch (IOException e) {
                // the upload goes on without a copy: a full store is no reason to refuse a write to the origin
                LOG.info("store: no copy of the upload of {} is kept: {}", path, e.getMessage());
                release();
            }
        }

        void content(HttpContent content) {
            bodyRead |= content instanceof LastHttpContent && content.decoderResult().isSuccess();
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
                fail(new FetchException(HttpResponseStatus.BAD_REQUEST, "the body is longer than its Content-Length"));
                return;
            }
            boolean last = content instanceof LastHttpContent;
            if (last && (received != length || content.decoderResult().isFailure())) {
                content.release(); // the connection ended before the body did: never a short file at the origin
                fail(new FetchException(HttpResponseStatus.BAD_REQUEST, "the body ended after " + received + " of its "
                        + length + " bytes"));
                return;
            }
            busy = true;
            digesting = digest(data.retainedDuplicate());
            if (last) {
                // the last bytes reach the origin only once the body's checksums agree with the client's
                CompletableFuture<Void> digested = digesting;
                digested.whenComplete((ok, error) -> ctx.executor().execute(() -> {
                    if (ended) {
                        content.release();
                        return;
                    }
                    if (error != null) {
                        content.release();
                        fail(error);
                        return;
                    }
                    checksums = computation.finish();
                    String mismatch = digest.mismatch(checksums);
                    if (mismatch != null) {
                        content.release();
                        // the last bytes never reach the origin: its upload is incomplete, and nothing is committed
                        fail(new FetchException(HttpResponseStatus.BAD_REQUEST, mismatch));
                        return;
                    }
                    afterSent(send(content), true);
                }));
                return;
            }
            undigested.add(digesting);
            while (!undigested.isEmpty() && undigested.peekFirst().isDone()) {
                undigested.pollFirst();
            }
            CompletableFuture<Void> sent = send(content);
            // a failed digest shows in the next chunk's wait or, at the latest, the last chunk's
            afterSent(undigested.size() > DIGESTS_AHEAD ? CompletableFuture.allOf(sent, undigested.pollFirst()) : sent, false);
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
         * The checksum update and the copy's write of one chunk, on a disk writer after the previous chunk's; takes
         * over {@code data} (a reference of its own) and releases it.
         */
        private CompletableFuture<Void> digest(ByteBuf data) {
            ChecksumComputation sums = computation;
            return digesting.thenRunAsync(() -> {
                try {
                    for (ByteBuffer nio : data.nioBuffers()) {
                        sums.update(nio.duplicate());
                        keep(nio);
                    }
                } finally {
                    data.release();
                }
            }, diskWriters);
        }

        /** The copy in the store; a failing store disk loses the copy, never the upload. */
        private void keep(ByteBuffer nio) {
            if (copy == null) {
                return;
            }
            try {
                while (nio.hasRemaining()) {
                    copy.write(nio);
                }
            } catch (IOException e) {
                LOG.warn("store: the copy of an upload of {} is lost: {}", path, e.toString());
                closeCopy();
                store.disk().deleteUpload(key);
            }
        }

        /**
         * The origin's refusal in the door's words (the same whichever of the two wrote), with the origin's own
         * reason after them: who was refused, what, on which mount.
         */
        private FetchException refusal(OriginUploader.Result result) {
            String who = ticket.needsUserCredential() ? ticket.subject() : "this pool";
            String words = switch (result.status()) {
                case 401, 403 -> "the origin refuses " + who + " PUT " + path;
                case 507 -> "origin " + originName + " has no space for " + path;
                default -> "origin " + originName + " answered PUT " + path + " with " + result.status();
            };
            int code = result.status() == 401 ? 403 : result.status(); // the origin's 401: this client cannot fix it
            return new FetchException(HttpResponseStatus.valueOf(code), words + " (origin " + originName + ", "
                    + result.status() + "): " + result.reason());
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
                // the copy's fsync on a disk writer: it takes as long as the disk needs, and the loop serves others
                CompletableFuture.supplyAsync(() -> commitCopy(checksums, result.mtimeSeconds()), diskWriters)
                        .whenComplete((cached, commitError) -> ctx.executor().execute(() -> {
                            staleCopies.uploadEnded(key);
                            LOG.info("PUT {} by {}: {} bytes, origin {}{}", path, ticket.who(),
                                    received, result.status(),
                                    Boolean.TRUE.equals(cached) ? ", kept as a hit" : ", not kept");
                            answer(HttpResponseStatus.valueOf(result.status()), result.status() == 201 ? "created" : "stored");
                        }));
            }));
        }

        /** The copy becomes a hit: the origin confirmed every byte of the announced length. */
        private boolean commitCopy(Checksums checksums, long mtime) {
            if (copy == null || received != length) {
                release();
                return false;
            }
            try {
                copy.force(true);
                closeCopy();
                store.writeSidecar(key, new Sidecar(ticket.originUrl(), length, mtime, null, System.currentTimeMillis(),
                        checksums.toHex()));
                store.commitUpload(key, new StoreEntry(length, mtime, null), reserved);
                reserved = 0;
                return true;
            } catch (IOException e) {
                LOG.warn("store: the copy of an upload of {} could not be kept: {}", path, e.toString());
                release();
                return false;
            }
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
            Throwable cause = error instanceof CompletionException && error.getCause() != null ? error.getCause() : error;
            if (cause instanceof DelegatedCredentials.CompletionFailure failure) {
                cause = failure.reason();
            }
            abandon();
            if (cause instanceof FetchException e) {
                answer(e.status(), e.getMessage());
            } else {
                LOG.error("PUT {} failed: {}", path, cause.toString());
                answer(HttpResponseStatus.BAD_GATEWAY, "the upload to the origin failed");
            }
        }

        /** Nothing of this upload stays: the origin's upload aborted, the copy deleted, the space returned. */
        private void abandon() {
            ended = true;
            HttpContent c;
            while ((c = pending.poll()) != null) {
                c.release();
            }
            if (origin != null) {
                origin.abort();
            }
            release();
            if (key != null) {
                staleCopies.uploadEnded(key);
            }
        }

        private void release() {
            if (!digesting.isDone()) {
                // a disk writer still writes the copy: drop it once that chunk is done
                digesting.whenComplete((ok, error) -> ctx.executor().execute(this::release));
                return;
            }
            closeCopy();
            if (key != null) {
                store.disk().deleteUpload(key);
            }
            if (reserved > 0) {
                store.release(reserved);
                reserved = 0;
            }
        }

        private void closeCopy() {
            if (copy != null) {
                try {
                    copy.close();
                } catch (IOException e) {
                    // nothing more to keep
                }
                copy = null;
            }
        }

        private void refuse(HttpResponseStatus status, String reason) {
            ended = true;
            answer(status, reason);
        }

        private void answer(HttpResponseStatus status, String reason) {
            if (status.code() >= 400) {
                LOG.info("PUT {} refused {} for {}: {}", path != null ? path : rawPath, status.code(),
                        ctx.channel().remoteAddress(), reason);
            }
            stats.response(status.code());
            byte[] body = (reason + "\n").getBytes(StandardCharsets.UTF_8);
            FullHttpResponse response = new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, status, Unpooled.wrappedBuffer(body));
            response.headers().set(HttpHeaderNames.CONTENT_TYPE, "text/plain; charset=utf-8")
                    .set(HttpHeaderNames.CONTENT_LENGTH, body.length)
                    .set(HttpHeaderNames.CONNECTION, HttpHeaderValues.CLOSE);
            Responses.withRetryAfter(response);
            if (ctx.channel().isActive()) {
                // a refusal may come while the client still sends its body: it must not be lost to a reset
                ctx.writeAndFlush(response).addListener(status.code() >= 400 ? LingeringClose.AFTER_ANSWER : ChannelFutureListener.CLOSE);
            } else {
                response.release();
            }
        }
    }

    /** The ticket in the query; null when there is none, or the query is malformed (no ticket can be read from it). */
    private static String tokenOf(String uri) {
        try {
            List<String> values = new QueryStringDecoder(uri).parameters().get(Ticket.QUERY_PARAMETER);
            return values == null || values.isEmpty() ? null : values.get(0);
        } catch (IllegalArgumentException e) {
            return null;
        }
    }
}
