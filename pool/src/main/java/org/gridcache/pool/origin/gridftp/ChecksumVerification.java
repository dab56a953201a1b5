package org.gridcache.pool.origin.gridftp;

import java.io.IOException;
import java.net.URI;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.util.List;
import java.util.Map;
import org.gridcache.common.checksum.ChecksumType;
import org.gridcache.common.checksum.Checksums;
import org.gridcache.common.settings.GridFtpChecksum;
import org.gridcache.gridftp.Checksum;
import org.gridcache.gridftp.GridFtpConnection;
import org.gridcache.gridftp.GridFtpException;
import org.gridcache.pool.http.FetchException;
import org.gridcache.pool.origin.DownloadSink;
import org.gridcache.pool.origin.OriginFetcher;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A GridFTP file becomes a hit only when what the pool wrote has the origin's checksum (CKSM): a bit flipped on the
 * wire or in memory is caught before any client gets the last byte (the sink holds it back until verified), and the
 * file is discarded. The pool computes the algorithm it will ask for while the file fills (on the disk writer, over
 * the very buffers it writes), so the origin's value is compared with that ({@link #asOffered}); only when the origin
 * answers in the other algorithm is the part file read back ({@link #verify}), which for a large file costs as long
 * as reading it from the page cache.
 */
final class ChecksumVerification {
    private static final Logger LOG = LoggerFactory.getLogger(ChecksumVerification.class);

    record Expected(Checksum algorithm, String value) {
    }

    private ChecksumVerification() {
    }

    /**
     * The origin's checksum in the {@code wanted} algorithm (cluster setting {@code gridftp.checksum}), else the
     * other one; null when it offers neither or {@code wanted} is none.
     */
    static Expected expected(GridFtpConnection conn, String path, GridFtpChecksum wanted) throws GridFtpException {
        if (wanted == GridFtpChecksum.NONE) {
            return null;
        }
        List<Checksum> order = wanted == GridFtpChecksum.MD5 ? List.of(Checksum.MD5, Checksum.ADLER32) : List.of(Checksum.ADLER32, Checksum.MD5);
        for (Checksum c : order) {
            String v = conn.checksum(c, path);
            if (v != null) {
                return new Expected(c, v);
            }
        }
        LOG.info("GridFTP origin offers no checksum for {}: verified by size only", path);
        return null;
    }

    /** The type the pool computes to compare with the origin's {@code wanted} checksum; {@code wanted} is not none. */
    static ChecksumType typeOf(GridFtpChecksum wanted) {
        return wanted == GridFtpChecksum.MD5 ? ChecksumType.MD5 : ChecksumType.ADLER32;
    }

    /** The origin's value as the sink compares it, when the sink computes that algorithm; null when it does not. */
    static Checksums asOffered(Expected expected, DownloadSink sink) {
        ChecksumType type = switch (expected.algorithm()) {
            case ADLER32 -> ChecksumType.ADLER32;
            case MD5 -> ChecksumType.MD5;
        };
        if (!sink.computes(type)) {
            return null;
        }
        Checksums offered = Checksums.fromHex(
                Map.of(type.rfc3230Name(), expected.value()));
        return offered.isEmpty() ? null : offered; // a value of the wrong length: read back, where it fails as a mismatch
    }

    /** Reads the part file back and compares its checksum with the origin's: a mismatch discards the file. */
    static void verify(FileChannel file, long size, Expected expected, URI origin) throws IOException, FetchException {
        Checksum.Digest digest = expected.algorithm().newDigest();
        ByteBuffer buf = ByteBuffer.allocateDirect(1 << 20);
        long position = 0;
        while (position < size) {
            buf.clear();
            int n = file.read(buf, position);
            if (n < 0) {
                break;
            }
            buf.flip();
            digest.update(buf);
            position += n;
        }
        String actual = digest.hex();
        if (!actual.equals(expected.value())) {
            throw FetchException.checksumMismatch("checksum mismatch: origin " + OriginFetcher.describe(origin) + " has "
                    + expected.algorithm() + " " + expected.value() + ", the pool received " + actual + " (file discarded)");
        }
    }
}
