package org.gridcache.common;

import java.util.List;

/**
 * What a door grants a client for one file on one pool until {@code expiresAt} (epoch seconds). Reusable until it
 * expires, so range retries and seeking work (dCache #8078). {@code originUrl}, {@code size} and {@code mtime} are
 * what the door resolved, so the pool fetches exactly that object and can tell a stale copy (-1 = unknown).
 */
public record Ticket(String path, String pool, String operation, long expiresAt, String subject, String door,
                     String originUrl, long size, long mtime, List<String> peers) {

    public static final String QUERY_PARAMETER = "gridcache-ticket";
    public static final String READ = "read";
    /**
     * {@code peers} holding only this: on a miss, ask every live peer and redirect the client to one that holds the
     * file (the seed design, policy {@code random}). Otherwise {@code peers} names, best first, the pools to pull a
     * miss from before the origin (policy {@code affinity}); empty: straight to the origin.
     */
    public static final String ALL_PEERS = "*";

    public Ticket {
        peers = peers == null ? List.of() : List.copyOf(peers);
    }

    /** A ticket without peers: a miss goes straight to the origin. */
    public Ticket(String path, String pool, String operation, long expiresAt, String subject, String door,
                  String originUrl, long size, long mtime) {
        this(path, pool, operation, expiresAt, subject, door, originUrl, size, mtime, List.of());
    }

    /** True when a missing pool should ask all its peers and redirect (policy {@code random}). */
    public boolean asksAllPeers() {
        return peers.size() == 1 && peers.get(0).equals(ALL_PEERS);
    }
}
