package org.gridcache.common.checksum;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Known vectors: RFC 3720 (CRC32C of "123456789"), RFC 1321 and FIPS 180-2 ("abc"), zlib's adler32. */
class ChecksumsTest {
    private static Checksums of(String text) {
        ChecksumComputation c = new ChecksumComputation();
        c.update(ByteBuffer.wrap(text.getBytes(StandardCharsets.US_ASCII)));
        return c.finish();
    }

    @Test
    void computesKnownVectors() {
        Map<String, String> hex = of("123456789").toHex();
        assertEquals("091e01de", hex.get("adler32"));
        assertEquals("e3069283", hex.get("crc32c"));
        assertEquals("25f9e794323b453885f5181f1b624d0b", hex.get("md5"));
        Map<String, String> abc = of("abc").toHex();
        assertEquals("900150983cd24fb0d6963f7d28e17f72", abc.get("md5"));
        assertEquals("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad", abc.get("sha-256"));
        assertEquals("11e60398", of("Wikipedia").toHex().get("adler32"));
        assertEquals("00000001", of("").toHex().get("adler32")); // zero-padded to 8 hex digits
        assertEquals("00000000", of("").toHex().get("crc32c"));
    }

    @Test
    void onePassInPiecesEqualsWhole() {
        ChecksumComputation c = new ChecksumComputation();
        byte[] b = "12345".getBytes(StandardCharsets.US_ASCII);
        c.update(b, 0, 2);
        ByteBuffer direct = ByteBuffer.allocateDirect(8).put("3456789".getBytes(StandardCharsets.US_ASCII)).flip();
        c.update(direct);
        assertEquals(0, direct.remaining());
        assertEquals(9, c.bytes());
        assertEquals(of("123456789").toHex(), c.finish().toHex());
    }

    @Test
    void computesOnlyTheChosenTypesAsPoolChecksumsSays() {
        org.gridcache.common.settings.ClusterSettings chosen = org.gridcache.common.settings.ClusterSettings.of(
                Map.of("pool.checksums", "ADLER32, md5"));
        ChecksumComputation c = new ChecksumComputation(chosen.get(org.gridcache.common.settings.ClusterSettings.Keys.POOL_CHECKSUMS));
        c.update(ByteBuffer.wrap("123456789".getBytes(StandardCharsets.US_ASCII)));
        assertEquals(Map.of("adler32", "091e01de", "md5", "25f9e794323b453885f5181f1b624d0b"), c.finish().toHex());
        assertEquals(java.util.EnumSet.of(ChecksumType.ADLER32, ChecksumType.CRC32C), org.gridcache.common.settings.ClusterSettings.of(Map.of())
                .get(org.gridcache.common.settings.ClusterSettings.Keys.POOL_CHECKSUMS), "by default the cheap ones, as XRootD and dCache");
        assertTrue(org.gridcache.common.settings.ClusterSettings.of(Map.of("pool.checksums", ""))
                .get(org.gridcache.common.settings.ClusterSettings.Keys.POOL_CHECKSUMS).isEmpty());
        IllegalArgumentException refused = assertThrows(IllegalArgumentException.class,
                () -> org.gridcache.common.settings.ClusterSettings.Keys.POOL_CHECKSUMS.parse("adler32, sha-512"));
        assertTrue(refused.getMessage().contains("sha-512"), refused.getMessage());
    }

        @Test
    void rfc3230EncodingsAreDcacheAndXrootdForms() {
        Checksums abc = of("abc");
        DigestRequest all = DigestRequest.of("adler32, md5, sha-256, crc32c", null);
        assertEquals("adler32=024d0127,md5=kAFQmDzST7DWlj99KOF/cg==,sha-256=ungWv48Bz+pBQUDeXa4iI7ADYaOWF3qctBD/YfIAFa0=,crc32c=364b3fb7",
                all.digest(abc));
        assertEquals(all.digest(abc), abc.rfc3230()); // dCache's Checksums property: the same form, every known type
    }

