package org.gridcache.gridftp;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import java.util.Random;
import org.globus.ftp.Buffer;
import org.junit.jupiter.api.Test;

class FullBlockStreamReaderTest {

    @Test
    void aFastStreamComesInFullBlocksThatNeedNoCopyAndEndsWithTheRest() throws Exception {
        byte[] file = new byte[FullBlockStreamReader.BLOCK * 2 + 1234];
        new Random(7).nextBytes(file);
        FullBlockStreamReader reader = new FullBlockStreamReader();
        reader.setDataStream(new ByteArrayInputStream(file)); // everything "arrived" at once, as from a fast server
        ByteArrayOutputStream got = new ByteArrayOutputStream();
        int[] lengths = new int[3];
        for (int i = 0; i < 3; i++) {
            Buffer b = reader.read();
            lengths[i] = b.getLength();
            if (b.getLength() == FullBlockStreamReader.BLOCK) {
                assertSame(b.getBuffer(), ModeEReorderBuffer.own(b.getBuffer(), b.getLength()), "a full block is kept as it is");
            }
            got.write(b.getBuffer(), 0, b.getLength());
        }
        assertNull(reader.read(), "then the end of the file");
        assertArrayEquals(new int[] {FullBlockStreamReader.BLOCK, FullBlockStreamReader.BLOCK, 1234}, lengths);
        assertArrayEquals(file, got.toByteArray());
    }

    @Test
    void aSlowStreamIsHandedOnAsItComes() throws Exception {
        // a server that sends 10 bytes at a time with nothing waiting between: no wait for a full block
        InputStream trickle = new InputStream() {
            private int left = 25;

            @Override
            public int read() {
                throw new UnsupportedOperationException();
            }

            @Override
            public int read(byte[] b, int off, int len) {
                if (left == 0) {
                    return -1;
                }
                int n = Math.min(10, Math.min(len, left));
                left -= n;
                return n;
            }

            @Override
            public int available() {
                return 0;
            }
        };
        FullBlockStreamReader reader = new FullBlockStreamReader();
        reader.setDataStream(trickle);
        assertEquals(10, reader.read().getLength());
        assertEquals(10, reader.read().getLength());
        assertEquals(5, reader.read().getLength());
        assertNull(reader.read());
    }

    @Test
    void jglobusReadsStreamModeWithIt() {
        GridFtp.configure(null);
        assertSame(FullBlockStreamReader.class, FullBlockStreamReader.streamImageSource());
    }
}
