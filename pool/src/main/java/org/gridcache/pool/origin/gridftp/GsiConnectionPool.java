package org.gridcache.pool.origin.gridftp;

import eu.emi.security.authn.x509.X509Credential;
import eu.emi.security.authn.x509.proxy.ProxyUtils;
import java.net.URI;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.cert.CertificateEncodingException;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.util.HexFormat;
import java.util.Locale;
import java.util.concurrent.atomic.LongAdder;
import org.gridcache.common.IdleConnectionPool;
import org.gridcache.common.origin.OriginEntry;
import org.gridcache.gridftp.GridFtpConnection;
import org.gridcache.gridftp.GridFtpException;
import org.gridcache.gridftp.GridFtpOptions;

/**
 * Authenticated GridFTP control connections kept idle between conversations (permission check, fetch, ranged read),
 * so that a miss whose user already talked to that server skips the GSI handshake (several round trips and an RSA
 * signature, 0.1–0.2 s). Keyed by server, credential ({@link Key}) and transfer options; a connection is never in
 * the pool while it is in use ({@link Lease}), goes back only after a conversation without any error, is checked with
 * NOOP before reuse, is not reused within {@link #MARGIN} of the expiry of the credential it was authenticated with,
 * and is closed after {@link #IDLE} unused; at most {@link #PER_KEY} idle per key and {@link #TOTAL} in all.
 */
public final class GsiConnectionPool implements AutoCloseable {
    /** How long an idle connection is kept (globus-gridftp-server's own idle limit is longer: 600 s by default). */
    static final Duration IDLE = Duration.ofSeconds(60);
    /** Idle connections per key: about the misses one user runs at once. */
    static final int PER_KEY = 4;
    /** Idle connections in all: each is a process at the server. */
    static final int TOTAL = 64;
    /** A connection whose credential ends sooner is not reused (a fetch on it may last long). */
    static final Duration MARGIN = Duration.ofMinutes(1);
    private static final String[] PROXY_RIGHTS_OIDS = {
        "1.3.6.1.5.5.7.1.14", // RFC 3820 ProxyCertInfo: policy and path length (what DCAU allows)
        "1.3.6.1.4.1.3536.1.222", // the same, pre-RFC Globus
        "1.3.6.1.4.1.8005.100.100.5", // a VOMS attribute certificate
    };

    /**
     * Server, credential and options. The credential as the identity it acts for: the door hands a pool a proxy
     * (its own key) derived from the user's delegation, a new one every half hour, so a proxy is known by the chain that signed
     * it (the delegation and everything above, each certificate whole) and the rights its own certificate carries
     * (proxy policy, path length, VOMS attributes), {@code notAfterMillis} being that chain's expiry: two proxies of one
     * delegation share connections; another user, another delegation of the same user (other VOMS attributes, a
     * re-delegation) never does. A certificate that is no proxy (a host credential) is known by its whole chain.
     */
    record Key(String host, int port, String identitySha256, long notAfterMillis, GridFtpOptions options) {
    }

    /** A connection out of the pool, in the hands of one conversation, with what it was authenticated as. */
    record Lease(GridFtpConnection connection, Key key, long usableUntilMillis) {
    }

    private final IdleConnectionPool<Key, Lease> idle;
    private final LongAdder opened = new LongAdder();
    private final LongAdder reused = new LongAdder();

    GsiConnectionPool() {
        this.idle = new IdleConnectionPool<Key, Lease>(IDLE, PER_KEY, TOTAL,
                lease -> System.currentTimeMillis() < lease.usableUntilMillis() && lease.connection().alive(), lease -> lease.connection().close(),
                System::nanoTime).sweptBy("gridftp-idle-connections");
    }

    /** An idle connection for this server, credential and options, NOOP-checked; null when there is none. */
    Lease take(URI origin, X509Credential credential, GridFtpOptions options) {
        Lease kept = idle.take(key(origin, credential, options));
        if (kept != null) {
            reused.increment();
        }
        return kept;
    }

    /** An idle connection for this credential, else a new one (a GSI handshake). */
    Lease takeOrOpen(URI origin, X509Credential credential, GridFtpOptions options) throws GridFtpException {
        Lease kept = take(origin, credential, options);
        if (kept != null) {
            return kept;
        }
        GridFtpConnection conn = GridFtpSessions.open(origin, credential, options);
        opened.increment();
        return new Lease(conn, key(origin, credential, options), notAfter(credential.getCertificateChain(), 0) - MARGIN.toMillis());
    }

    /** Keeps the leased connection for the next conversation: only after one without any error. */
    void giveBack(Lease lease) {
        if (System.currentTimeMillis() >= lease.usableUntilMillis()) {
            lease.connection().close();
        } else {
            idle.give(lease.key(), lease);
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

    static Key key(URI origin, X509Credential credential, GridFtpOptions options) {
        X509Certificate[] chain = credential.getCertificateChain();
        boolean proxy = chain.length > 1 && ProxyUtils.isProxy(chain[0]);
        MessageDigest identity = sha256();
        try {
            for (int i = proxy ? 1 : 0; i < chain.length; i++) {
                identity.update(chain[i].getEncoded());
            }
        } catch (CertificateEncodingException e) {
            throw new IllegalStateException("cannot encode the credential's chain", e);
        }
        if (proxy) {
            for (String oid : PROXY_RIGHTS_OIDS) {
                byte[] rights = chain[0].getExtensionValue(oid);
                identity.update(oid.getBytes(java.nio.charset.StandardCharsets.US_ASCII));
                identity.update(rights == null ? new byte[0] : rights);
            }
        }
        int port = origin.getPort() > 0 ? origin.getPort() : OriginEntry.GSIFTP_DEFAULT_PORT;
        return new Key(origin.getHost().toLowerCase(Locale.ROOT), port, HexFormat.of().formatHex(identity.digest()),
                notAfter(chain, proxy ? 1 : 0), options);
    }

    private static long notAfter(X509Certificate[] chain, int from) {
        long notAfter = Long.MAX_VALUE;
        for (int i = from; i < chain.length; i++) {
            notAfter = Math.min(notAfter, chain[i].getNotAfter().getTime());
        }
        return notAfter;
    }

    private static MessageDigest sha256() {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("this JVM has no SHA-256", e);
        }
    }

    @Override
    public void close() {
        idle.close();
    }
}
