package org.gridcache.pool;

import java.nio.file.Path;
import java.time.Duration;
import org.gridcache.common.origin.FileOriginRoots;
import org.gridcache.common.ticket.TicketCodec;
import org.gridcache.common.ticket.TicketKeys;
import org.gridcache.common.ticket.TicketSigningKey;
import org.gridcache.pool.http.PoolSecurity;
import org.gridcache.pool.store.StoreMode;

/**
 * How to run one pool: its name (the znode {@code /pools/<name>} and the ticket's {@code pool} claim), where to
 * listen, the URL doors redirect to ({@code null}: {@code "http://" + bindHost + ":" + boundPort}), the store
 * directory and its capacity, the site label, its own ticket key (it signs its requests to peers with it; it
 * verifies doors' tickets with their published keys), the longest ticket lifetime it accepts, whatever the doors are
 * configured with, doors' keys from a file ({@code doorKeys}, null: ZooKeeper's only), its TLS
 * ({@link PoolSecurity}), the permissions of stored files ({@link StoreMode}: 0600 unless the group may read) and
 * the directories {@code file://} origins may lie in ({@link FileOriginRoots}; none by default: none is read).
 */
public record PoolSettings(String name, String bindHost, int port, String publicUrl, Path store, long capacityBytes,
                           String site, TicketSigningKey ticketKey, Duration maxTicketLifetime, TicketKeys doorKeys,
                           PoolSecurity security, StoreMode storeMode, FileOriginRoots fileOriginRoots) {

    /** A pool that serves no {@code file://} origin. */
    public PoolSettings(String name, String bindHost, int port, String publicUrl, Path store, long capacityBytes,
                        String site, TicketSigningKey ticketKey, Duration maxTicketLifetime, TicketKeys doorKeys,
                        PoolSecurity security, StoreMode storeMode) {
        this(name, bindHost, port, publicUrl, store, capacityBytes, site, ticketKey, maxTicketLifetime, doorKeys, security,
                storeMode, FileOriginRoots.NONE);
    }

    /** A pool whose stored files only its own user reads. */
    public PoolSettings(String name, String bindHost, int port, String publicUrl, Path store, long capacityBytes,
                        String site, TicketSigningKey ticketKey, Duration maxTicketLifetime, TicketKeys doorKeys,
                        PoolSecurity security) {
        this(name, bindHost, port, publicUrl, store, capacityBytes, site, ticketKey, maxTicketLifetime, doorKeys, security,
                StoreMode.PRIVATE);
    }

    /** A plain-HTTP pool. */
    public PoolSettings(String name, String bindHost, int port, String publicUrl, Path store, long capacityBytes,
                        String site, TicketSigningKey ticketKey) {
        this(name, bindHost, port, publicUrl, store, capacityBytes, site, ticketKey, null, null, PoolSecurity.PLAIN);
    }

    public PoolSettings {
        security = security == null ? PoolSecurity.PLAIN : security;
        storeMode = storeMode == null ? StoreMode.PRIVATE : storeMode;
        fileOriginRoots = fileOriginRoots == null ? FileOriginRoots.NONE : fileOriginRoots;
        maxTicketLifetime = maxTicketLifetime == null ? TicketCodec.DEFAULT_MAX_LIFETIME : maxTicketLifetime;
        if (name == null || !name.matches("[A-Za-z0-9._-]+")) {
            throw new IllegalArgumentException("pool name may hold only letters, digits, '.', '_' and '-' (got '" + name + "')");
        }
        if (bindHost == null || bindHost.isBlank()) {
            throw new IllegalArgumentException("pool " + name + ": bind host missing");
        }
        if (port < 0 || port > 65535) {
            throw new IllegalArgumentException("pool " + name + ": port " + port + " out of range");
        }
        if (store == null) {
            throw new IllegalArgumentException("pool " + name + ": store directory missing");
        }
        if (capacityBytes <= 0) {
            throw new IllegalArgumentException("pool " + name + ": capacity must be positive");
        }
        if (ticketKey == null) {
            throw new IllegalArgumentException("pool " + name + ": ticket key missing");
        }
        if (maxTicketLifetime.isNegative() || maxTicketLifetime.isZero()) {
            throw new IllegalArgumentException("pool " + name + ": the longest ticket lifetime must be positive");
        }
    }

    /** These settings, serving the {@code file://} origins that lie in {@code roots}. */
    public PoolSettings withFileOriginRoots(FileOriginRoots roots) {
        return new PoolSettings(name, bindHost, port, publicUrl, store, capacityBytes, site, ticketKey, maxTicketLifetime,
                doorKeys, security, storeMode, roots);
    }
}
