package org.gridcache.pool.origin.gridftp;

import eu.emi.security.authn.x509.X509Credential;
import io.netty.buffer.ByteBuf;
import io.netty.handler.codec.http.HttpResponseStatus;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.gridcache.common.checksum.Checksums;
import org.gridcache.common.origin.OriginEntry;
import org.gridcache.common.settings.ClusterSettings.Keys;
import org.gridcache.common.settings.ClusterSettings;
import org.gridcache.common.settings.GridFtpChecksum;
import org.gridcache.common.ticket.Ticket;
import org.gridcache.gridftp.GridFtpConnection;
import org.gridcache.gridftp.GridFtpException;
import org.gridcache.gridftp.GridFtpOptions;
import org.gridcache.gridftp.RemoteEntry;
import org.gridcache.pool.access.DelegatedCredentials;
import org.gridcache.pool.http.FetchException;
import org.gridcache.pool.http.ReceiveSlabs;
import org.gridcache.pool.origin.DownloadSink;
import org.gridcache.pool.origin.OriginAccess;
import org.gridcache.pool.origin.OriginFetcher;
import org.gridcache.pool.origin.OriginUploader;
import org.gridcache.pool.origin.PermissionCheck;
import org.gridcache.pool.origin.RangedReads;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Fetches {@code gsiftp://} origins with jGlobus (the shaded {@code gridcache-gridftp} client), presenting the
 * ticket's user's delegated proxy (obtained beforehand by {@link OriginAccess}) or, for service origins, the
 * pool's host certificate. Per fetch: one control connection (an idle one of that credential from the
 * {@link GsiConnectionPool}, usually the permission check's, given back after a fetch without error); MLST for
 * size and mtime; then the bytes, in stream mode or in MODE E over {@code gridftp.streams} parallel streams, into
 * the {@link DownloadSink} in file order; then CKSM and {@link ChecksumVerification}. Blocking I/O, hence its own
 * threads; a full write-behind budget pauses the transfer (the fetcher thread waits, the TCP windows fill).
 * Capabilities: {@link GridFtpRangedReads} (ERET: a cold range for one client, or the blocks of a block read) and
 * {@link GridFtpPermissionCheck} (MLST as the user).
 */
public final class GridFtpOriginFetcher implements OriginFetcher {
    private static final Logger LOG = LoggerFactory.getLogger(GridFtpOriginFetcher.class);
    private final GridFtpSessions sessions;
    private final GsiConnectionPool connections = new GsiConnectionPool();
    /** The pool's slabs, shared with HTTP: kept for reuse up to `pool.write-behind`, what misses hold while the disk catches up. */
    private final ReceiveSlabs slabs;
    private final Duration replyTimeout;
    private final RangedReads rangedReads;
    private final PermissionCheck permissionCheck;

    /** {@code credentials} and {@code host} null: a pool without TLS, which cannot read GridFTP origins. */
    public GridFtpOriginFetcher(DelegatedCredentials credentials, X509Credential host, Path caDir, Supplier<ClusterSettings> settings,
                                Duration replyTimeout, ReceiveSlabs slabs) {
        this.slabs = slabs;
        this.sessions = new GridFtpSessions(credentials, host, caDir, settings);
        this.replyTimeout = replyTimeout;
        this.rangedReads = new GridFtpRangedReads(sessions, connections);
        this.permissionCheck = new GridFtpPermissionCheck(sessions, connections);
    }

    /** PUTs through this pool to GridFTP origins, on the same threads and with the same credentials as the fetches. */
    public OriginUploader uploader() {
        return new GridFtpOriginUploader(sessions);
    }

    @Override
    public boolean supports(URI origin) {
        return OriginEntry.GSIFTP.equalsIgnoreCase(origin.getScheme());
    }

    /** Blocks by ERET: each run of missing blocks is one partial retrieve, on a kept connection of the user's when there is one. */
    @Override
    public Optional<RangedReads> blockReads() {
        return Optional.of(rangedReads);
    }

    @Override
    public Optional<PermissionCheck> permissionCheck() {
        return Optional.of(permissionCheck);
    }

    @Override
    public void fetch(URI origin, DownloadSink sink) {
        sink.fail(FetchException.badGateway("a GridFTP origin is read with a credential, and this fetch has none"));
    }

    @Override
    public void fetch(URI origin, DownloadSink sink, Ticket ticket) {
        GridFtpSessions.Login login;
        try {
            login = sessions.login(ticket);
        } catch (FetchException e) {
            sink.fail(e);
            return;
        }
        try {
            sessions.execute(() -> transfer(origin, ticket, sink, login.credential(), login.options()));
        } catch (RejectedExecutionException e) {
            sink.fail(GridFtpSessions.shuttingDown());
        }
    }

    private void transfer(URI origin, Ticket ticket, DownloadSink sink, X509Credential credential, GridFtpOptions options) {
        String path = GridFtpSessions.path(origin);
        FetchException[] refused = new FetchException[1];
        GsiConnectionPool.Lease lease = null;
        boolean reusable = false;
        ReceiveSlabs.Filler filler = slabs.filler();
        try {
            lease = connections.takeOrOpen(origin, credential, options);
            GridFtpConnection conn = lease.connection();
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
            GridFtpChecksum wanted = sessions.settings().get(Keys.GRIDFTP_CHECKSUM);
            boolean checksummed = wanted != GridFtpChecksum.NONE;
            if (checksummed) {
                sink.willVerify(ChecksumVerification.typeOf(wanted)); // the clients' last byte waits for the verification
            }
            long mtime = entry.mtimeMillis() < 0 ? -1 : entry.mtimeMillis() / 1000;
            long started = System.nanoTime();
            conn.retrieve(path, 0, entry.size(), true, new GridFtpConnection.Receiver() {
                @Override
                public void started() throws IOException {
                    try {
                        sink.begin(entry.size(), mtime, null); // not before: until now a refusal can reach the clients as a status
                    } catch (FetchException e) {
                        throw refusal(e);
                    }
                }

                @Override
                public void receive(byte[] data, int n) throws IOException {
                    try {
                        write(sink, filler, data, n); // on jGlobus' threads; retrieve returns after the last
                    } catch (FetchException e) {
                        throw refusal(e);
                    }
                }

                private IOException refusal(FetchException e) {
                    refused[0] = e; // what the clients are told, rather than jGlobus' wrapping of it
                    return new IOException(e.getMessage());
                }
            });
            LOG.debug("GridFTP {} bytes of {} from {} with {} stream(s) in {} ms", entry.size(), ticket.path(), OriginFetcher.describe(origin),
                    options.streams(), (System.nanoTime() - started) / 1_000_000);
            // asked after the data, not before: the server's checksum of the whole file does not delay the first byte
            ChecksumVerification.Expected expected = checksummed ? ChecksumVerification.expected(conn, path, wanted) : null;
            Checksums offered = expected == null ? null : ChecksumVerification.asOffered(expected, sink);
            if (expected == null) {
                sink.complete();
            } else if (offered != null) {
                sink.originChecksums(offered); // compared with what the pool computed while the file filled: no read-back
                sink.complete();
            } else {
                sink.complete((file, size) -> ChecksumVerification.verify(file, size, expected, origin));
            }
            reusable = true;
        } catch (GridFtpException e) {
            sink.fail(refused[0] != null ? refused[0] : GridFtpSessions.reason(e, origin, ticket));
        } catch (FetchException e) {
            sink.fail(e);
        } catch (RuntimeException e) {
            LOG.error("GridFTP fetch of {} failed", ticket.path(), e);
            sink.fail(FetchException.badGateway("GridFTP client failed: " + e));
        } finally {
            filler.close();
            if (lease != null && reusable) {
                connections.giveBack(lease);
            } else if (lease != null) {
                lease.connection().close(); // after any error: its state (a transfer half read, replies out of step) is not worth finding out
            }
        }
    }

    /**
     * Hands received bytes to the sink, copied into slabs ({@code data} is jGlobus' to reuse); waits while the pool's
     * write-behind memory is exhausted.
     */
    private void write(DownloadSink sink, ReceiveSlabs.Filler filler, byte[] data, int length) throws FetchException, IOException {
        for (int done = 0; done < length; ) {
            ByteBuf piece = filler.copy(data, done, length - done);
            done += piece.readableBytes();
            try {
                CountDownLatch resumed = new CountDownLatch(1);
                if (!sink.write(piece, resumed::countDown)) {
                    if (!resumed.await(replyTimeout.toMillis(), TimeUnit.MILLISECONDS)) {
                        throw new FetchException(HttpResponseStatus.INTERNAL_SERVER_ERROR,
                                "the pool's disk took no bytes for " + replyTimeout.toSeconds() + " s");
                    }
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw GridFtpSessions.shuttingDown();
            } finally {
                piece.release();
            }
        }
    }

    /** The GSI control connections of reads, kept idle between them: counted in the pool's metrics. */
    public GsiConnectionPool connections() {
        return connections;
    }

    @Override
    public void close() {
        connections.close();
        sessions.close();
    }
}
