package org.gridcache.common.checksum;

import java.util.EnumMap;
import java.util.EnumSet;
import java.util.Map;
import java.util.Set;

/**
 * What a PUT says its body's checksums are ({@code Digest}, RFC 3230; {@code Content-MD5}, RFC 1864), checked against
 * what door or pool computed while the body passed. Algorithms gridcache does not know are ignored (RFC 3230 lets a
 * server do so); a value of a known one that does not parse is the client's error, so the PUT is refused before any
 * byte is written rather than checked against nothing.
 */
public final class UploadDigest {
    public static final String CONTENT_MD5 = "Content-MD5";
    public static final UploadDigest NONE = new UploadDigest(Checksums.NONE);
    private final Checksums expected;

    private UploadDigest(Checksums expected) {
        this.expected = expected;
    }

    /** Either header may be null; throws {@link IllegalArgumentException} with a one-line reason for a bad value. */
    public static UploadDigest of(String digest, String contentMd5) {
        Map<ChecksumType, byte[]> values = new EnumMap<>(ChecksumType.class);
        if (digest != null) {
            for (String member : digest.split(",")) {
                if (member.isBlank()) {
                    continue;
                }
                int eq = member.indexOf('=');
                if (eq <= 0) {
                    throw new IllegalArgumentException("bad Digest member (algorithm=value): " + shortened(member));
                }
                ChecksumType type = ChecksumType.byName(member.substring(0, eq).trim());
                if (type != null) {
                    put(values, type, parse(type, member.substring(eq + 1), "Digest " + type.rfc3230Name()));
                }
            }
        }
        if (contentMd5 != null) {
            put(values, ChecksumType.MD5, parse(ChecksumType.MD5, contentMd5, CONTENT_MD5));
        }
        return values.isEmpty() ? NONE : new UploadDigest(Checksums.of(values));
    }

    private static byte[] parse(ChecksumType type, String value, String what) {
        try {
            return type.parseRfc3230(value);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("bad " + what + " value: " + shortened(value));
        }
    }

    private static void put(Map<ChecksumType, byte[]> values, ChecksumType type, byte[] value) {
        byte[] before = values.putIfAbsent(type, value);
        if (before != null && !java.util.Arrays.equals(before, value)) {
            throw new IllegalArgumentException("Digest and Content-MD5 name two different md5 values");
        }
    }

    private static String shortened(String value) {
        String v = value.trim().lines().findFirst().orElse("");
        return v.length() > 80 ? v.substring(0, 80) + "…" : v;
    }

    public boolean isEmpty() {
        return expected.isEmpty();
    }

    public Checksums expected() {
        return expected;
    }

    /** The types to compute: those the client gave, plus {@code kept} (what a pool keeps in its sidecar). */
    public ChecksumComputation computation(Set<ChecksumType> kept) {
        Set<ChecksumType> types = EnumSet.noneOf(ChecksumType.class);
        types.addAll(kept);
        for (ChecksumType t : ChecksumType.values()) {
            if (expected.has(t)) {
                types.add(t);
            }
        }
        return new ChecksumComputation(types);
    }

    /** Null when {@code computed} agrees with every value the client gave, else the one-line reason for the 400. */
    public String mismatch(Checksums computed) {
        Map<ChecksumType, byte[]> differ = computed.disagreements(expected);
        if (differ.isEmpty()) {
            return null;
        }
        ChecksumType t = differ.keySet().iterator().next();
        return "checksum mismatch: the body's " + t.rfc3230Name() + " is " + t.rfc3230Value(computed.get(t))
                + ", the request said " + t.rfc3230Value(expected.get(t));
    }
}
