package org.gridcache.gridftp;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.globus.ftp.Buffer;
import org.globus.ftp.dc.EBlockAware;
import org.globus.ftp.dc.EBlockParallelTransferContext;
import org.junit.jupiter.api.Test;

class ModeEBlockReaderTest {
    private final ByteArrayOutputStream wire = new ByteArrayOutputStream();
    private final DataOutputStream out = new DataOutputStream(wire);
    private final EBlockParallelTransferContext context = new EBlockParallelTransferContext();

    private void header(int flags, long size, long offset) throws IOException {
        out.writeByte(flags);
        out.writeLong(size);
        out.writeLong(offset);
    }

    private void block(int flags, byte[] data, long offset) throws IOException {
        header(flags, data.length, offset);
        out.write(data);
    }

    private ModeEBlockReader reader() {
        ModeEBlockReader reader = new ModeEBlockReader();
        reader.setTransferContext(context);
        reader.setDataStream(new ByteArrayInputStream(wire.toByteArray()));
        return reader;
    }

    private static byte[] random(int n, long seed) {
        byte[] b = new byte[n];
        new Random(seed).nextBytes(b);
        return b;
    }

    @Test
    void blocksComeInPiecesOfTheirOwnAtTheirOffsetsUntilTheEndOfData() throws IOException {
        byte[] big = random(2 * ModeEBlockReader.PIECE + 5, 1); // larger than a piece: three pieces
        byte[] small = random(100, 2);
        byte[] last = random(7, 3);
        block(0, big, 1_000);
        block(0, new byte[0], 0); // an empty block is skipped
        block(0, small, 0);
        block(EBlockAware.EOD, last, 5_000_000); // data and EOD together: the data, then the end
        block(0, random(9, 4), 9_999); // never read: nothing follows EOD on this connection
        ModeEBlockReader reader = reader();
        List<Buffer> pieces = new ArrayList<>();
        for (Buffer b; (b = reader.read()) != null; ) {
            pieces.add(b);
            assertEquals(b.getLength(), b.getBuffer().length, "an array of its own, full: it may wait for a gap as it is");
        }
        assertEquals(List.of(1_000L, 1_000L + ModeEBlockReader.PIECE, 1_000L + 2 * ModeEBlockReader.PIECE, 0L, 5_000_000L),
                pieces.stream().map(Buffer::getOffset).toList());
        assertEquals(List.of(ModeEBlockReader.PIECE, ModeEBlockReader.PIECE, 5, 100, 7),
                pieces.stream().map(Buffer::getLength).toList());
        ByteArrayOutputStream got = new ByteArrayOutputStream();
        for (Buffer b : pieces.subList(0, 3)) {
            got.write(b.getBuffer(), 0, b.getLength());
        }
        assertArrayEquals(big, got.toByteArray());
        assertArrayEquals(small, pieces.get(3).getBuffer());
        assertArrayEquals(last, pieces.get(4).getBuffer());
        assertEquals(1, context.getEodsTransferred());
        assertFalse(reader.willCloseReceived());
        assertNull(reader.read(), "and again after the end");
    }

    @Test
    void theServersCloseFlagAndTheEodCountMeanWhatTheyMeanToJGlobus() throws IOException {
        block(EBlockAware.WILL_CLOSE, random(3, 5), 0);
        ModeEBlockReader closing = reader();
        assertEquals(3, closing.read().getLength());
        assertTrue(closing.willCloseReceived(), "jGlobus then closes this data connection instead of keeping it");
        assertNull(closing.read());

        wire.reset();
        header(EBlockAware.EOF, 0, 4); // EODC: the offset field says how many EODs the transfer's streams send in all
        assertNull(reader().read());
        assertEquals(4, context.getEodsTotal());
    }

    @Test
    void aHeaderSizesNoAllocationAndABadOneFailsTheRead() throws IOException {
        header(0, 1L << 40, 0); // jGlobus' reader: new byte[(int) (1L << 40)], an empty array, then the data as headers
        out.write(random(ModeEBlockReader.PIECE + 10, 6)); // the connection ends 1 TiB early
        ModeEBlockReader reader = reader();
        Buffer first = reader.read();
        assertEquals(ModeEBlockReader.PIECE, first.getBuffer().length);
        assertEquals(0, first.getOffset());
        assertThrows(EOFException.class, reader::read, "the block's next piece never came");
        org.globus.ftp.dc.EBlockImageDCReader jGlobus = new org.globus.ftp.dc.EBlockImageDCReader();
        jGlobus.setTransferContext(context);
        jGlobus.setDataStream(new ByteArrayInputStream(wire.toByteArray()));
        assertEquals(0, jGlobus.read().getLength(), "what this reader replaces: an empty block, then the data taken for headers");

        wire.reset();
        header(0, -1, 0);
        IOException e = assertThrows(IOException.class, () -> reader().read());
        assertEquals("MODE E block header with size -1 at offset 0", e.getMessage());
        wire.reset();
        header(0, 1, -5);
        e = assertThrows(IOException.class, () -> reader().read());
        assertEquals("MODE E block header with size 1 at offset -5", e.getMessage());
    }

    @Test
    void jGlobusReadsModeERetrievesWithThePieceReader() {
        GridFtp.configure(null);
        assertSame(ModeEBlockReader.class, ModeEBlockReader.installed());
    }
}
