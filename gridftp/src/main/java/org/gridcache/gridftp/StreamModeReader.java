package org.gridcache.gridftp;

import java.io.IOException;
import java.io.InputStream;
import org.globus.ftp.Buffer;
import org.globus.ftp.dc.DataChannelReader;

/**
 * Reads a stream-mode (MODE S, TYPE I) retrieve into one array per data channel, reused for every read. jGlobus' own
 * reader allocates a new 512,000-byte array for each socket read, however few bytes arrive (tens of KiB on loopback):
 * 8 GB of young generation for 1.75 GiB received in gridftp-bench, so many young collections that the bytes waiting for
 * the pool's disk and clients were promoted and the heap grew into memory never touched before. Reuse is safe because jGlobus
 * hands each buffer to the sink on the reading thread before it reads again ({@code TransferSinkThread.copy}), and
 * the sink ({@link ModeEReorderBuffer}, always in order in stream mode) hands it to a {@link GridFtpConnection.Receiver},
 * which copies what it keeps (the pool: into direct memory it reuses). Each read is one socket read, as jGlobus' is:
 * the bytes that came are handed on at once.
 */
public final class StreamModeReader implements DataChannelReader {
    /** As large as jGlobus' reads, so a read takes whatever the socket holds. */
    static final int SIZE = 512 * 1024;
    private final byte[] array = new byte[SIZE];
    private InputStream input;

    /** Makes jGlobus use this reader for every stream-mode image retrieve in this process. */
    static void install() {
        DataChannelReaders.replace(DataChannelReaders.STREAM_IMAGE, "stream-mode image", StreamModeReader.class);
    }

    /** The reader jGlobus uses for stream-mode image retrieves now. */
    static Class<?> installed() {
        return DataChannelReaders.installed(DataChannelReaders.STREAM_IMAGE);
    }

    @Override
    public void setDataStream(InputStream in) {
        this.input = in;
    }

    @Override
    public Buffer read() throws IOException {
        int n = input.read(array);
        return n < 0 ? null : new Buffer(array, n);
    }

    @Override
    public void close() throws IOException {
        input.close();
    }
}
