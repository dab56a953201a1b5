package org.gridcache.door.write;

import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import org.gridcache.common.checksum.ChecksumComputation;

/** A PUT's body on its way to the origin, checksummed as it passes (one pass, nothing kept). */
final class ChecksummedBody extends FilterInputStream {
    private final ChecksumComputation computation;

    ChecksummedBody(InputStream body, ChecksumComputation computation) {
        super(body);
        this.computation = computation;
    }

    @Override
    public int read() throws IOException {
        int b = super.read();
        if (b >= 0) {
            computation.update(new byte[] {(byte) b}, 0, 1);
        }
        return b;
    }

    @Override
    public int read(byte[] buffer, int offset, int length) throws IOException {
        int n = super.read(buffer, offset, length);
        if (n > 0) {
            computation.update(buffer, offset, n);
        }
        return n;
    }

    @Override
    public long skip(long n) {
        return 0; // every byte must pass through the computation
    }
}
