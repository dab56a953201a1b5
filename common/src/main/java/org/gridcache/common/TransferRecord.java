package org.gridcache.common;

import com.fasterxml.jackson.annotation.JsonPropertyOrder;

/**
 * One finished transfer, as a line of {@code transfers.jsonl} (the README's "Transfer records"): the monitoring
 * record that StashCache and XCache users expect, in the spirit of XRootD's monitoring streams and dCache's billing.
 *
 * @param time        when the transfer ended, ISO-8601 UTC
 * @param node        "pool", or "door" for a read the door streamed itself (proxy mode)
 * @param nodeId      the pool's name or the door's id
 * @param subject     who read: the ticket's subject DN ("anonymous" until grid security arrives)
 * @param vo          the subject's virtual organisation (null until grid security arrives)
 * @param client      the client's IP address
 * @param method      GET or HEAD
 * @param path        the namespace path
 * @param bytes       bytes of the body sent to the client
 * @param durationMs  from the request to the last byte (or the abort)
 * @param source      "hit", "miss" (fetched from the origin for this read or one it joined) or "peer"
 * @param originBytes for a miss: the bytes the fetch it joined had read from the origin when this transfer ended
 *                    (coalesced transfers share one fetch, so do not add these up: the pool's
 *                    gridcache_pool_origin_bytes_total counts each fetch once); 0 for a hit
 * @param status      the HTTP status sent
 * @param complete    false when the transfer was cut short (client went away, origin failed)
 * @param pool        the pool that served the data (the door's records; the pool's own name in a pool's)
 */
@JsonPropertyOrder({"time", "node", "nodeId", "subject", "vo", "client", "method", "path", "bytes", "durationMs",
        "source", "originBytes", "status", "complete", "pool"})
public record TransferRecord(String time, String node, String nodeId, String subject, String vo, String client,
                             String method, String path, long bytes, long durationMs, String source, long originBytes,
                             int status, boolean complete, String pool) {
    public static final String HIT = "hit";
    public static final String MISS = "miss";
    public static final String PEER = "peer";

    public String toJson() {
        return Json.string(this);
    }
}
