package org.gridcache.pool.tpc;

import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * The {@code TransferHeader<Name>: v} headers of a third-party COPY, which the copying endpoint sends on as
 * {@code <Name>: v} with its own request to the remote side (WLCG: how FTS passes {@code Authorization: Bearer …} for
 * the remote). Names that would change the framing or the target of that request are refused.
 */
final class TransferHeaders {
    static final String PREFIX = "TransferHeader";
    /** Framing, connection and target headers: the pool's HTTP client sets these itself. */
    private static final Set<String> REFUSED = Set.of("host", "content-length", "transfer-encoding", "connection", "expect",
            "upgrade", "te", "trailer", "keep-alive", "proxy-authorization", "proxy-connection", "date", "from", "via",
            "warning", "range");

    private TransferHeaders() {
    }

    /**
     * The headers to send the remote, from the COPY's {@code headers}; throws {@link IllegalArgumentException} naming a
     * header that may not be passed on, or one without a name.
     */
    static Map<String, String> of(Iterable<Map.Entry<String, String>> headers) {
        Map<String, String> out = new LinkedHashMap<>();
        for (Map.Entry<String, String> h : headers) {
            String name = h.getKey();
            if (name.length() < PREFIX.length() || !name.regionMatches(true, 0, PREFIX, 0, PREFIX.length())) {
                continue;
            }
            String passed = name.substring(PREFIX.length());
            if (passed.isEmpty()) {
                throw new IllegalArgumentException(PREFIX + " without a header name");
            }
            if (REFUSED.contains(passed.toLowerCase(Locale.ROOT))) {
                throw new IllegalArgumentException(name + " cannot be passed on: the pool sets " + passed + " itself");
            }
            out.merge(passed, h.getValue(), (a, b) -> a + ", " + b);
        }
        return out;
    }
}
