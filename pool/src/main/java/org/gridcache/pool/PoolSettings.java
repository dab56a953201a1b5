package org.gridcache.pool;

import java.nio.file.Path;

/**
 * How to run one pool: its name (the znode {@code /pools/<name>} and the ticket's {@code pool} claim), where to
 * listen, the URL doors redirect to ({@code null}: {@code "http://" + bindHost + ":" + boundPort}), the store
 * directory and its capacity, the site label, and the ticket key shared with the doors.
 */
public record PoolSettings(String name, String bindHost, int port, String publicUrl, Path store, long capacityBytes,
                           String site, byte[] ticketKey) {

    public PoolSettings {
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
