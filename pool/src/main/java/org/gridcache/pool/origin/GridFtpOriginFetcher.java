package org.gridcache.pool.origin;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import com.github.benmanes.caffeine.cache.RemovalCause;
import com.github.benmanes.caffeine.cache.Scheduler;
import eu.emi.security.authn.x509.X509Credential;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.handler.codec.http.HttpResponseStatus;
import java.io.IOException;
import java.net.URI;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;
import org.gridcache.common.ClusterSettings;
import org.gridcache.common.CredentialMode;
import org.gridcache.common.OriginEntry;
import org.gridcache.common.Ticket;
import org.gridcache.gridftp.Checksum;
import org.gridcache.gridftp.GridFtp;
import org.gridcache.gridftp.GridFtpConnection;
import org.gridcache.gridftp.GridFtpException;
import org.gridcache.gridftp.GridFtpOptions;
import org.gridcache.gridftp.RemoteEntry;
import org.gridcache.pool.access.DelegatedCredentials;
import org.gridcache.pool.access.OriginAccess;
import org.gridcache.pool.fetch.DownloadSink;
import org.gridcache.pool.fetch.FetchException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Fetches {@code gsiftp://} origins with jGlobus (the shaded {@code gridcache-gridftp} client), presenting the
 * ticket's user's delegated proxy (obtained beforehand by {@link OriginAccess}) or, for service origins, the
 * pool's host certificate. Per fetch: one control connection; MLST for size and mtime; CKSM for the checksum
 * (cluster setting {@code gridftp.checksum}); then the bytes, in stream mode or in MODE E over
 * {@code gridftp.streams} parallel streams, into the {@link DownloadSink} in file order; the file becomes a hit only
 * when what was written, read back from the part file, has the origin's checksum. Blocking I/O, hence its own
 * threads; a full write-behind budget pauses the transfer (the fetcher thread waits, the TCP windows fill).
 */
public final class GridFtpOriginFetcher implements OriginFetcher {
    private static final Logger LOG = LoggerFactory.getLogger(GridFtpOriginFetcher.class);
    /**
     * Test hook, for the system test of checksum verification: when this system property is true, the first byte
     * of every part file is flipped just before its checksum is verified. Never set it in production.
     */
    static final String CORRUPT_BEFORE_VERIFY = "gridcache.test.corrupt-before-verify";
    private final DelegatedCredentials credentials;
    private final X509Credential host;
    private final Supplier<ClusterSettings> settings;
    private final Duration replyTimeout;
    private final AtomicInteger threads = new AtomicInteger();
    private final ExecutorService executor = Executors.newCachedThreadPool(r -> {
        Thread t = new Thread(r, "gridftp-fetcher-" + threads.incrementAndGet());
        t.setDaemon(true);
        return t;
    });

    /** How long a permission check's connection waits for the fetch that follows it before it is closed. */
    private static final Duration HAND_OFF = Duration.ofSeconds(10);
    private final Cache<String, GridFtpConnection> handOff = Caffeine.newBuilder().maximumSize(256)
            .expireAfterWrite(HAND_OFF).scheduler(Scheduler.systemScheduler())
            .removalListener((String key, GridFtpConnection conn, RemovalCause cause) -> {
                if (conn != null && cause != RemovalCause.EXPLICIT) {
                    conn.close(); // expired, replaced or evicted; a connection taken for a fetch is removed explicitly
                }
            }).build();

    /** {@code credentials} and {@code host} null: a pool without TLS, which cannot read GridFTP origins. */
    public GridFtpOriginFetcher(DelegatedCredentials credentials, X509Credential host, Path caDir, Supplier<ClusterSettings> settings,
                         Duration replyTimeout) {
        this.credentials = credentials;
        this.host = host;
        this.settings = settings;
        this.replyTimeout = replyTimeout;
        if (caDir != null) {
            GridFtp.configure(caDir);
        }
    }

    @Override
    public boolean supports(URI origin) {
        return OriginEntry.GSIFTP.equalsIgnoreCase(origin.getScheme());
    }

    @Override
    public void fetch(URI origin, DownloadSink sink) {
        sink.fail(FetchException.badGateway("a GridFTP origin is read with a credential, and this fetch has none"));
    }

    @Override
    public void fetch(URI origin, DownloadSink sink, Ticket ticket) {
        X509Credential credential;
        GridFtpOptions options;
        try {
            credential = credentialFor(ticket);
            options = options();
        } catch (FetchException e) {
            sink.fail(e);
            return;
        }
        try {
            executor.execute(() -> transfer(origin, ticket, sink, credential, options));
        } catch (RejectedExecutionException e) {
            sink.fail(new FetchException(HttpResponseStatus.SERVICE_UNAVAILABLE, "pool is shutting down"));
        }
    }

    /** Whether the ticket's subject may read the file: MLST as that subject (the permission check of OriginAccess). */
    @Override
    public Optional<RangedReads> rangedReads() {
        return Optional.of(this::fetchRange);
    }

    @Override
    public Optional<PermissionCheck> permissionCheck() {
        return Optional.of((origin, ticket, credential) -> checkAccess(origin, ticket, credential.credential()));
    }

    private CompletableFuture<Void> checkAccess(URI origin, Ticket ticket, X509Credential credential) {
        CompletableFuture<Void> result = new CompletableFuture<>();
        GridFtpOptions options;
        try {
            options = options();
        } catch (FetchException e) {
            return CompletableFuture.failedFuture(new DelegatedCredentials.CompletionFailure(e));
        }
        try {
            executor.execute(() -> {
                GridFtpConnection conn = null;
                try {
                    conn = open(origin, credential, options);
                    RemoteEntry entry = conn.stat(path(origin));
                    if (entry.directory()) {
                        throw new FetchException(HttpResponseStatus.NOT_FOUND, "a directory at the origin, not a file");
                    }
                    handOff.put(handOffKey(origin, credential, options), conn); // for the fetch that usually follows
                    conn = null;
                    result.complete(null);
                } catch (GridFtpException e) {
                    result.completeExceptionally(new DelegatedCredentials.CompletionFailure(reason(e, origin, ticket)));
                } catch (FetchException e) {
                    result.completeExceptionally(new DelegatedCredentials.CompletionFailure(e));
                } catch (RuntimeException e) {
                    LOG.error("GridFTP permission check of {} failed", ticket.path(), e);
                    result.completeExceptionally(new DelegatedCredentials.CompletionFailure(
                            FetchException.badGateway("GridFTP client failed: " + e)));
                } finally {
                    if (conn != null) {
                        conn.close();
                    }
                }
            });
        } catch (RejectedExecutionException e) {
            result.completeExceptionally(new DelegatedCredentials.CompletionFailure(
                    new FetchException(HttpResponseStatus.SERVICE_UNAVAILABLE, "pool is shutting down")));
        }
        return result;
    }

    /**
     * Retrieves {@code length} bytes from {@code offset} (ERET) for one client, not cached; the returned handle cuts
     * the transfer (the client went away).
     */
    private AutoCloseable fetchRange(URI origin, Ticket ticket, long offset, long length, RangedReads.Receiver receiver) {
        X509Credential credential;
        GridFtpOptions options;
        try {
            credential = credentialFor(ticket);
            options = options();
        } catch (FetchException e) {
            receiver.done(e);
            return () -> { };
        }
        ConnectionHolder holder = new ConnectionHolder();
        try {
            executor.execute(() -> {
                try (GridFtpConnection conn = open(origin, credential, options)) {
                    if (!holder.set(conn)) {
                        receiver.done(new FetchException(HttpResponseStatus.SERVICE_UNAVAILABLE, "client went away"));
                        return;
                    }
                    receiver.opened();
                    conn.retrieve(path(origin), offset, length, false, (data, n) -> receiver.receive(Unpooled.wrappedBuffer(data, 0, n)));
                    receiver.done(null);
                } catch (GridFtpException e) {
                    receiver.done(reason(e, origin, ticket));
                } catch (RuntimeException e) {
                    LOG.error("GridFTP partial retrieve of {} failed", ticket.path(), e);
                    receiver.done(FetchException.badGateway("GridFTP client failed: " + e));
                }
            });
        } catch (RejectedExecutionException e) {
            receiver.done(new FetchException(HttpResponseStatus.SERVICE_UNAVAILABLE, "pool is shutting down"));
        }
        return holder::close;
    }

    private void transfer(URI origin, Ticket ticket, DownloadSink sink, X509Credential credential, GridFtpOptions options) {
        String path = path(origin);
        FetchException[] refused = new FetchException[1];
        try (GridFtpConnection conn = reuseOrOpen(origin, credential, options)) {
            if (options.dataChannelAuthentication() && !conn.dataChannelAuthentication()) {
                LOG.info("GridFTP fetch of {} for {}: clear data channels without DCAU (the proxy's path length constraint "
                        + "leaves no room for the server's data channel proxy)", ticket.path(), ticket.subject());
            }
            RemoteEntry entry = conn.stat(path);
            if (entry.directory()) {
                throw new FetchException(HttpResponseStatus.NOT_FOUND, "a directory at the origin, not a file");
            }
            if (entry.size() < 0) {
                throw FetchException.badGateway("origin " + OriginFetcher.describe(origin) + " gave no size for the file");
            }
            boolean checksummed = !settings.get().gridftpChecksum().equals("none");
            if (checksummed) {
                sink.willVerify(); // the clients' last byte waits for the verification
            }
            sink.begin(entry.size(), entry.mtimeMillis() < 0 ? -1 : entry.mtimeMillis() / 1000, null);
            long started = System.nanoTime();
            conn.retrieve(path, 0, entry.size(), true, (data, n) -> {
                try {
                    write(sink, data, n);
                } catch (FetchException e) {
                    refused[0] = e;
                    throw new IOException(e.getMessage());
                }
            });
            LOG.debug("GridFTP {} bytes of {} from {} with {} stream(s) in {} ms", entry.size(), ticket.path(), OriginFetcher.describe(origin),
                    options.streams(), (System.nanoTime() - started) / 1_000_000);
            // asked after the data, not before: the server's checksum of the whole file does not delay the first byte
            Expected expected = checksummed ? expectedChecksum(conn, path) : null;
            if (expected == null) {
                sink.complete();
            } else {
                sink.complete((file, size) -> verify(file, size, expected, origin));
            }
        } catch (GridFtpException e) {
            sink.fail(refused[0] != null ? refused[0] : reason(e, origin, ticket));
        } catch (FetchException e) {
            sink.fail(e);
        } catch (RuntimeException e) {
            LOG.error("GridFTP fetch of {} failed", ticket.path(), e);
            sink.fail(FetchException.badGateway("GridFTP client failed: " + e));
        }
    }

    /** Hands one chunk to the sink; waits while the pool's write-behind memory is exhausted. */
    private void write(DownloadSink sink, byte[] data, int length) throws FetchException, IOException {
        ByteBuf buf = Unpooled.wrappedBuffer(data, 0, length);
        try {
            CountDownLatch resumed = new CountDownLatch(1);
            if (!sink.write(buf, resumed::countDown)) {
                if (!resumed.await(replyTimeout.toMillis(), TimeUnit.MILLISECONDS)) {
                    throw new FetchException(HttpResponseStatus.INTERNAL_SERVER_ERROR,
                            "the pool's disk took no bytes for " + replyTimeout.toSeconds() + " s");
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new FetchException(HttpResponseStatus.SERVICE_UNAVAILABLE, "pool is shutting down");
        } finally {
            buf.release();
        }
    }

    record Expected(Checksum algorithm, String value) {
    }

    /** The origin's checksum in the configured algorithm, else the other one; null when it offers neither or none is wanted. */
    private Expected expectedChecksum(GridFtpConnection conn, String path) throws GridFtpException {
        String wanted = settings.get().gridftpChecksum();
        if (wanted.equals("none")) {
            return null;
        }
        List<Checksum> order = wanted.equals("md5") ? List.of(Checksum.MD5, Checksum.ADLER32) : List.of(Checksum.ADLER32, Checksum.MD5);
        for (Checksum c : order) {
            String v = conn.checksum(c, path);
            if (v != null) {
                return new Expected(c, v);
            }
        }
        LOG.info("GridFTP origin offers no checksum for {}: verified by size only", path);
        return null;
    }

    /** Reads the part file back and compares its checksum with the origin's: a mismatch discards the file. */
    static void verify(FileChannel file, long size, Expected expected, URI origin) throws IOException, FetchException {
        if (Boolean.getBoolean(CORRUPT_BEFORE_VERIFY) && size > 0) {
            ByteBuffer one = ByteBuffer.allocate(1);
            file.read(one, 0);
            one.flip();
            byte b = one.get(0);
            file.write(ByteBuffer.wrap(new byte[] {(byte) ~b}), 0);
            LOG.warn("test hook {}: flipped the first byte of the part file before verifying it", CORRUPT_BEFORE_VERIFY);
        }
        Checksum.Digest digest = expected.algorithm().newDigest();
        ByteBuffer buf = ByteBuffer.allocateDirect(1 << 20);
        long position = 0;
        while (position < size) {
            buf.clear();
            int n = file.read(buf, position);
            if (n < 0) {
                break;
            }
            buf.flip();
            digest.update(buf);
            position += n;
        }
        String actual = digest.hex();
        if (!actual.equals(expected.value())) {
            throw FetchException.badGateway("checksum mismatch: origin " + OriginFetcher.describe(origin) + " has "
                    + expected.algorithm() + " " + expected.value() + ", the pool received " + actual + " (file discarded)");
        }
    }

    private X509Credential credentialFor(Ticket ticket) throws FetchException {
        if (credentials == null && ticket.credential() == CredentialMode.USER) {
            throw FetchException.badGateway("this pool has no TLS credentials: it cannot read GridFTP origins");
        }
        try {
            return ticket.credential().choose(null, host, () -> {
                DelegatedCredentials.OriginCredential c = credentials.cached(ticket);
                return c == null ? null : c.credential();
            }, "pool", ticket.subject());
        } catch (CredentialMode.MissingCredential e) {
            throw new FetchException(HttpResponseStatus.valueOf(e.status()), e.getMessage());
        }
    }

    private GridFtpOptions options() throws FetchException {
        ClusterSettings s = settings.get();
        try {
            return new GridFtpOptions(s.gridftpStreams(), s.gridftpDcau(), GridFtpOptions.Protection.parse(s.gridftpProtection()),
                    s.gridftpTimeout());
        } catch (IllegalArgumentException e) {
            throw FetchException.badGateway("unusable GridFTP settings: " + e.getMessage());
        }
    }

    /**
     * The connection the permission check just left for this origin, credential and options, if it still answers; else
     * a new one. Saves the fetch of a miss a second GSI handshake (several round trips and an RSA signature).
     */
    private GridFtpConnection reuseOrOpen(URI origin, X509Credential credential, GridFtpOptions options) throws GridFtpException {
        GridFtpConnection kept = handOff.asMap().remove(handOffKey(origin, credential, options));
        if (kept != null) {
            if (kept.alive()) {
                return kept;
            }
            kept.close();
        }
        return open(origin, credential, options);
    }

    /** Same server, same certificate (serial and issuer), same transfer options. */
    private static String handOffKey(URI origin, X509Credential credential, GridFtpOptions options) {
        X509Certificate leaf = credential.getCertificate();
        return origin.getHost() + ":" + origin.getPort() + "\n" + leaf.getSerialNumber() + "\n" + leaf.getIssuerX500Principal().getName()
                + "\n" + options;
    }

    private static GridFtpConnection open(URI origin, X509Credential credential, GridFtpOptions options) throws GridFtpException {
        int port = origin.getPort() > 0 ? origin.getPort() : OriginEntry.GSIFTP_DEFAULT_PORT;
        return GridFtpConnection.open(origin.getHost(), port, credential.getKey(), credential.getCertificateChain(), options);
    }

    private static String path(URI origin) {
        String p = origin.getPath();
        return p == null || p.isEmpty() ? "/" : p;
    }

    /** The GridFTP failure as the pool answers it: like an HTTP origin's. */
    static FetchException reason(GridFtpException e, URI origin, Ticket ticket) {
        return new FetchException(HttpResponseStatus.valueOf(e.httpStatus()),
                e.reason(OriginFetcher.describe(origin), ticket.subject(), ticket.path()));
    }

    /** The connection of a partial retrieve, closable from the client's event loop before or after it exists. */
    private static final class ConnectionHolder {
        private GridFtpConnection connection;
        private boolean closed;

        synchronized boolean set(GridFtpConnection c) {
            if (closed) {
                return false;
            }
            connection = c;
            return true;
        }

        void close() {
            GridFtpConnection c;
            synchronized (this) {
                closed = true;
                c = connection;
            }
            if (c != null) {
                c.close();
            }
        }
    }

    @Override
    public void close() {
        handOff.asMap().values().forEach(GridFtpConnection::close);
        handOff.invalidateAll();
        executor.shutdownNow();
    }

}
