package org.gridcache.bench;

import java.nio.ByteBuffer;
import java.util.EnumSet;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.gridcache.common.checksum.ChecksumComputation;
import org.gridcache.common.checksum.ChecksumType;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * What checksumming costs a pool's disk writer per MiB filled ({@code pool.checksums}): all four types in one pass,
 * and each alone. MiB/s = 1e6 / (µs per op) / 1.048576.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class ChecksumBenchmark {
    @Param({"adler32,md5,sha-256,crc32c", "adler32", "crc32c", "md5", "sha-256", "adler32,crc32c"})
    public String types;
    private final ByteBuffer mib = ByteBuffer.allocateDirect(1 << 20);
    private ChecksumComputation computation;

    @Setup
    public void setUp() {
        byte[] random = new byte[mib.capacity()];
        new Random(1).nextBytes(random);
        mib.put(random).flip();
        Set<ChecksumType> chosen = EnumSet.noneOf(ChecksumType.class);
        for (String name : types.split(",")) {
            chosen.add(ChecksumType.byName(name));
        }
        computation = new ChecksumComputation(chosen);
    }

    @Benchmark
    public long oneMiB() {
        mib.rewind();
        computation.update(mib);
        return computation.bytes();
    }
}
