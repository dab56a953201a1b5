package org.gridcache.gridftp;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.Random;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.globus.ftp.Buffer;
import org.junit.jupiter.api.Test;

/** The parts of the GridFTP client that need no server: reordering, checksums, MLSx facts, options. */
class GridFtpClientPartsTest {

    @Test
    void blocksFromParallelStreamsAreDeliveredInFileOrder() throws IOException {
        byte[] file = new byte[10_000];
        new Random(1).nextBytes(file);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ModeEReorderBuffer sink = new ModeEReorderBuffer(0, receiving((d, n) -> out.write(d, 0, n)));
        int[] order = {3, 0, 2, 4, 1, 9, 5, 8, 6, 7};
        for (int block : order) {
            sink.write(new Buffer(Arrays.copyOfRange(file, block * 1000, block * 1000 + 1000), 1000, block * 1000L));
        }
        assertArrayEquals(file, out.toByteArray());
        assertEquals(10_000, sink.delivered());
        assertEquals(0, sink.pending());
    }

    @Test
    void streamModeBlocksWithoutOffsetsAreAppended() throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ModeEReorderBuffer sink = new ModeEReorderBuffer(0, receiving((d, n) -> out.write(d, 0, n)));
        sink.write(new Buffer(new byte[] {1, 2}, 2));
        sink.write(new Buffer(new byte[] {3}, 1));
        assertArrayEquals(new byte[] {1, 2, 3}, out.toByteArray());
    }

    @Test
    void partialRetrieveOffsetsMayBeAbsoluteOrRelative() throws IOException {
        ByteArrayOutputStream abs = new ByteArrayOutputStream();
        ModeEReorderBuffer absolute = new ModeEReorderBuffer(5000, receiving((d, n) -> abs.write(d, 0, n)));
        absolute.write(new Buffer(new byte[] {1}, 1, 5000));
        absolute.write(new Buffer(new byte[] {2}, 1, 5001));
        assertArrayEquals(new byte[] {1, 2}, abs.toByteArray());
        ByteArrayOutputStream rel = new ByteArrayOutputStream();
        ModeEReorderBuffer relative = new ModeEReorderBuffer(5000, receiving((d, n) -> rel.write(d, 0, n)));
        relative.write(new Buffer(new byte[] {2}, 1, 1));
        relative.write(new Buffer(new byte[] {1}, 1, 0));
        assertArrayEquals(new byte[] {1, 2}, rel.toByteArray());
    }

    @Test
    void aStreamFarAheadOfTheGapWaitsUntilTheGapIsFilled() throws Exception {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ModeEReorderBuffer sink = new ModeEReorderBuffer(0, receiving((d, n) -> out.write(d, 0, n)));
        int block = (int) (ModeEReorderBuffer.MAX_REORDER_BYTES / 2) + 1;
        sink.write(new Buffer(new byte[block], block, 1)); // waits below the limit
        CountDownLatch returned = new CountDownLatch(1);
        AtomicReference<Throwable> error = new AtomicReference<>();
        Thread ahead = new Thread(() -> {
            try {
                sink.write(new Buffer(new byte[block], block, 1L + block)); // over the limit: this stream pauses
                returned.countDown();
            } catch (Throwable t) {
                error.set(t);
            }
        });
        ahead.start();
        assertEquals(false, returned.await(300, TimeUnit.MILLISECONDS), "the stream ahead of the gap pauses");
        sink.write(new Buffer(new byte[] {7}, 1, 0)); // the gap
        assertEquals(true, returned.await(30, TimeUnit.SECONDS));
        ahead.join();
        assertEquals(null, error.get());
        assertEquals(1L + 2L * block, sink.delivered());
        assertEquals(1L + 2L * block, out.size());
    }

    @Test
    void aReceiverFailureStopsTheTransfer() {
        ModeEReorderBuffer sink = new ModeEReorderBuffer(0, receiving((d, n) -> {
            throw new IOException("store full");
        }));
        assertThrows(IOException.class, () -> sink.write(new Buffer(new byte[] {1}, 1, 0)));
        assertEquals("store full", sink.failure().getMessage());
        assertThrows(IOException.class, () -> sink.write(new Buffer(new byte[] {2}, 1, 1)));
    }

    @Test
    void theReceiverIsStartedOnceBeforeItsFirstByteOrWhenAnEmptyTransferIsConfirmed() throws IOException {
        java.util.List<String> events = new java.util.ArrayList<>();
        GridFtpConnection.Receiver recording = new GridFtpConnection.Receiver() {
            @Override
            public void started() {
                events.add("started");
            }

            @Override
            public void receive(byte[] data, int length) {
                events.add(length + " at " + data[0]);
            }
        };
        ModeEReorderBuffer sink = new ModeEReorderBuffer(0, recording);
        sink.write(new Buffer(new byte[] {2}, 1, 1)); // past the gap: nothing delivered, not started
        assertEquals(java.util.List.of(), events);
        sink.write(new Buffer(new byte[] {1}, 1, 0));
        sink.write(new Buffer(new byte[] {3}, 1, 2));
        sink.confirmed();
        assertEquals(java.util.List.of("started", "1 at 1", "1 at 2", "1 at 3"), events);
        events.clear();
        new ModeEReorderBuffer(0, recording).confirmed(); // an empty file: started when the server confirms it
        assertEquals(java.util.List.of("started"), events);
    }

    @Test
    void aReceiverThatCannotStartFailsTheTransferBeforeAnyByte() {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ModeEReorderBuffer sink = new ModeEReorderBuffer(0, new GridFtpConnection.Receiver() {
            @Override
            public void started() throws IOException {
                throw new IOException("no space for the file");
            }

            @Override
            public void receive(byte[] data, int length) {
                out.write(data, 0, length);
            }
        });
        assertThrows(IOException.class, () -> sink.write(new Buffer(new byte[] {1}, 1, 0)));
        assertEquals("no space for the file", sink.failure().getMessage());
        assertEquals(0, out.size());
    }

    /** The bytes only: most tests here are about order, not about when the receiver starts. */
    private interface Bytes {
        void receive(byte[] data, int length) throws IOException;
    }

    private static GridFtpConnection.Receiver receiving(Bytes bytes) {
        return new GridFtpConnection.Receiver() {
            @Override
            public void started() {
            }

            @Override
            public void receive(byte[] data, int length) throws IOException {
                bytes.receive(data, length);
            }
        };
    }

    @Test
    void checksumsMatchTheUsualTools() {
        byte[] data = "gridcache".getBytes(java.nio.charset.StandardCharsets.US_ASCII);
        Checksum.Digest adler = Checksum.ADLER32.newDigest();
        adler.update(ByteBuffer.wrap(data));
        java.util.zip.Adler32 a = new java.util.zip.Adler32();
        a.update(data);
        assertEquals(String.format("%08x", a.getValue()), adler.hex());
        Checksum.Digest md5 = Checksum.MD5.newDigest();
        md5.update(ByteBuffer.wrap(new byte[0]));
        assertEquals("d41d8cd98f00b204e9800998ecf8427e", md5.hex());
        assertEquals("0000abcd", Checksum.ADLER32.normalize("ABCD"));
        assertEquals(Checksum.MD5, Checksum.parse("md5"));
        assertThrows(IllegalArgumentException.class, () -> Checksum.parse("crc32"));
    }

    @Test
    void mlsxModifyFactsAreUtc() {
        assertEquals(1_700_000_000_000L, MlsxParser.parseModify("20231114221320"));
        assertEquals(1_700_000_000_250L, MlsxParser.parseModify("20231114221320.25"));
        assertEquals(-1, MlsxParser.parseModify("garbage"));
    }

    @Test
    void proxyPathLengthConstraintsAreRead() {
        // OCTET STRING { SEQUENCE { INTEGER 1, SEQUENCE { OID inheritAll } } }
        byte[] one = {0x04, 0x12, 0x30, 0x10, 0x02, 0x01, 0x01, 0x30, 0x0b, 0x06, 0x09, 0x2b, 0x06, 0x01, 0x05, 0x05, 0x07, 0x15, 0x01, 0x00};
        one[1] = (byte) (one.length - 2);
        one[3] = (byte) (one.length - 4);
        assertEquals(1, ProxyCertInfo.pathLenConstraint(one));
        byte[] none = {0x04, 0x0f, 0x30, 0x0d, 0x30, 0x0b, 0x06, 0x09, 0x2b, 0x06, 0x01, 0x05, 0x05, 0x07, 0x15, 0x01, 0x00};
        assertEquals(-1, ProxyCertInfo.pathLenConstraint(none));
        assertEquals(Integer.MAX_VALUE, ProxyCertInfo.proxiesAllowedBelow(new java.security.cert.X509Certificate[0]));
    }

    @Test
    void protectionNeedsDataChannelAuthentication() {
        assertThrows(IllegalArgumentException.class, () -> new GridFtpOptions(1, false, GridFtpOptions.Protection.PRIVATE, null));
        assertThrows(IllegalArgumentException.class, () -> new GridFtpOptions(0, true, GridFtpOptions.Protection.CLEAR, null));
        assertEquals(GridFtpOptions.Protection.SAFE, GridFtpOptions.Protection.parse("Safe"));
        assertEquals(4, GridFtpOptions.DEFAULT.withStreams(4).streams());
    }

    @Test
    void blocksInOrderAreHandedOnWithoutACopyAndABlockWaitingForAGapIsCopiedToItsLength() throws Exception {
        java.util.List<byte[]> arrays = new java.util.ArrayList<>();
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ModeEReorderBuffer sink = new ModeEReorderBuffer(0, receiving((d, n) -> {
            arrays.add(d);
            out.write(d, 0, n);
        }));
        byte[] read = new byte[512_000]; // a read of 2 bytes into a reader's big array: in order, handed on as it is
        read[0] = 1;
        read[1] = 2;
        sink.write(new Buffer(read, 2, 0));
        assertSame(read, arrays.get(0));
        byte[] late = new byte[1000]; // 3 bytes at offset 4, before the gap at 2 is filled: kept as 3 bytes
        late[0] = 5;
        late[1] = 6;
        late[2] = 7;
        sink.write(new Buffer(late, 3, 4));
        assertEquals(3, sink.pending());
        Arrays.fill(late, (byte) 0); // the reader may reuse its array: the waiting bytes are a copy
        byte[] gap = {3, 4};
        sink.write(new Buffer(gap, 2, 2));
        assertArrayEquals(new byte[] {1, 2, 3, 4, 5, 6, 7}, out.toByteArray());
        assertSame(gap, arrays.get(1));
        byte[] block = {1, 2, 3, 4};
        assertSame(block, ModeEReorderBuffer.own(block, 4), "the MODE E reader made this array for this piece alone");
    }

    @Test
    void streamModeReadsReuseOneArrayAndEndAtTheEndOfTheStream() throws Exception {
        byte[] file = new byte[3 * StreamModeReader.SIZE + 17];
        new Random(7).nextBytes(file);
        StreamModeReader reader = new StreamModeReader();
        reader.setDataStream(new java.io.ByteArrayInputStream(file));
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        java.util.Set<byte[]> arrays = java.util.Collections.newSetFromMap(new java.util.IdentityHashMap<>());
        for (Buffer b; (b = reader.read()) != null; ) {
            arrays.add(b.getBuffer());
            assertEquals(-1, b.getOffset(), "stream mode: in order, no offsets");
            out.write(b.getBuffer(), 0, b.getLength());
        }
        assertArrayEquals(file, out.toByteArray());
        assertEquals(1, arrays.size(), "one array for every read");
        reader.close();
    }

    @Test
    void jGlobusReadsStreamModeRetrievesWithTheReusingReader() {
        GridFtp.configure(null);
        assertSame(StreamModeReader.class, StreamModeReader.installed());
    }

    @Test
    @SuppressWarnings("unchecked")
    void aJGlobusWithoutItsStreamModeReaderIsRefusedByName() throws Exception {
        GridFtp.configure(null);
        java.lang.reflect.Field f = org.globus.ftp.dc.AbstractDataChannel.class.getDeclaredField("dataHandlers");
        f.setAccessible(true);
        java.util.Map<String, Class<?>> table = (java.util.Map<String, Class<?>>) f.get(null);
        Class<?> reader = table.remove("S-I-R");
        try {
            IllegalStateException e = assertThrows(IllegalStateException.class, StreamModeReader::install);
            assertEquals("jGlobus has no stream-mode image reader under S-I-R", e.getMessage());
        } finally {
            table.put("S-I-R", reader);
        }
    }
}
