package org.gridcache.gridftp;

import java.io.IOException;
import java.io.InputStream;
import java.util.Map;
import org.globus.ftp.Buffer;
import org.globus.ftp.dc.AbstractDataChannel;
import org.globus.ftp.dc.DataChannelReader;

/**
 * Reads a stream-mode (MODE S, TYPE I) retrieve in blocks of {@link #BLOCK} bytes filled with what the socket holds.
 * jGlobus' own reader allocates 512,000 zeroed bytes for each single socket read however few arrive, and each such
 * part-filled array must then be copied to be kept ({@link ModeEReorderBuffer#own}). This one goes on reading into
 * the block while the socket has bytes waiting, so on a fast server the blocks are full and the sink keeps them as
 * they are (no copy, a quarter of the zeroing); on a slow one it hands on what came at once, as jGlobus does.
 */
public final class FullBlockStreamReader implements DataChannelReader {
    /** Big enough for few calls per megabyte, small enough that a block's wait adds no visible latency. */
    static final int BLOCK = 256 * 1024;
    private InputStream input;

    /**
     * Makes jGlobus use this reader for every stream-mode image retrieve in this process. jGlobus keys its readers by
     * mode, type and direction in a static table that refuses a second registration, so the entry is replaced in the
     * table itself (a subclass may reach it).
     */
    static void install() {
        Handlers.replaceStreamImageSource(FullBlockStreamReader.class);
    }

    /** The reader jGlobus uses for stream-mode image retrieves now. */
    static Class<?> streamImageSource() {
        return Handlers.streamImageSource();
    }

    @Override
    public void setDataStream(InputStream in) {
        this.input = in;
    }

    @Override
    public Buffer read() throws IOException {
        byte[] block = new byte[BLOCK];
        int filled = 0;
        while (filled < BLOCK) {
            int n = input.read(block, filled, BLOCK - filled);
            if (n < 0) {
                break;
            }
            filled += n;
            if (input.available() == 0) {
                break; // hand on what came rather than wait for more: a slow server still shows progress to the watchdog
            }
        }
        return filled == 0 ? null : new Buffer(block, filled);
    }

    @Override
    public void close() throws IOException {
        input.close();
    }

    /** Only to reach jGlobus' handler table; never instantiated. */
    private abstract static class Handlers extends AbstractDataChannel {
        private static final String STREAM_IMAGE_SOURCE = "S-I-R"; // AbstractDataChannel.getHandlerID(S, I, SOURCE)

        private Handlers() {
            super(null);
        }

        @SuppressWarnings("unchecked")
        static synchronized Class<?> streamImageSource() {
            return ((Map<String, Class<?>>) dataHandlers).get(STREAM_IMAGE_SOURCE);
        }

        @SuppressWarnings("unchecked")
        static synchronized void replaceStreamImageSource(Class<? extends DataChannelReader> reader) {
            Map<String, Class<?>> table = (Map<String, Class<?>>) dataHandlers;
            if (!table.containsKey(STREAM_IMAGE_SOURCE)) {
                throw new IllegalStateException("jGlobus has no stream-mode image reader under " + STREAM_IMAGE_SOURCE);
            }
            table.put(STREAM_IMAGE_SOURCE, reader);
        }
    }
}
