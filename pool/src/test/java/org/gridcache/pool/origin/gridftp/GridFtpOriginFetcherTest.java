package org.gridcache.pool.origin.gridftp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import java.net.URI;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.zip.Adler32;
import org.gridcache.common.checksum.ChecksumType;
import org.gridcache.common.checksum.Checksums;
import org.gridcache.common.origin.CredentialMode;
import org.gridcache.common.ticket.Ticket;
import org.gridcache.gridftp.Checksum;
import org.gridcache.gridftp.GridFtpException;
import org.gridcache.pool.http.FetchException;
import org.gridcache.pool.origin.DownloadSink;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;


/** The GridFTP fetcher's verification and failure mapping (the transfers themselves: GridFtpOriginTest, against a real server). */
class GridFtpOriginFetcherTest {
    private static final URI ORIGIN = URI.create("gsiftp://se.example.org:2811/data/f.bin");
    @TempDir
    Path dir;

    @Test
    void thePartFileMustHaveTheOriginsChecksum() throws Exception {
        byte[] content = "some file content".getBytes(java.nio.charset.StandardCharsets.US_ASCII);
        Path part = Files.write(dir.resolve("f.part"), content);
        Adler32 adler = new Adler32();
        adler.update(content);
        String good = String.format("%08x", adler.getValue());
        try (FileChannel file = FileChannel.open(part, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
            ChecksumVerification.verify(file, content.length, new ChecksumVerification.Expected(Checksum.ADLER32, good), ORIGIN);
            FetchException e = assertThrows(FetchException.class, () -> ChecksumVerification.verify(file, content.length,
                    new ChecksumVerification.Expected(Checksum.ADLER32, "00000001"), ORIGIN));
            assertEquals(502, e.status().code());
            assertTrue(e.getMessage().contains("checksum mismatch") && e.getMessage().contains("gsiftp://se.example.org:2811")
                    && e.getMessage().contains(good), e.getMessage());
        }
    }

    /** A sink that computes the given checksums while it fills; nothing else is used. */
    private static DownloadSink computing(java.util.Set<ChecksumType> types) {
        return new DownloadSink() {
            @Override
            public void begin(long contentLength, long mtime, String etag) {
            }

            @Override
            public boolean write(io.netty.buffer.ByteBuf data, Runnable resume) {
                return true;
            }

            @Override
            public long transferFrom(FileChannel source, long position, long count) {
                return 0;
            }

            @Override
            public long received() {
                return 0;
            }

            @Override
            public void complete() {
            }

            @Override
            public boolean computes(ChecksumType type) {
                return types.contains(type);
            }

            @Override
            public void fail(FetchException reason) {
            }
        };
    }

    @Test
    void theOriginsChecksumIsComparedWithWhatThePoolComputedWhileFillingWhenItComputesIt() {
        ChecksumVerification.Expected adler = new ChecksumVerification.Expected(Checksum.ADLER32, "0a1b2c3d");
        Checksums offered = ChecksumVerification.asOffered(adler, computing(java.util.EnumSet.of(ChecksumType.ADLER32, ChecksumType.MD5)));
        assertEquals("adler32=0a1b2c3d", offered.rfc3230(), "no read-back: the sink compares it with its own");
        assertEquals(null, ChecksumVerification.asOffered(adler, computing(java.util.EnumSet.of(ChecksumType.SHA256))),
                "pool.checksums without adler32: the part file is read back instead");
        ChecksumVerification.Expected md5 = new ChecksumVerification.Expected(Checksum.MD5, "d41d8cd98f00b204e9800998ecf8427e");
        assertEquals("md5=1B2M2Y8AsgTpgAmY7PhCfg==", ChecksumVerification.asOffered(md5, computing(java.util.EnumSet.of(ChecksumType.MD5)))
                .rfc3230());
        assertEquals(null, ChecksumVerification.asOffered(new ChecksumVerification.Expected(Checksum.MD5, "abc"),
                computing(java.util.EnumSet.of(ChecksumType.MD5))), "a value that is no md5: read back, where it fails as a mismatch");
    }

    @Test
    void gridFtpFailuresAnswerLikeHttpOrigins() {
        Ticket ticket = new Ticket("/atlas/f.bin", "p1", Ticket.READ, 0, 0, "/DC=org/DC=example/CN=Alice", "door", ORIGIN.toString(), 10, 0,
                "atlas", List.of("/atlas"), CredentialMode.USER, "https://door/.gridcache/credential", List.of());
        assertEquals(404, GridFtpSessions.reason(new GridFtpException(GridFtpException.Kind.NOT_FOUND, "550 No such file"), ORIGIN, ticket)
                .status().code());
        FetchException denied = GridFtpSessions.reason(new GridFtpException(GridFtpException.Kind.DENIED,
                "530 The certificate has expired"), ORIGIN, ticket);
        assertEquals(403, denied.status().code());
        assertTrue(denied.getMessage().contains("the origin refuses /DC=org/DC=example/CN=Alice access to /atlas/f.bin")
                && denied.getMessage().contains("has expired"), denied.getMessage());
        assertEquals(502, GridFtpSessions.reason(new GridFtpException(GridFtpException.Kind.UNREACHABLE, "connection refused"), ORIGIN,
                ticket).status().code());
        assertEquals(502, GridFtpSessions.reason(new GridFtpException(GridFtpException.Kind.FAILED, "500 odd"), ORIGIN, ticket)
                .status().code());
    }
}
