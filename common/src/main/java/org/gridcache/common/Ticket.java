package org.gridcache.common;

/**
 * What a door grants a client for one file on one pool until {@code expiresAt} (epoch seconds). Reusable until it
 * expires, so range retries and seeking work (dCache #8078). {@code originUrl}, {@code size} and {@code mtime} are
 * what the door resolved, so the pool fetches exactly that object and can tell a stale copy (-1 = unknown).
 */
public record Ticket(String path, String pool, String operation, long expiresAt, String subject, String door,
                     String originUrl, long size, long mtime) {

    public static final String QUERY_PARAMETER = "gridcache-ticket";
    public static final String READ = "read";
}
