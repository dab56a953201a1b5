package org.gridcache.gridftp;

import java.nio.ByteBuffer;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Locale;
import java.util.zip.Adler32;

/**
 * The checksum algorithms a GridFTP server computes with CKSM that a client can recompute over what it received:
 * ADLER32 (8 hex digits, what WLCG storage keeps) and MD5. Values compare as lower-case hex.
 */
public enum Checksum {
    ADLER32, MD5;

    /** An incremental computation of this checksum. */
    public interface Digest {
        void update(ByteBuffer data);

        /** Lower-case hex, ADLER32 zero-padded to 8 digits. */
        String hex();
    }

    public Digest newDigest() {
        if (this == ADLER32) {
            Adler32 adler = new Adler32();
            return new Digest() {
                @Override
                public void update(ByteBuffer data) {
                    adler.update(data);
                }

                @Override
                public String hex() {
                    return String.format(Locale.ROOT, "%08x", adler.getValue());
                }
            };
        }
        MessageDigest md;
        try {
            md = MessageDigest.getInstance("MD5");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("this JVM has no MD5", e);
        }
        return new Digest() {
            @Override
            public void update(ByteBuffer data) {
                md.update(data);
            }

            @Override
            public String hex() {
                return HexFormat.of().formatHex(md.digest());
            }
        };
    }

    /** A server's value in the form {@link Digest#hex()} gives (lower case, ADLER32 padded). */
    public String normalize(String value) {
        String v = value.trim().toLowerCase(Locale.ROOT);
        if (this == ADLER32) {
            while (v.length() < 8) {
                v = "0" + v;
            }
        }
        return v;
    }

    public static Checksum parse(String s) {
        try {
            return valueOf(s.trim().toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException | NullPointerException e) {
            throw new IllegalArgumentException("checksum is adler32 or md5 (got '" + s + "')");
        }
    }
}
