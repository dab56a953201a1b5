package org.gridcache.pool.tpc;

import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * The {@code TransferHeader<Name>: v} headers of a third-party COPY, which the copying endpoint sends on as
 * {@code <Name>: v} with its own request to the remote side (WLCG: how FTS passes {@code Authorization: Bearer …} for
 * the remote). Names that would change the framing or the target of that request are refused. An {@code Authorization}
 * value whose scheme is {@code bearer} in any case goes on as {@code Bearer}: the scheme is case-insensitive (RFC 9110
 * §11.1), but XRootD 5.5 takes a token only after {@code Bearer} spelt so, and the DOMA-TPC smoke test writes
 * {@code bearer}.
 */
final class TransferHeaders {
    static final String PREFIX = "TransferHeader";
    /** Framing, connection and target headers: the pool's HTTP client sets these itself. */
    private static final Set<String> REFUSED = Set.of("host", "content-length", "transfer-encoding", "connection", "expect",
            "upgrade", "te", "trailer", "keep-alive", "proxy-authorization", "proxy-connection", "date", "from", "via",
            "warning", "range");
    private static final String BEARER = "Bearer ";

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
            out.merge(passed, canonicalScheme(passed, h.getValue()), (a, b) -> a + ", " + b);
        }
        return out;
    }

    private static String canonicalScheme(String name, String value) {
        boolean bearer = name.equalsIgnoreCase("Authorization") && value.regionMatches(true, 0, BEARER, 0, BEARER.length());
        return bearer ? BEARER + value.substring(BEARER.length()) : value;
    }
}
