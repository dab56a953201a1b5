package org.gridcache.common.cluster;

import java.util.List;
import java.util.Map;
import org.gridcache.common.UrlCodec;
import org.gridcache.common.ticket.Ticket;
/**
 * What a pool publishes in its ephemeral znode {@code /pools/<id>} (ARCHITECTURE.md, "ZooKeeper layout"). {@code load} is the pool's own
 * summary (active movers weighted with outgoing bandwidth); doors rank pools by it. {@code state} says whether the
 * pool takes new transfers ({@link #ENABLED}), none ({@link #DRAINING}: finishing the current ones for maintenance)
 * or only hits ({@link #READONLY}: it fetches nothing new); {@code hits} and {@code misses} count its transfers since
 * it started, for hit rates. Records of older pools lack these three fields: they read as enabled with no counts.
 * {@code hostDn} is the subject of the host certificate an HTTPS pool presents (null for plain HTTP): the door hands a
 * user's credential only to the pool a ticket was issued to, recognised by this DN. {@code ticketKey} is the public
 * JWK of the key the pool signs its requests to peers with (null: it asks no peers); the znode's ACL lets only this
 * pool write it. {@code originBytes}: the bytes of complete replicas per origin (a mount's URL), the
 * {@link #ORIGINS_PUBLISHED} largest only, so that a pool of many origins keeps its record small; the door sums them
 * per mount point for its storage report. Records of older pools lack it: no origin's bytes are known.
 * {@code transfers}: its transfers in progress, the longest-running first, at most {@link #MAX_TRANSFERS} (empty in
 * records of older pools).
 */
public record PoolRecord(String id, String url, String site, long capacityBytes, long freeBytes, int activeMovers,
                         long bytesPerSecOut, double load, String version, long startedAt,
                         String state, long hits, long misses, String hostDn, java.util.Map<String, Object> ticketKey,
                         Map<String, Long> originBytes, List<ActiveTransfer> transfers) {
    /** Transfers a record lists at most: about 250 bytes each in the znode, which every door and pool reads. */
    public static final int MAX_TRANSFERS = 32;
    public static final String ENABLED = "enabled";
    public static final String DRAINING = "draining";
    public static final String READONLY = "readonly";
    /**
     * The most origins in {@link #originBytes}: with a mount's URL (about 100 bytes) and its count, a few kilobytes,
     * while the whole record is written every few seconds.
     */
    public static final int ORIGINS_PUBLISHED = 64;

    /** An enabled pool with no counts yet (the record of the backbone's pools). */
    public PoolRecord(String id, String url, String site, long capacityBytes, long freeBytes, int activeMovers,
                      long bytesPerSecOut, double load, String version, long startedAt) {
        this(id, url, site, capacityBytes, freeBytes, activeMovers, bytesPerSecOut, load, version, startedAt, ENABLED, 0, 0);
    }

    /** A plain-HTTP pool's record (no host DN). */
    public PoolRecord(String id, String url, String site, long capacityBytes, long freeBytes, int activeMovers,
                      long bytesPerSecOut, double load, String version, long startedAt,
                      String state, long hits, long misses) {
        this(id, url, site, capacityBytes, freeBytes, activeMovers, bytesPerSecOut, load, version, startedAt, state, hits, misses, null);
    }

    /** A record without a ticket key: a pool whose peers cannot verify its requests. */
    public PoolRecord(String id, String url, String site, long capacityBytes, long freeBytes, int activeMovers,
                      long bytesPerSecOut, double load, String version, long startedAt,
                      String state, long hits, long misses, String hostDn) {
        this(id, url, site, capacityBytes, freeBytes, activeMovers, bytesPerSecOut, load, version, startedAt, state, hits,
                misses, hostDn, null);
    }

    /** A record that says nothing of its origins' bytes and lists no transfer in progress. */
    public PoolRecord(String id, String url, String site, long capacityBytes, long freeBytes, int activeMovers,
                      long bytesPerSecOut, double load, String version, long startedAt,
                      String state, long hits, long misses, String hostDn, java.util.Map<String, Object> ticketKey) {
        this(id, url, site, capacityBytes, freeBytes, activeMovers, bytesPerSecOut, load, version, startedAt, state, hits,
                misses, hostDn, ticketKey, null, List.of());
    }

    public PoolRecord {
        state = state == null ? ENABLED : state;
        originBytes = originBytes == null ? Map.of() : Map.copyOf(originBytes);
        transfers = transfers == null ? List.of()
                : transfers.stream().filter(java.util.Objects::nonNull).limit(MAX_TRANSFERS).toList();
    }

    /** The bytes this pool holds of {@code origin} (a mount's URL) as it published them; 0 when it named none. */
    public long bytesOf(String origin) {
        return originBytes.getOrDefault(origin, 0L);
    }

    /** The state as published, "enabled" for a record without one. */
    public boolean draining() {
        return DRAINING.equals(state);
    }

    public boolean readOnly() {
        return READONLY.equals(state);
    }

    /**
     * The URL of {@code path} at this pool carrying {@code signedTicket}: what a door redirects a client to, and what a
     * pool asks a peer for.
     */
    public String ticketedUrl(String path, String signedTicket) {
        String base = url.endsWith("/") ? url.substring(0, url.length() - 1) : url;
        return base + UrlCodec.encodePath(path) + "?" + Ticket.QUERY_PARAMETER + "=" + signedTicket;
    }

    /** Hits over all transfers, or -1 before the first one. */
    public double hitRate() {
        long total = hits + misses;
        return total == 0 ? -1 : (double) hits / total;
    }
}
