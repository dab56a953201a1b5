package org.gridcache.common.checksum;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.StringJoiner;

/**
 * What a client asked for with {@code Want-Digest} (RFC 3230: {@code adler32;q=0.5, md5}) and
 * {@code Want-Repr-Digest} (RFC 9530: a dictionary of preferences 0–10, {@code sha-256=10, adler=3}), and the
 * answers: {@code Digest} and {@code Repr-Digest} with every asked-for checksum that is known (as current dCache
 * does), best preference first. Unknown algorithms and a preference of 0 are ignored, as both RFCs allow; a
 * malformed member is skipped, never an error (a digest is an extra, the transfer still happens).
 */
public final class DigestRequest {
    public static final String WANT_DIGEST = "Want-Digest";
    public static final String DIGEST = "Digest";
    public static final String WANT_REPR_DIGEST = "Want-Repr-Digest";
    public static final String REPR_DIGEST = "Repr-Digest";
    public static final DigestRequest NONE = new DigestRequest(List.of(), List.of());

    /** One asked-for algorithm and the name the client spelled it with (echoed: {@code adler} or {@code adler32}). */
    private record Wanted(ChecksumType type, String name, double preference) {
    }

    private final List<Wanted> rfc3230;
    private final List<Wanted> rfc9530;

    private DigestRequest(List<Wanted> rfc3230, List<Wanted> rfc9530) {
        this.rfc3230 = rfc3230;
        this.rfc9530 = rfc9530;
    }

    /** From the two request headers' values (either may be null). */
    public static DigestRequest of(String wantDigest, String wantReprDigest) {
        if (wantDigest == null && wantReprDigest == null) {
            return NONE;
        }
        return new DigestRequest(parse(wantDigest, false), parse(wantReprDigest, true));
    }

    public boolean isEmpty() {
        return rfc3230.isEmpty() && rfc9530.isEmpty();
    }

    /** Every algorithm asked for, in either header. */
    public java.util.Set<ChecksumType> types() {
        java.util.Set<ChecksumType> types = java.util.EnumSet.noneOf(ChecksumType.class);
        rfc3230.forEach(w -> types.add(w.type()));
        rfc9530.forEach(w -> types.add(w.type()));
        return types;
    }

    /** Whether {@code known} holds every algorithm asked for. */
    public boolean answeredBy(Checksums known) {
        return known.types().containsAll(types());
    }

    /** The {@code Digest} value for what is known of the asked-for checksums; null when none is known. */
    public String digest(Checksums known) {
        StringJoiner j = new StringJoiner(",");
        for (Wanted w : rfc3230) {
            byte[] v = known.get(w.type());
            if (v != null) {
                j.add(w.type().rfc3230Name() + "=" + w.type().rfc3230Value(v));
            }
        }
        return j.length() == 0 ? null : j.toString();
    }

    /** The {@code Repr-Digest} value (a structured-field dictionary); null when none is known. */
    public String reprDigest(Checksums known) {
        StringJoiner j = new StringJoiner(", ");
        for (Wanted w : rfc9530) {
            byte[] v = known.get(w.type());
            if (v != null) {
                j.add(w.name() + "=" + w.type().rfc9530Value(v));
            }
        }
        return j.length() == 0 ? null : j.toString();
    }

    /** The header values to send an origin: asks for every type gridcache keeps, ADLER32 first. */
    public static String wantAll() {
        return "adler32, md5;q=0.8, sha-256;q=0.6, crc32c;q=0.4";
    }

    /**
     * The checksums in an origin's {@code Digest} (RFC 3230) and {@code Repr-Digest} (RFC 9530) answers, either may
     * be null; values of unknown algorithms or that do not parse are left out.
     */
    public static Checksums offered(String digest, String reprDigest) {
        Map<ChecksumType, byte[]> values = new EnumMap<>(ChecksumType.class);
        for (String member : members(digest)) {
            int eq = member.indexOf('=');
            ChecksumType t = eq > 0 ? ChecksumType.byName(member.substring(0, eq)) : null;
            if (t != null) {
                try {
                    values.putIfAbsent(t, t.parseRfc3230(member.substring(eq + 1)));
                } catch (IllegalArgumentException e) {
                    // malformed: not offered
                }
            }
        }
        for (String member : members(reprDigest)) {
            int eq = member.indexOf('=');
            ChecksumType t = eq > 0 ? ChecksumType.byName(member.substring(0, eq)) : null;
            if (t != null) {
                try {
                    values.putIfAbsent(t, t.parseRfc9530(member.substring(eq + 1)));
                } catch (IllegalArgumentException e) {
                    // malformed: not offered
                }
            }
        }
        return Checksums.of(values);
    }

    private static List<String> members(String header) {
        List<String> out = new ArrayList<>();
        if (header != null) {
            for (String m : header.split(",")) {
                if (!m.isBlank()) {
                    out.add(m.trim());
                }
            }
        }
        return out;
    }

    private static List<Wanted> parse(String header, boolean structured) {
        List<Wanted> wanted = new ArrayList<>();
        for (String member : members(header)) {
            String[] parts = member.split(";", -1);
            String name;
            double preference = 1;
            if (structured) {
                int eq = parts[0].indexOf('=');
                name = eq < 0 ? parts[0].trim() : parts[0].substring(0, eq).trim();
                if (eq >= 0) {
                    preference = number(parts[0].substring(eq + 1));
                }
            } else {
                name = parts[0].trim();
                for (int i = 1; i < parts.length; i++) {
                    String p = parts[i].trim().toLowerCase(Locale.ROOT);
                    if (p.startsWith("q=")) {
                        preference = number(p.substring(2));
                    }
                }
            }
            ChecksumType t = ChecksumType.byName(name);
            if (t != null && preference > 0 && wanted.stream().noneMatch(w -> w.type() == t)) {
                wanted.add(new Wanted(t, name.toLowerCase(Locale.ROOT), preference));
            }
        }
        wanted.sort(Comparator.comparingDouble(Wanted::preference).reversed()); // stable: ties keep the client's order
        return List.copyOf(wanted);
    }

    private static double number(String s) {
        try {
            return Double.parseDouble(s.trim());
        } catch (NumberFormatException e) {
            return 0; // unreadable preference: treated as "not acceptable"
        }
    }
}
