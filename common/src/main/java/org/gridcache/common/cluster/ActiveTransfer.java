package org.gridcache.common.cluster;

import java.util.Locale;

/**
 * One transfer in progress at a pool, as the pool publishes it in its record ({@link PoolRecord#transfers}) for the
 * door's status page, its transfers API and {@code gridcache transfers} (dCache's "active transfers"). Bounded and
 * free of secrets: the subject shortened ({@link #shortSubject}), the namespace path without query (no ticket), at
 * most {@link #MAX_TEXT} characters each.
 *
 * @param kind        {@link #HIT}, {@link #MISS}, {@link #PEER} (a miss filled from another pool), {@link #UPLOAD}
 *                    or {@link #TPC} (a third-party copy)
 * @param subject     who: the last common name of a DN, or a token's subject at its issuer's host, shortened
 * @param path        the namespace path
 * @param bytes       bytes moved so far
 * @param size        bytes the transfer will move, -1 when unknown (a range, a copy)
 * @param startedAt   when it began, milliseconds since the epoch
 * @param bytesPerSec its rate over the last publication period (since its start for a new one)
 */
public record ActiveTransfer(String kind, String subject, String path, long bytes, long size, long startedAt, long bytesPerSec) {
    public static final String HIT = "hit";
    public static final String MISS = "miss";
    public static final String PEER = "peer";
    public static final String UPLOAD = "upload";
    public static final String TPC = "tpc";
    /** Characters of a subject or a path at most; a longer one keeps its end (a file's name says most). */
    public static final int MAX_TEXT = 160;
    private static final int MAX_SUBJECT = 32;
    private static final String ELLIPSIS = "\u2026";
    private static final String TOKEN = "token:";

    public ActiveTransfer {
        subject = tail(subject == null ? "anonymous" : subject, MAX_TEXT);
        path = tail(path == null ? "" : path, MAX_TEXT);
        kind = kind == null ? "" : tail(kind, 16);
    }

    /**
     * Who, shortened for a page anyone may read: of a DN ({@code /DC=org/DC=example/CN=Alice Smith}, or RFC 2253) its
     * last common name that is no proxy's ({@code Alice Smith}); of a bearer token's {@code token:<sub>@<issuer>} the
     * subject at the issuer's host ({@code 5f0c…@iam.example.org}); never more than 32 characters.
     */
    public static String shortSubject(String subject) {
        if (subject == null || subject.isBlank()) {
            return "anonymous";
        }
        if (subject.startsWith(TOKEN)) {
            String rest = subject.substring(TOKEN.length());
            int at = rest.lastIndexOf('@');
            String sub = at < 0 ? rest : rest.substring(0, at);
            String host = at < 0 ? "" : hostOf(rest.substring(at + 1));
            return head(sub, 12) + (host.isEmpty() ? "" : "@" + head(host, MAX_SUBJECT - 13));
        }
        String commonName = null;
        for (String part : subject.split("[/,]")) {
            String rdn = part.trim();
            if (rdn.regionMatches(true, 0, "CN=", 0, 3)) {
                String value = rdn.substring(3).trim();
                if (!value.isEmpty() && !isProxyName(value)) {
                    commonName = value;
                }
            }
        }
        return head(commonName != null ? commonName : subject, MAX_SUBJECT);
    }

    /** A proxy certificate's own common name: digits (RFC 3820), {@code proxy} or {@code limited proxy}. */
    private static boolean isProxyName(String cn) {
        String lower = cn.toLowerCase(Locale.ROOT);
        return cn.chars().allMatch(Character::isDigit) || lower.equals("proxy") || lower.equals("limited proxy");
    }

    private static String hostOf(String issuer) {
        String s = issuer.replaceFirst("^[a-zA-Z][a-zA-Z0-9+.-]*://", "");
        int end = 0;
        while (end < s.length() && "/:?#".indexOf(s.charAt(end)) < 0) {
            end++;
        }
        return s.substring(0, end);
    }

    private static String head(String s, int max) {
        return s.length() <= max ? s : s.substring(0, max - 1) + ELLIPSIS;
    }

    private static String tail(String s, int max) {
        return s.length() <= max ? s : ELLIPSIS + s.substring(s.length() - max + 1);
    }
}
