package org.gridcache.gridftp;

import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import org.globus.ftp.Buffer;
import org.globus.ftp.DataSource;

/**
 * A store's bytes, read from the caller's stream a block at a time (never more than one block in memory), exactly
 * {@code length} of them. When the stream fails, ends early or runs on, the failure ends jGlobus' transfer thread,
 * which closes the data channel. In stream mode a closed data channel is the end of the file: the server answers 226
 * and keeps what it received, so the caller deletes the file after a failure.
 */
final class UploadSource implements DataSource {
    static final int BLOCK = 64 * 1024;

    private final InputStream in;
    private final long length;
    private volatile long sent;
    private volatile IOException failure;

    UploadSource(InputStream in, long length) {
        if (length < 0) {
            throw new IllegalArgumentException("length must be known and not negative (got " + length + ")");
        }
        this.in = in;
        this.length = length;
    }

    @Override
    public Buffer read() throws IOException {
        if (failure != null) {
            throw failure;
        }
        try {
            if (sent == length) {
                if (in.read() != -1) {
                    throw new IOException("the upload stream has more than the announced " + length + " bytes");
                }
                return null;
            }
            byte[] block = new byte[(int) Math.min(BLOCK, length - sent)];
            int n = in.read(block);
            if (n < 0) {
                throw new EOFException("the upload stream ended after " + sent + " of " + length + " bytes");
            }
            sent += n;
            return new Buffer(block, n);
        } catch (IOException | RuntimeException e) {
            fail(e instanceof IOException io ? io : new IOException(ReplyClassifier.oneLine(e), e));
            throw failure;
        }
    }

    private void fail(IOException e) {
        if (failure == null) {
            failure = e;
        }
    }

    /** The first failure of the stream, null while there is none. */
    IOException failure() {
        return failure;
    }

    /** Bytes handed to the data channel so far. */
    long sent() {
        return sent;
    }

    @Override
    public void close() {
        // the caller owns the stream
    }

    @Override
    public long totalSize() {
        return length;
    }
}
