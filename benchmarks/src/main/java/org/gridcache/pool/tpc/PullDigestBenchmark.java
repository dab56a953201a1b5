package org.gridcache.pool.tpc;

import java.nio.ByteBuffer;
import java.util.EnumSet;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.gridcache.common.checksum.ChecksumComputation;
import org.gridcache.common.checksum.ChecksumType;
import org.gridcache.common.checksum.Checksums;
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
import org.openjdk.jmh.infra.Blackhole;

/**
 * A third-party pull's 64 MiB, in its 64 KiB chunks, with the default {@code pool.checksums} (all four), until every
 * checksum is known: {@code inline}, all computed on the pull's thread (before {@link BackgroundDigest});
 * {@code background}, adler32 and crc32c on it and md5 and sha-256 on a second thread, waited for at the end as
 * {@link Pull} does. {@code work} stands for the pull's own work per chunk (reading the remote, writing the copy,
 * sending to the origin) in JMH CPU tokens: with none, both are the digest's time; with some, inline adds the two
 * and background overlaps them (given a second free core). In the package of {@link BackgroundDigest}, the pool's own.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(1)
public class PullDigestBenchmark {
    private static final int CHUNK = 64 * 1024;
    private static final int CHUNKS = 1024;
    private static final Set<ChecksumType> ALL = EnumSet.allOf(ChecksumType.class);

    @Param({"inline", "background"})
    public String where;
    @Param({"0", "200000"})
    public long work;
    private final byte[][] chunks = new byte[16][CHUNK];
    private ExecutorService workers;

    @Setup(Level.Trial)
    public void setUp() {
        Random random = new Random(1);
        for (byte[] chunk : chunks) {
            random.nextBytes(chunk);
        }
        workers = Executors.newCachedThreadPool();
    }

    @TearDown(Level.Trial)
    public void tearDown() {
        workers.shutdownNow();
    }

    /** 64 MiB through the pull's checksums, until every checksum is known. */
    @Benchmark
    public Checksums sixtyFourMiB() throws CopyFailure {
        Set<ChecksumType> cheap = EnumSet.copyOf(ALL);
        cheap.removeIf(type -> !type.cheap());
        Set<ChecksumType> costly = EnumSet.copyOf(ALL);
        costly.removeAll(cheap);
        boolean inline = "inline".equals(where);
        ChecksumComputation own = new ChecksumComputation(inline ? ALL : cheap);
        try (BackgroundDigest second = inline ? null : new BackgroundDigest(costly, workers)) {
            for (int i = 0; i < CHUNKS; i++) {
                byte[] chunk = chunks[i % chunks.length];
                Blackhole.consumeCPU(work);
                own.update(chunk, 0, chunk.length);
                if (second != null) {
                    second.update(ByteBuffer.wrap(chunk));
                }
            }
            Checksums checksums = own.finish();
            return second == null ? checksums : checksums.with(second.finish());
        }
    }
}
