package org.gridcache.pool;

import java.nio.file.Path;

/**
 * How to run one pool: its name (the znode {@code /pools/<name>} and the ticket's {@code pool} claim), where to
 * listen, the URL doors redirect to ({@code null}: {@code "http://" + bindHost + ":" + boundPort}), the store
 * directory and its capacity, the site label, the ticket key shared with the doors, and its TLS ({@link PoolSecurity}).
 */
public record PoolSettings(String name, String bindHost, int port, String publicUrl, Path store, long capacityBytes,
                           String site, byte[] ticketKey, PoolSecurity security) {

    /** A plain-HTTP pool. */
    public PoolSettings(String name, String bindHost, int port, String publicUrl, Path store, long capacityBytes,
                        String site, byte[] ticketKey) {
        this(name, bindHost, port, publicUrl, store, capacityBytes, site, ticketKey, PoolSecurity.PLAIN);
    }

    public PoolSettings {
        security = security == null ? PoolSecurity.PLAIN : security;
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
        if (ticketKey == null || ticketKey.length < 32) {
            throw new IllegalArgumentException("pool " + name + ": ticket key must be at least 256 bits");
        }
    }
}
