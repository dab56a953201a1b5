package org.gridcache.pool.fetch;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
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
 * What a cut-through mover pays to find its next bytes in a fetch's memory window (the bytes received but not yet
 * on disk): one batch, 1 MiB in 64 KiB chunks as the origin connection delivers them, sliced at the window's tail
 * (a client as fast as the origin) or in its middle, with {@code chunks} held in the window (4,096 = 256 MiB the
 * disk writer is behind, well inside the default 1 GiB {@code pool.write-behind}). In the package of
 * {@link MemoryWindow}, which is the pool's own.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class MemoryWindowBenchmark {
    private static final int CHUNK = 64 * 1024;
    private static final int BATCH = 1 << 20;

    @Param({"16", "4096", "16384"})
    public int chunks;
    @Param({"tail", "middle"})
    public String where;
    private MemoryWindow window;
    private long from;

    @Setup(Level.Trial)
    public void setUp() {
        window = new MemoryWindow();
        byte[] bytes = new byte[CHUNK];
        for (int i = 0; i < chunks; i++) {
            window.add((long) i * CHUNK, Unpooled.wrappedBuffer(bytes));
        }
        long size = (long) chunks * CHUNK;
        from = "tail".equals(where) ? Math.max(0, size - BATCH) : size / 2;
    }

    @TearDown(Level.Trial)
    public void tearDown() {
        window.close();
    }

    /** One mover batch: slices from {@code from} until 1 MiB is found, each released as a written one would be. */
    @Benchmark
    public long oneMiBBatch() {
        long position = from;
        long end = from + BATCH;
        while (position < end) {
            ByteBuf slice = window.slice(position, end - position);
            position += slice.readableBytes();
            slice.release();
        }
        return position;
    }
}
