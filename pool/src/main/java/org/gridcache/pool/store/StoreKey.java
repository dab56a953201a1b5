package org.gridcache.pool.store;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;

/**
 * A stored file's name: the SHA-256 of its origin URL, kept as four longs (48 bytes of heap instead of a 64-char
 * hex String plus the URL), because the index holds one per cached file.
 */
public final class StoreKey {
    private final long a;
    private final long b;
    private final long c;
    private final long d;

    private StoreKey(long a, long b, long c, long d) {
        this.a = a;
        this.b = b;
        this.c = c;
        this.d = d;
    }

    /**
     * The keys of the URLs asked for lately: a hit asks once per request, and the SHA-256 (with its provider lookup)
     * was a visible part of a small file's hit. A pure function's results, so nothing here can be stale.
     */
    // the upkeep after a write runs on the writer (an event loop; a few entries' worth), not handed to the common pool:
    // waking one of its threads put a context switch on every miss's first byte
    private static final Cache<String, StoreKey> RECENT = Caffeine.newBuilder().maximumSize(4096).executor(Runnable::run).build();

    public static StoreKey ofOrigin(String originUrl) {
        return RECENT.get(originUrl, StoreKey::hashOf);
    }

    /** As {@link #ofOrigin}, past the cache of recent keys: a restart hashes every stored URL once, and would only churn it. */
    static StoreKey hashOf(String originUrl) {
        try {
            byte[] hash = MessageDigest.getInstance("SHA-256").digest(originUrl.getBytes(StandardCharsets.UTF_8));
            ByteBuffer buf = ByteBuffer.wrap(hash);
            return new StoreKey(buf.getLong(), buf.getLong(), buf.getLong(), buf.getLong());
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JVM has SHA-256", e);
        }
    }

    /** Parses a 64-digit lower-case hex name; null when {@code hex} is not one (a stray file in the store). */
    static StoreKey ofHex(String hex) {
        if (hex.length() != 64 || !hex.chars().allMatch(ch -> (ch >= '0' && ch <= '9') || (ch >= 'a' && ch <= 'f'))) {
            return null;
        }
        return new StoreKey(Long.parseUnsignedLong(hex.substring(0, 16), 16), Long.parseUnsignedLong(hex.substring(16, 32), 16),
                Long.parseUnsignedLong(hex.substring(32, 48), 16), Long.parseUnsignedLong(hex.substring(48, 64), 16));
    }

    /** The 64 hex digits (not kept: a key stays four longs; made once per request that opens the file). */
    String hex() {
        byte[] digits = new byte[64];
        hex16(a, digits, 0);
        hex16(b, digits, 16);
        hex16(c, digits, 32);
        hex16(d, digits, 48);
        return new String(digits, java.nio.charset.StandardCharsets.ISO_8859_1);
    }

    private static final byte[] HEX = "0123456789abcdef".getBytes(java.nio.charset.StandardCharsets.US_ASCII);

    private static void hex16(long v, byte[] into, int at) {
        for (int i = 15; i >= 0; i--) {
            into[at + i] = HEX[(int) (v & 0xf)];
            v >>>= 4;
        }
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof StoreKey k && k.a == a && k.b == b && k.c == c && k.d == d;
    }

    @Override
    public int hashCode() {
        return (int) a; // already a uniform hash
    }

    @Override
    public String toString() {
        return hex();
    }
}
