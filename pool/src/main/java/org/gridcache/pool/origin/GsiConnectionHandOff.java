package org.gridcache.pool.origin;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import com.github.benmanes.caffeine.cache.RemovalCause;
import com.github.benmanes.caffeine.cache.Scheduler;
import eu.emi.security.authn.x509.X509Credential;
import java.net.URI;
import java.security.cert.X509Certificate;
import java.time.Duration;
import org.gridcache.gridftp.GridFtpConnection;
import org.gridcache.gridftp.GridFtpOptions;

/**
 * Hands the authenticated connection of a permission check to the fetch that usually follows it, for
 * {@link #HAND_OFF} at most: saves a miss a second GSI handshake (several round trips and an RSA signature). A
 * connection nobody takes in time is closed.
 */
final class GsiConnectionHandOff implements AutoCloseable {
    /** How long a permission check's connection waits for the fetch that follows it before it is closed. */
    static final Duration HAND_OFF = Duration.ofSeconds(10);
    private final Cache<String, GridFtpConnection> waiting = Caffeine.newBuilder().maximumSize(256)
            .expireAfterWrite(HAND_OFF).scheduler(Scheduler.systemScheduler())
            .removalListener((String key, GridFtpConnection conn, RemovalCause cause) -> {
                if (conn != null && cause != RemovalCause.EXPLICIT) {
                    conn.close(); // expired, replaced or evicted; a connection taken for a fetch is removed explicitly
                }
            }).build();

    void leave(URI origin, X509Credential credential, GridFtpOptions options, GridFtpConnection conn) {
        waiting.put(key(origin, credential, options), conn);
    }

    /** The connection left for this origin, credential and options if it still answers; null otherwise. */
    GridFtpConnection take(URI origin, X509Credential credential, GridFtpOptions options) {
        GridFtpConnection kept = waiting.asMap().remove(key(origin, credential, options));
        if (kept != null && !kept.alive()) {
            kept.close();
            return null;
        }
        return kept;
    }

    /** Same server, same certificate (serial and issuer), same transfer options. */
    private static String key(URI origin, X509Credential credential, GridFtpOptions options) {
        X509Certificate leaf = credential.getCertificate();
        return origin.getHost() + ":" + origin.getPort() + "\n" + leaf.getSerialNumber() + "\n" + leaf.getIssuerX500Principal().getName()
                + "\n" + options;
    }

    @Override
    public void close() {
        waiting.asMap().values().forEach(GridFtpConnection::close);
        waiting.invalidateAll();
    }
}
