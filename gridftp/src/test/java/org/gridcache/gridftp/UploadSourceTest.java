package org.gridcache.gridftp;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.SequenceInputStream;
import java.util.Random;
import org.globus.ftp.Buffer;
import org.junit.jupiter.api.Test;

/** A store's source: exactly the announced bytes, one block at a time; anything else fails the transfer. */
class UploadSourceTest {
    private static byte[] random(int n) {
        byte[] b = new byte[n];
        new Random(n).nextBytes(b);
        return b;
    }

    private static byte[] drain(UploadSource source) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (Buffer b; (b = source.read()) != null; ) {
            assertTrue(b.getLength() <= UploadSource.BLOCK, "one block at a time");
            out.write(b.getBuffer(), 0, b.getLength());
        }
        return out.toByteArray();
    }

    @Test
    void exactlyTheAnnouncedBytesArePassedOn() throws IOException {
        byte[] data = random(3 * UploadSource.BLOCK + 17);
        UploadSource source = new UploadSource(new ByteArrayInputStream(data), data.length);
        assertArrayEquals(data, drain(source));
        assertEquals(data.length, source.sent());
        assertNull(source.failure());
        assertEquals(0, drain(new UploadSource(InputStream.nullInputStream(), 0)).length);
    }

    @Test
    void aStreamEndingEarlyFails() {
        UploadSource source = new UploadSource(new ByteArrayInputStream(random(1000)), 5000);
        IOException e = assertThrows(EOFException.class, () -> drain(source));
        assertEquals("the upload stream ended after 1000 of 5000 bytes", e.getMessage());
        assertSame(e, source.failure());
    }

    @Test
    void aStreamLongerThanAnnouncedFails() {
        UploadSource source = new UploadSource(new ByteArrayInputStream(random(1001)), 1000);
        IOException e = assertThrows(IOException.class, () -> drain(source));
        assertEquals("the upload stream has more than the announced 1000 bytes", e.getMessage());
    }

    @Test
    void aFailingStreamFailsEveryLaterRead() {
        InputStream failing = new SequenceInputStream(new ByteArrayInputStream(random(100)), new InputStream() {
            @Override
            public int read() throws IOException {
                throw new IOException("client went away");
            }
        });
        UploadSource source = new UploadSource(failing, 1000);
        IOException e = assertThrows(IOException.class, () -> drain(source));
        assertEquals("client went away", e.getMessage());
        assertSame(e, assertThrows(IOException.class, source::read), "the first failure stays");
        assertThrows(IllegalArgumentException.class, () -> new UploadSource(InputStream.nullInputStream(), -1));
    }
}
