package org.gridcache.pool.fetch;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * What a fill's disk writer pays to store a new 64 MiB file, in the pieces a GridFTP fill receives (64 KiB), through
 * the page cache ({@code FileChannel} positional writes, what fills below {@code pool.direct-writes} do) or past it
 * ({@link DirectPartWriter}: a copy into an aligned stage, one O_DIRECT write per MiB), fsync included, as a fill's
 * commit does. The file is deleted after each write, so each one makes new page-cache pages (or none). Run it with
 * {@code -prof gc} off and compare the times; on a VM the page-cache side varies with how long the memory was free.
 * The directory is {@code java.io.tmpdir}, which must be on a disk file system (ext4, xfs) for the direct side.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(1)
public class DirectWritesBenchmark {
    private static final int FILE = 64 << 20;
    private static final int PIECE = 64 << 10;

    @Param({"page-cache", "direct"})
    public String how;
    private Path dir;
    private ByteBuffer piece;

    @Setup(Level.Trial)
    public void setUp() throws IOException {
        dir = Files.createTempDirectory("direct-writes-bench");
        piece = ByteBuffer.allocateDirect(PIECE);
        new java.util.Random(1).ints(PIECE / 4).forEach(piece::putInt);
        piece.flip();
    }

    @TearDown(Level.Trial)
    public void tearDown() throws IOException {
        Files.deleteIfExists(dir.resolve("f"));
        Files.delete(dir);
    }

    @Benchmark
    public long storeAFile() throws IOException {
        Path f = dir.resolve("f");
        Files.deleteIfExists(f);
        try (FileChannel out = FileChannel.open(f, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
            long written;
            if ("direct".equals(how)) {
                try (DirectPartWriter writer = new DirectPartWriter(FileChannel.open(f, StandardOpenOption.WRITE,
                        com.sun.nio.file.ExtendedOpenOption.DIRECT), () -> out)) {
                    for (int at = 0; at < FILE; at += PIECE) {
                        writer.append(piece.duplicate());
                    }
                    written = writer.finish();
                }
            } else {
                written = 0;
                for (int at = 0; at < FILE; at += PIECE) {
                    ByteBuffer b = piece.duplicate();
                    while (b.hasRemaining()) {
                        written += out.write(b, written);
                    }
                }
            }
            out.force(true);
            return written;
        }
    }
}