    @Test
    void rfc9530EncodingsAreByteSequences() {
        Checksums abc = of("abc");
        DigestRequest r = DigestRequest.of(null, "sha-256=10, adler=3, md5=1, crc32c=2");
        assertEquals("sha-256=:ungWv48Bz+pBQUDeXa4iI7ADYaOWF3qctBD/YfIAFa0=:, adler=:Ak0BJw==:, crc32c=:Nks/tw==:, md5=:kAFQmDzST7DWlj99KOF/cg==:",
                r.reprDigest(abc));
        assertNull(r.digest(abc)); // Want-Repr-Digest alone asks for no Digest
        // WLCG spells RFC 9530's adler "adler32": the answer uses the client's spelling
        assertEquals("adler32=:Ak0BJw==:", DigestRequest.of(null, "adler32=5").reprDigest(abc));
    }

    @Test
    void wantDigestHonoursQValuesCaseAndUnknowns() {
        Checksums abc = of("abc");
        assertEquals("md5=kAFQmDzST7DWlj99KOF/cg==,adler32=024d0127",
                DigestRequest.of("ADLER32;q=0.3, MD5;q=0.9, sha-512, unixsum", null).digest(abc));
        assertNull(DigestRequest.of("adler32;q=0", null).digest(abc));
        assertNull(DigestRequest.of("sha-512", null).digest(abc));
        assertTrue(DigestRequest.of("sha-512, ;;, =", "x=:AA==:").isEmpty());
        assertNull(DigestRequest.of("md5", null).digest(Checksums.NONE));
        assertNull(DigestRequest.of(null, "md5=0").reprDigest(abc));
    }

    @Test
    void theTypesAskedForAreThoseOfBothHeadersWithoutUnknownsOrRefusals() {
        DigestRequest asked = DigestRequest.of("adler32, md5;q=0, unixsum", "sha-256=10, crc32c=0");
        assertEquals(java.util.EnumSet.of(ChecksumType.ADLER32, ChecksumType.SHA256), asked.types());
        Checksums adler = of("abc").only(java.util.EnumSet.of(ChecksumType.ADLER32));
        assertFalse(asked.answeredBy(adler)); // sha-256 is missing
        assertTrue(asked.answeredBy(of("abc")));
        assertTrue(DigestRequest.NONE.answeredBy(Checksums.NONE));
    }

    @Test
    void readsWhatOriginsOffer() {
        Checksums offered = DigestRequest.offered("ADLER32=24D0127, md5=kAFQmDzST7DWlj99KOF/cg==, sha=qZk+NkcGgWq6PiVxeFDCbJzQ2J0=",
                "sha-256=:ungWv48Bz+pBQUDeXa4iI7ADYaOWF3qctBD/YfIAFa0=:, crc32c=:bogus");
        assertEquals(Map.of("adler32", "024d0127", "md5", "900150983cd24fb0d6963f7d28e17f72",
                "sha-256", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"), offered.toHex());
        assertTrue(of("abc").disagreements(offered).isEmpty());
        assertEquals(1, of("abd").disagreements(DigestRequest.offered("md5=kAFQmDzST7DWlj99KOF/cg==", null)).size());
        assertTrue(DigestRequest.offered("adler32=xyz, md5=!!", null).isEmpty());
    }

    @Test
    void sidecarFormRoundTripsAndRejectsGarbage() {
        Checksums abc = of("abc");
        assertEquals(abc.toHex(), Checksums.fromHex(abc.toHex()).toHex());
        assertTrue(Checksums.fromHex(null).isEmpty());
        assertTrue(Checksums.fromHex(Map.of("adler32", "zz000000", "md5", "12", "sha-512", "00")).isEmpty());
        assertThrows(IllegalArgumentException.class, () -> ChecksumType.ADLER32.parseRfc3230("123456789"));
        assertThrows(IllegalArgumentException.class, () -> ChecksumType.MD5.parseRfc9530("kAFQmDzST7DWlj99KOF/cg=="));
    }
}
