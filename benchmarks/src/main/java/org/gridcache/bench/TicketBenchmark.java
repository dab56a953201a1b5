package org.gridcache.bench;

import java.time.Instant;
import java.util.concurrent.TimeUnit;
import org.gridcache.common.Ticket;
import org.gridcache.common.TicketCodec;
import org.gridcache.common.TicketException;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/** What a ticket costs per read: the door signs one, the pool verifies one (JWS HS256). */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class TicketBenchmark {
    private final TicketCodec codec = new TicketCodec(new byte[32]);
    private final Ticket ticket = new Ticket("/atlas/data/run1/file-1.root", "pool1", Ticket.READ,
            Instant.now().getEpochSecond() + 3600, "anonymous", "door1",
            "https://se.example.org:2880/atlas/data/run1/file-1.root", 1L << 30, 1_795_000_000L);
    private final String token = codec.sign(ticket);

    @Benchmark
    public String sign() {
        return codec.sign(ticket);
    }

    @Benchmark
    public Ticket verify() throws TicketException {
        return codec.verify(token, ticket.path(), ticket.pool(), Ticket.READ);
    }
}
