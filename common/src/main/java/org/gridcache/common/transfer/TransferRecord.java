package org.gridcache.common.transfer;

import org.gridcache.common.Json;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import com.fasterxml.jackson.core.JsonGenerator;
import java.io.IOException;
import java.io.StringWriter;
import java.io.UncheckedIOException;

/**
 * One finished transfer, as a line of {@code transfers.jsonl} (docs/admin-guide.md, "Transfer records"): the monitoring
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
 * @param authn       how the subject authenticated: {@code x509}, {@code token <iss> <jti or sha256:…>}, {@code
 *                    macaroon <identifier>} or {@code anonymous} (never the credential; null in records of old)
 */
@JsonPropertyOrder({"time", "node", "nodeId", "subject", "vo", "client", "method", "path", "bytes", "durationMs",
        "source", "originBytes", "status", "complete", "pool", "authn"})
public record TransferRecord(String time, String node, String nodeId, String subject, String vo, String client,
                             String method, String path, long bytes, long durationMs, String source, long originBytes,
                             int status, boolean complete, String pool, String authn) {
    public static final String HIT = "hit";
    public static final String MISS = "miss";
    public static final String PEER = "peer";

    /** A record that does not say how its subject authenticated. */
    public TransferRecord(String time, String node, String nodeId, String subject, String vo, String client, String method,
                          String path, long bytes, long durationMs, String source, long originBytes, int status, boolean complete,
                          String pool) {
        this(time, node, nodeId, subject, vo, client, method, path, bytes, durationMs, source, originBytes, status, complete,
                pool, null);
    }

    /**
     * The record as one line of JSON, written field by field with Jackson's streaming generator: the same text as
     * the mapper's (the property order above), without its reflection, which cost a small-file hit 8 % of the
     * pool's CPU (ARCHITECTURE.md, "Performance design").
     */
    public String toJson() {
        StringWriter out = new StringWriter(256);
        try (JsonGenerator g = Json.mapper().getFactory().createGenerator(out)) {
            g.writeStartObject();
            g.writeStringField("time", time);
            g.writeStringField("node", node);
            g.writeStringField("nodeId", nodeId);
            g.writeStringField("subject", subject);
            g.writeStringField("vo", vo);
            g.writeStringField("client", client);
            g.writeStringField("method", method);
            g.writeStringField("path", path);
            g.writeNumberField("bytes", bytes);
            g.writeNumberField("durationMs", durationMs);
            g.writeStringField("source", source);
            g.writeNumberField("originBytes", originBytes);
            g.writeNumberField("status", status);
            g.writeBooleanField("complete", complete);
            g.writeStringField("pool", pool);
            g.writeStringField("authn", authn);
            g.writeEndObject();
        } catch (IOException e) {
            throw new UncheckedIOException(e); // a StringWriter does not fail
        }
        return out.toString();
    }
}
