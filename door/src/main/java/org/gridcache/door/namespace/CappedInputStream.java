package org.gridcache.door.namespace;

import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;

/** Reads at most {@code max} bytes of a stream; one more is {@link LimitExceeded}, never a silent truncation. */
final class CappedInputStream extends FilterInputStream {
    private final long max;
    private long read;

    CappedInputStream(InputStream in, long max) {
        super(in);
        this.max = max;
    }

    /** The stream holds more than the cap. Unchecked, so that it passes through the XML parser unchanged. */
    static final class LimitExceeded extends RuntimeException {
        private static final long serialVersionUID = 1L;

        LimitExceeded() {
            super(null, null, false, false);
        }
    }

    @Override
    public int read() throws IOException {
        int b = super.read();
        if (b >= 0) {
            count(1);
        }
        return b;
    }

    @Override
    public int read(byte[] buffer, int offset, int length) throws IOException {
        int n = super.read(buffer, offset, (int) Math.min(length, max - read + 1));
        if (n > 0) {
            count(n);
        }
        return n;
    }

    @Override
    public long skip(long n) throws IOException {
        long skipped = super.skip(Math.min(n, max - read + 1));
        count(skipped);
        return skipped;
    }

    private void count(long n) {
        read += n;
        if (read > max) {
            throw new LimitExceeded();
        }
    }
}
