package org.gridcache.gridftp;

import java.io.IOException;
import org.globus.ftp.Buffer;
import org.globus.ftp.dc.EBlockImageDCReader;

/**
 * Reads a MODE E image retrieve (parallel streams, partial retrieves) in pieces of at most {@link #PIECE} bytes, each
 * in an array of its own. jGlobus' own reader allocates one array of the size a block's header declares, cast to an
 * int, before a byte of the block arrives: up to 2 GiB at once (from half a G1 region on, 512 KiB with a 2 GiB heap,
 * each a humongous object), and for a larger size an array of its low 32 bits (an empty one for 2^40, after which the
 * block's bytes were taken for headers) or an exception. Here a header sizes no allocation: a block is read as its
 * bytes come, whatever its size, and one of the server's default size (256 KiB) is one piece, as before. Each piece's
 * array is new and full, so a piece that must wait for a gap waits as it is ({@link ModeEReorderBuffer#own}). Arrays
 * reused from a pool were tried and ran slower: the socket's copy into an array no longer in the CPU's caches cost
 * more than the zeroing of a new one, which brings it in (ARCHITECTURE.md, "Performance design").
 *
 * <p>It extends jGlobus' reader because jGlobus casts to it when the data channel ends, to ask whether the server will
 * close the connection ({@link #willCloseReceived}); the headers' flags mean what they mean to jGlobus' reader.
 */
public final class ModeEBlockReader extends EBlockImageDCReader {
    /** The largest piece read into one array: below G1's humongous objects, and the server's default block size. */
    static final int PIECE = 256 * 1024;

    /** Bytes of the current block not yet read, and the file offset of the next one. */
    private long left;
    private long offset;
    /** The last block of this connection was announced (EOD or WILL_CLOSE): once it is read, nothing follows. */
    private boolean last;
    private boolean willClose;

    /** Makes jGlobus use this reader for every MODE E image retrieve in this process. */
    static void install() {
        DataChannelReaders.replace(DataChannelReaders.MODE_E_IMAGE, "MODE E image", ModeEBlockReader.class);
    }

    /** The reader jGlobus uses for MODE E image retrieves now. */
    static Class<?> installed() {
        return DataChannelReaders.installed(DataChannelReaders.MODE_E_IMAGE);
    }

    @Override
    public boolean willCloseReceived() {
        return willClose;
    }

    @Override
    public Buffer read() throws IOException {
        while (left == 0) {
            if (last) {
                return null;
            }
            byte descriptor = input.readByte();
            long size = input.readLong();
            long at = input.readLong();
            willClose = (descriptor & WILL_CLOSE) != 0;
            if ((descriptor & EOD) != 0) {
                last = true;
                context.eodTransferred();
            }
            last |= willClose;
            if ((descriptor & EOF) != 0) {
                context.setEodsTotal((int) at); // EODC: the offset field counts the data channels' EODs
                return null;
            }
            if (size < 0 || at < 0) {
                throw new IOException("MODE E block header with size " + size + " at offset " + at);
            }
            left = size;
            offset = at;
        }
        int n = (int) Math.min(left, PIECE);
        byte[] piece = new byte[n];
        input.readFully(piece);
        Buffer buffer = new Buffer(piece, n, offset);
        left -= n;
        offset += n;
        return buffer;
    }
}
