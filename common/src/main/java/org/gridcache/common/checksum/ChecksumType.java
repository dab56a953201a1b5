package org.gridcache.common.checksum;

import java.util.Base64;
import java.util.HexFormat;
import java.util.Locale;

/**
 * The checksums gridcache computes, keeps and answers: ADLER32 (what WLCG storage keeps), MD5, SHA-256 and CRC32C.
 * Each has its RFC 3230 name and value encoding, as dCache and XRootD answer {@code Digest} (IANA's HTTP Digest
 * Algorithm Values: ADLER32 and CRC32C as 8 hex digits, MD5 and SHA-256 base64), and its RFC 9530 name, whose
 * values are always structured-field byte sequences ({@code :base64:}); RFC 9530's registry spells ADLER32
 * {@code adler} (WLCG treats {@code adler32} as the same).
 */
public enum ChecksumType {
    ADLER32("adler32", "adler", 4, true),
    MD5("md5", "md5", 16, false),
    SHA256("sha-256", "sha-256", 32, false),
    CRC32C("crc32c", "crc32c", 4, true);

    private final String rfc3230;
    private final String rfc9530;
    private final int length;
    private final boolean hexIn3230;

    ChecksumType(String rfc3230, String rfc9530, int length, boolean hexIn3230) {
        this.rfc3230 = rfc3230;
        this.rfc9530 = rfc9530;
        this.length = length;
        this.hexIn3230 = hexIn3230;
    }

    /** The RFC 3230 name, lower case (also the key in a pool's sidecar and dCache's Checksums property). */
    public String rfc3230Name() {
        return rfc3230;
    }

    /** The name in RFC 9530's Hash Algorithms for HTTP Digest Fields registry. */
    public String rfc9530Name() {
        return rfc9530;
    }

    /**
     * Whether it is computed at GB/s (CPU intrinsics: ADLER32, CRC32C), so that any thread may compute it on the way
     * without slowing much; MD5 and SHA-256 run at a few hundred MB/s together.
     */
    public boolean cheap() {
        return this == ADLER32 || this == CRC32C;
    }

    /** The digest's length in bytes. */
    public int length() {
        return length;
    }

    /** The value as an RFC 3230 {@code Digest} header gives it. */
    public String rfc3230Value(byte[] digest) {
        return hexIn3230 ? HexFormat.of().formatHex(digest) : Base64.getEncoder().encodeToString(digest);
    }

    /** The value as an RFC 9530 {@code Repr-Digest} member gives it: a byte sequence. */
    public String rfc9530Value(byte[] digest) {
        return ":" + Base64.getEncoder().encodeToString(digest) + ":";
    }

    /** Reads an RFC 3230 value; tolerant of what servers send (upper-case hex, an ADLER32 without leading zeros). */
    public byte[] parseRfc3230(String value) {
        String v = value.trim();
        byte[] digest;
        if (hexIn3230) {
            v = v.toLowerCase(Locale.ROOT);
            if (v.length() > 2 * length || v.isEmpty()) {
                throw new IllegalArgumentException(rfc3230 + " value is " + 2 * length + " hex digits");
            }
            digest = HexFormat.of().parseHex("0".repeat(2 * length - v.length()) + v);
        } else {
            digest = Base64.getDecoder().decode(v);
        }
        return checked(digest);
    }

    /** Reads an RFC 9530 byte sequence ({@code :base64:}). */
    public byte[] parseRfc9530(String value) {
        String v = value.trim();
        if (v.length() < 2 || v.charAt(0) != ':' || v.charAt(v.length() - 1) != ':') {
            throw new IllegalArgumentException(rfc9530 + " value is a byte sequence :base64:");
        }
        return checked(Base64.getDecoder().decode(v.substring(1, v.length() - 1)));
    }

    private byte[] checked(byte[] digest) {
        if (digest.length != length) {
            throw new IllegalArgumentException(rfc3230 + " value is " + length + " bytes, not " + digest.length);
        }
        return digest;
    }

    /** By an RFC 3230 or RFC 9530 name, any case ({@code adler} and {@code adler32} alike); null if unknown. */
    public static ChecksumType byName(String name) {
        String n = name.trim().toLowerCase(Locale.ROOT);
        for (ChecksumType t : values()) {
            if (t.rfc3230.equals(n) || t.rfc9530.equals(n)) {
                return t;
            }
        }
        return null;
    }
}
