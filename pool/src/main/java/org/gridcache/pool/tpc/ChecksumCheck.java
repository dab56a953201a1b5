package org.gridcache.pool.tpc;

import java.util.Arrays;
import java.util.Locale;
import org.gridcache.common.checksum.ChecksumType;
import org.gridcache.common.checksum.Checksums;
import org.gridcache.common.checksum.DigestRequest;

/**
 * A third-party copy's end-to-end check, as the COPY asks for it: {@code RequireChecksumVerification} (default true,
 * as dCache: a copy the remote gives no checksum for fails) and {@code Want-Digest} (the algorithm; default adler32,
 * what WLCG storage keeps). The pool compares the remote's {@code Digest} with what it computed or keeps.
 */
record ChecksumCheck(boolean required, ChecksumType type) {
    static final String REQUIRE = "RequireChecksumVerification";

    /** From the COPY's headers (either may be null); an unknown algorithm or a bad flag is an {@link IllegalArgumentException}. */
    static ChecksumCheck of(String require, String wantDigest) {
        boolean required = true;
        if (require != null) {
            required = switch (require.trim().toLowerCase(Locale.ROOT)) {
                case "true" -> true;
                case "false" -> false;
                default -> throw new IllegalArgumentException("bad " + REQUIRE + " (true or false)");
            };
        }
        ChecksumType type = ChecksumType.ADLER32;
        if (wantDigest != null && !wantDigest.isBlank()) {
            type = null;
            for (String member : wantDigest.split(",")) {
                String name = member.split(";", 2)[0];
                type = name.isBlank() ? null : ChecksumType.byName(name);
                if (type != null) {
                    break;
                }
            }
            if (type == null) {
                throw new IllegalArgumentException("Want-Digest names no checksum this pool computes (adler32, md5, sha-256, crc32c)");
            }
        }
        return new ChecksumCheck(required, type);
    }

    /** The {@code Want-Digest} to send the remote. */
    String want() {
        return type.rfc3230Name();
    }

    /**
     * Null when the remote's {@code Digest} answer ({@code digest}, may be null) agrees with {@code ours}, or when it
     * gave none and none is required; else why the copy fails.
     */
    String mismatch(String digest, String reprDigest, Checksums ours) {
        byte[] theirs = DigestRequest.offered(digest, reprDigest).get(type);
        byte[] mine = ours.get(type);
        if (theirs == null) {
            return required ? "the remote gave no " + type.rfc3230Name() + " checksum and RequireChecksumVerification is true" : null;
        }
        if (mine == null) {
            return required ? "this pool has no " + type.rfc3230Name() + " checksum of the file to compare" : null;
        }
        if (!Arrays.equals(theirs, mine)) {
            return "checksum mismatch: the remote's " + type.rfc3230Name() + " is " + type.rfc3230Value(theirs) + ", the copy's is "
                    + type.rfc3230Value(mine);
        }
        return null;
    }
}
