package org.gridcache.pool.origin;

import eu.emi.security.authn.x509.X509Credential;
import java.net.URI;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.cert.CertificateEncodingException;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.util.HexFormat;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;
import org.gridcache.common.OriginEntry;
import org.gridcache.gridftp.GridFtpConnection;
import org.gridcache.gridftp.GridFtpException;
import org.gridcache.gridftp.GridFtpOptions;

/**
 * Authenticated GridFTP control connections kept idle between conversations (permission check, fetch, ranged read),
 * so that a miss whose user already talked to that server skips the GSI handshake (several round trips and an RSA
 * signature, 0.1–0.2 s). Keyed by server, credential and transfer options: a connection is only ever reused by the
 * holder of the very credential it was authenticated with ({@link Key}), never while it is in use, and not past that
 * credential's expiry. A connection goes back only after a conversation without any error; each is checked with NOOP
 * before reuse, closed after {@link #IDLE} unused; at most {@link #PER_KEY} idle per key and {@link #TOTAL} in all.
 */
public final class GsiConnectionPool implements AutoCloseable {
    /** How long an idle connection is kept (globus-gridftp-server's own idle limit is longer: 600 s by default). */
    static final Duration IDLE = Duration.ofSeconds(60);
    /** Idle connections per server, credential and options: about the misses one user runs at once. */
    static final int PER_KEY = 4;
    /** Idle connections in all: each is a process at the server. */
    static final int TOTAL = 64;

    /**
     * Server, credential and options. The credential by the SHA-256 of its leaf certificate (the delegated proxy: its
     * key and serial are new with each delegation) and its chain's expiry, so that neither another user nor another
     * delegation of the same user ever gets a connection it did not authenticate.
     */
    record Key(String host, int port, String leafSha256, long notAfterMillis, GridFtpOptions options) {
    }

    private final IdleConnectionPool<Key, GridFtpConnection> idle;
    private final LongAdder opened = new LongAdder();
    private final LongAdder reused = new LongAdder();
    private final ScheduledExecutorService sweeper = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "gridftp-idle-connections");
        t.setDaemon(true);
        return t;
    });

    GsiConnectionPool() {
        this.idle = new IdleConnectionPool<>(IDLE, PER_KEY, TOTAL, GridFtpConnection::alive, GridFtpConnection::close, System::nanoTime);
        long every = Math.max(1, IDLE.toSeconds() / 4);
        sweeper.scheduleWithFixedDelay(idle::closeIdle, every, every, TimeUnit.SECONDS);
    }

    /** An idle connection to this server authenticated with this credential and options, NOOP-checked; null if none. */
    GridFtpConnection take(URI origin, X509Credential credential, GridFtpOptions options) {
        Key key = key(origin, credential, options);
        GridFtpConnection kept = expired(key) ? null : idle.take(key);
        if (kept != null) {
            reused.increment();
        }
        return kept;
    }

    /** An idle connection of this credential, else a new one (a GSI handshake). */
    GridFtpConnection takeOrOpen(URI origin, X509Credential credential, GridFtpOptions options) throws GridFtpException {
        GridFtpConnection kept = take(origin, credential, options);
        if (kept != null) {
            return kept;
        }
        GridFtpConnection conn = GridFtpSessions.open(origin, credential, options);
        opened.increment();
        return conn;
    }

    /** Keeps {@code conn} for the next conversation; only after one without any error. */
    void give(URI origin, X509Credential credential, GridFtpOptions options, GridFtpConnection conn) {
        Key key = key(origin, credential, options);
        if (expired(key)) {
            conn.close();
        } else {
            idle.give(key, conn);
        }
    }

    /** Idle connections now. */
    public int idle() {
        return idle.idle();
    }

    /** Control connections opened for reads (each a GSI handshake) since the pool started. */
    public long opened() {
        return opened.sum();
    }

    /** Reads served by an idle connection (a handshake saved) since the pool started. */
    public long reused() {
        return reused.sum();
    }

    private static boolean expired(Key key) {
        return System.currentTimeMillis() >= key.notAfterMillis();
    }

    static Key key(URI origin, X509Credential credential, GridFtpOptions options) {
        X509Certificate[] chain = credential.getCertificateChain();
        long notAfter = Long.MAX_VALUE;
        for (X509Certificate c : chain) {
            notAfter = Math.min(notAfter, c.getNotAfter().getTime());
        }
        int port = origin.getPort() > 0 ? origin.getPort() : OriginEntry.GSIFTP_DEFAULT_PORT;
        return new Key(origin.getHost().toLowerCase(java.util.Locale.ROOT), port, sha256(chain[0]), notAfter, options);
    }

    private static String sha256(X509Certificate leaf) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(leaf.getEncoded()));
        } catch (NoSuchAlgorithmException | CertificateEncodingException e) {
            throw new IllegalStateException("cannot fingerprint the credential's certificate", e);
        }
    }

    @Override
    public void close() {
        sweeper.shutdownNow();
        idle.close();
    }
}
