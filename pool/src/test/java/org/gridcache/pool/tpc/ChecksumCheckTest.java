package org.gridcache.pool.tpc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.Set;
import org.gridcache.common.checksum.ChecksumComputation;
import org.gridcache.common.checksum.ChecksumType;
import org.gridcache.common.checksum.Checksums;
import org.junit.jupiter.api.Test;

/** RequireChecksumVerification and Want-Digest on a COPY, and the remote's Digest compared. */
class ChecksumCheckTest {
    private static final Checksums OURS = checksums("hello");

    private static Checksums checksums(String text) {
        ChecksumComputation c = new ChecksumComputation(Set.of(ChecksumType.ADLER32, ChecksumType.MD5));
        byte[] b = text.getBytes(StandardCharsets.US_ASCII);
        c.update(b, 0, b.length);
        return c.finish();
    }

    @Test
    void defaultsAsDCacheRequiredAdler32() {
        ChecksumCheck check = ChecksumCheck.of(null, null);
        assertTrue(check.required());
        assertEquals(ChecksumType.ADLER32, check.type());
        assertEquals("adler32", check.want());
        assertEquals(ChecksumType.MD5, ChecksumCheck.of("false", "sha-512;q=1, md5;q=0.5").type());
        assertFalse(ChecksumCheck.of("FALSE", null).required());
        assertThrows(IllegalArgumentException.class, () -> ChecksumCheck.of("maybe", null));
        assertThrows(IllegalArgumentException.class, () -> ChecksumCheck.of(null, "sha-512"));
    }

    @Test
    void agreesMismatchesOrMissesAsRequired() {
        ChecksumCheck required = ChecksumCheck.of(null, null);
        String adler = ChecksumType.ADLER32.rfc3230Value(OURS.get(ChecksumType.ADLER32));
        assertNull(required.mismatch("adler32=" + adler, null, OURS));
        assertTrue(required.mismatch("adler32=00000001", null, OURS).startsWith("checksum mismatch: the remote's adler32 is 00000001"));
        assertEquals("the remote gave no adler32 checksum and RequireChecksumVerification is true", required.mismatch(null, null, OURS));
        assertNull(ChecksumCheck.of("false", null).mismatch(null, null, OURS), "not required, none given: fine");
        assertTrue(ChecksumCheck.of("false", null).mismatch("adler32=00000001", null, OURS).startsWith("checksum mismatch"),
                "a value given is compared even when not required");
    }
}
