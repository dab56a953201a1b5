package org.gridcache.pool.serve;

import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelPipeline;
import io.netty.channel.socket.SocketChannel;
import io.netty.handler.codec.http.HttpObjectAggregator;
import io.netty.handler.codec.http.HttpServerCodec;
import io.netty.handler.ssl.SslContext;
import io.netty.handler.stream.ChunkedWriteHandler;
import io.netty.handler.timeout.IdleStateHandler;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.gridcache.common.checksum.ChecksumType;
import org.gridcache.pool.fetch.StaleCopies;
import org.gridcache.pool.origin.OriginUploader;
import org.gridcache.common.ticket.TicketCodec;
import org.gridcache.pool.origin.OriginAccess;
import org.gridcache.pool.fetch.BlockFetches;
import org.gridcache.pool.fetch.Downloads;
import org.gridcache.pool.http.Exchange;
import org.gridcache.pool.mover.Movers;
import org.gridcache.pool.ops.PoolOperations;
import org.gridcache.pool.mover.PoolStats;
import org.gridcache.pool.origin.Origins;
import org.gridcache.pool.peer.Peers;
import org.gridcache.pool.store.Store;
import org.gridcache.pool.tpc.CopyService;
import org.gridcache.zk.MountTable;

/**
 * The pool's request path, one concern per handler, in the order a request meets them (ARCHITECTURE.md, "Flows").
 * Each refusal answers its status and one-line reason and ends the request there; what a handler establishes
 * travels on in the {@link Exchange}.
 */
public final class PoolChannelInitializer extends ChannelInitializer<SocketChannel> {
    /** Requests carry no body worth having; this bounds what a client can make the pool buffer. */
    private static final int MAX_REQUEST_BODY = 64 * 1024;
    /** The request line carries the ticket, which repeats the path and the subject's attributes: allow long ones. */
    private static final int MAX_REQUEST_LINE = 32 * 1024;
    private static final int MAX_HEADERS = 16 * 1024;
    /**
     * The largest piece of a PUT's body handed on at once: what one socket read brings (Netty reads at most 64 KiB),
     * so an upload costs one origin write, one copy write and one checksum update per read, not eight (8 KiB pieces
     * held an upload to a third of the door's proxied rate); an upload still holds one piece.
     */
    private static final int MAX_BODY_CHUNK = 64 * 1024;
    /** A keep-alive connection with no request for this long is closed (never one with a transfer running). */
    static final int IDLE_SECONDS = 300;

    /**
     * What the handlers need of the pool. {@code mounts}: where a ticket's path is read from. {@code access} null: no
     * TLS; {@code peers} null: a pool on its own. {@code headerTimeout} and {@code sendTimeout}: the slow-client bounds
     * ({@code pool.header-timeout}, {@code pool.send-timeout}), read for each new connection.
     */
    public record Parts(String poolName, TicketCodec tickets, MountTable mounts, Downloads downloads, Store store, Movers movers,
                        PoolOperations operations, PoolStats stats, OriginAccess access, Peers peers, Origins origins,
                        BlockFetches blocks, Supplier<Duration> headerTimeout, Supplier<Duration> sendTimeout) {
    }

    /**
     * What the PUT path needs (null: this pool takes no uploads, a PUT is 405): the origin protocols it can write,
     * the write notices' bookkeeping, the checksums kept in a copy's sidecar ({@code pool.checksums}).
     */
    public record Uploads(List<OriginUploader> uploaders, StaleCopies staleCopies, Supplier<Set<ChecksumType>> checksums) {
    }

    private final Parts parts;
    private final Uploads uploads;
    private final CopyService copies;
    private final SslContext tls;
    private final RequestCheck requestCheck = new RequestCheck();
    private final PoolServices services;
    private final Admission admission;
    private final AdmissionCheck admissionCheck;
    private final PeerQuestions peerQuestions;
    private final UserCredentialCheck userCredentialCheck;

    /** {@code tls} null: plain HTTP. */
    public PoolChannelInitializer(Parts parts, SslContext tls) {
        this(parts, null, tls);
    }

    public PoolChannelInitializer(Parts parts, Uploads uploads, SslContext tls) {
        this(parts, uploads, null, tls);
    }

    /** {@code copies}: the pool's third-party copies (null: COPY is 405). */
    public PoolChannelInitializer(Parts parts, Uploads uploads, CopyService copies, SslContext tls) {
        this.copies = copies;
        this.uploads = uploads;
        this.parts = parts;
        this.tls = tls;
        this.services = new PoolServices(parts.operations());
        this.admission = new Admission(parts.poolName(), parts.tickets(), parts.mounts(), parts.operations());
        this.admissionCheck = new AdmissionCheck(admission);
        this.peerQuestions = new PeerQuestions(parts.downloads(), parts.peers());
        this.userCredentialCheck = new UserCredentialCheck(parts.access(), parts.downloads());
    }

    @Override
    protected void initChannel(SocketChannel ch) {
        ChannelPipeline p = ch.pipeline();
        // observing output: a response that moves (a large file to a slow but reading client) is not idle
        long sendMillis = parts.sendTimeout().get().toMillis();
        p.addLast("idle", new IdleStateHandler(true, 0, sendMillis, IDLE_SECONDS * 1000L, TimeUnit.MILLISECONDS));
        p.addLast("stalled", new StalledSends(parts.sendTimeout().get()));
        HeaderDeadline deadline = new HeaderDeadline(parts.headerTimeout().get());
        if (tls != null) {
            p.addLast("tls", tls.newHandler(ch.alloc()));
            p.addLast("chunks", new ChunkedWriteHandler());
            p.addLast("regions", new FileRegionChunks()); // movers write FileRegions; TLS needs bytes
        }
        p.addLast("head-bytes", deadline.bytes());    // a request's first byte starts its head's deadline
        p.addLast("http", new HttpServerCodec(MAX_REQUEST_LINE, MAX_HEADERS, MAX_BODY_CHUNK));
        p.addLast("head-complete", deadline.heads()); // its head, parsed, ends it
        p.addLast("framing", new FramingCheck()); // before anything acts on a request: Transfer-Encoding, smuggling
        if (uploads != null || copies != null) {
            // before the aggregator: a PUT's body streams to the origin, never gathered; a COPY outlives its request
            Upload.Services forUploads = uploads == null ? null : new Upload.Services(parts.store(), parts.access(),
                    uploads.uploaders(), uploads.staleCopies(), parts.stats(), uploads.checksums().get(),
                    parts.downloads().diskWriters(), parts.movers().transfers());
            p.addLast("body-requests", new BodyRequests(admission, forUploads, copies, parts.stats())); // admitted on the head
        }
        p.addLast("aggregator", new HttpObjectAggregator(MAX_REQUEST_BODY));
        p.addLast("pipelining", new PipeliningGate(parts.stats()));    // one request at a time; the rest wait
        p.addLast("request-check", requestCheck);                       // malformed 400, method 405, path 400
        p.addLast("services", services);                                // /.gridcache/health, /metrics: no ticket
        p.addLast("admission", admissionCheck);                         // path, ticket 403, mount 404, state 503
        p.addLast("peer-questions", peerQuestions);                     // "do you hold it?", random policy's 302
        p.addLast("user-credential", userCredentialCheck);              // as the user: credential, permission
        p.addLast("transfer", new TransferHandler(parts.downloads(), parts.store(), parts.movers(), parts.origins(),
                parts.blocks()));                                                         // a mover sends the file
    }
}
