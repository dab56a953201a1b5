package org.gridcache.common.checksum;

import java.nio.ByteBuffer;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.EnumMap;
import java.util.Map;
import java.util.zip.Adler32;
import java.util.zip.CRC32C;

/**
 * The chosen {@link ChecksumType}s of a byte stream in one pass, fed in file order. Not thread-safe: one writer at
 * a time (a pool's disk writer), with a happens-before edge between successive writers. ADLER32 and CRC32C are
 * intrinsics (GB/s) once compiled ({@link #compileEarly}); MD5 and SHA-256 bound the pass (a few hundred MB/s together
 * on one core).
 */
public final class ChecksumComputation {
    /** Calls that make HotSpot compile the updates with C2 (its tier-4 threshold is 5,000 invocations). */
    static final int COMPILE_CALLS = 20_000;
    private final Adler32 adler;
    private final CRC32C crc;
    private final MessageDigest md5;
    private final MessageDigest sha256;
    private long bytes;

    /** All four. */
    public ChecksumComputation() {
        this(java.util.EnumSet.allOf(ChecksumType.class));
    }

    public ChecksumComputation(java.util.Set<ChecksumType> types) {
        adler = types.contains(ChecksumType.ADLER32) ? new Adler32() : null;
        crc = types.contains(ChecksumType.CRC32C) ? new CRC32C() : null;
        md5 = types.contains(ChecksumType.MD5) ? digest("MD5") : null;
        sha256 = types.contains(ChecksumType.SHA256) ? digest("SHA-256") : null;
    }

    /**
     * Has HotSpot compile the ADLER32 and CRC32C updates now, with tiny calls: their intrinsics (vectorised: ADLER32 at
     * about 17 GB/s on the build VM) replace the JDK's fallbacks (zlib's scalar ADLER32, 2.7 GB/s) only in code C2
     * compiled, and a pool updates once per received buffer (1 MiB), so without this the first ~7 GiB a process filled
     * cost 0.38 s of CPU per GiB for ADLER32 alone instead of 0.06. About 20 ms of CPU, once per process; the compiling
     * itself goes on in the JIT's own threads.
     */
    public static void compileEarly() {
        java.util.Set<ChecksumType> cheap = java.util.EnumSet.of(ChecksumType.ADLER32, ChecksumType.CRC32C);
        ByteBuffer direct = ByteBuffer.allocateDirect(256);
        ByteBuffer heap = ByteBuffer.allocate(256);
        for (int i = 0; i < COMPILE_CALLS; i++) {
            ChecksumComputation c = new ChecksumComputation(cheap);
            c.update(direct.clear());
            c.update(heap.clear());
        }
    }

    private static MessageDigest digest(String name) {
        try {
            return MessageDigest.getInstance(name);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("this JVM has no " + name, e);
        }
    }

    /** Consumes the remaining bytes of {@code data} (its position ends at its limit). */
    public void update(ByteBuffer data) {
        int start = data.position();
        int end = data.limit();
        if (adler != null) {
            adler.update(data);
            data.position(start);
        }
        if (crc != null) {
            crc.update(data);
            data.position(start);
        }
        if (md5 != null) {
            md5.update(data);
            data.position(start);
        }
        if (sha256 != null) {
            sha256.update(data);
        }
        data.position(end);
        bytes += end - start;
    }

    public void update(byte[] data, int offset, int length) {
        update(ByteBuffer.wrap(data, offset, length));
    }

    /** Whether this computation includes {@code type}. */
    public boolean computes(ChecksumType type) {
        return switch (type) {
            case ADLER32 -> adler != null;
            case MD5 -> md5 != null;
            case SHA256 -> sha256 != null;
            case CRC32C -> crc != null;
        };
    }

    /**
     * Consumes {@code length} bytes of {@code file} from {@code from}, or those up to its end if it is shorter;
     * returns how many it consumed (a file read back, in the page cache when just written).
     */
    public long update(java.nio.channels.FileChannel file, long from, long length) throws java.io.IOException {
        ByteBuffer buf = ByteBuffer.allocate((int) Math.min(Math.max(length, 1), 1 << 20));
        long position = from;
        while (position < from + length) {
            buf.clear().limit((int) Math.min(buf.capacity(), from + length - position));
            int n = file.read(buf, position);
            if (n < 0) {
                break;
            }
            buf.flip();
            update(buf);
            position += n;
        }
        return position - from;
    }

    /** How many bytes went in. */
    public long bytes() {
        return bytes;
    }

    /** The checksums of everything fed; ends this computation. */
    public Checksums finish() {
        Map<ChecksumType, byte[]> v = new EnumMap<>(ChecksumType.class);
        if (adler != null) {
            v.put(ChecksumType.ADLER32, int32(adler.getValue()));
        }
        if (md5 != null) {
            v.put(ChecksumType.MD5, md5.digest());
        }
        if (sha256 != null) {
            v.put(ChecksumType.SHA256, sha256.digest());
        }
        if (crc != null) {
            v.put(ChecksumType.CRC32C, int32(crc.getValue()));
        }
        return Checksums.of(v);
    }

    private static byte[] int32(long value) {
        return ByteBuffer.allocate(4).putInt((int) value).array();
    }
}
