package org.gridcache.bench;

import java.nio.charset.StandardCharsets;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.Signature;
import java.security.spec.ECGenParameterSpec;
import java.time.Clock;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.gridcache.common.origin.CredentialMode;
import org.gridcache.common.ticket.Ticket;
import org.gridcache.common.ticket.TicketCodec;
import org.gridcache.common.ticket.TicketException;
import org.gridcache.common.ticket.TicketKeys;
import org.gridcache.common.ticket.TicketSigningKey;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * What a ticket costs per read: the door signs one (EdDSA, BouncyCastle's Ed25519), the pool verifies one, the first
 * time or reused (its signature remembered). The {@code jdk*} benchmarks sign the same bytes with the JDK's
 * providers, the alternatives that were measured against it.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class TicketBenchmark {
    private final TicketSigningKey key = TicketSigningKey.generate();
    private final TicketKeys published = TicketKeys.of("door1", List.of(key));
    private final TicketCodec codec = new TicketCodec(key, published, TicketCodec.DEFAULT_MAX_LIFETIME, Clock.systemUTC());
    private final Ticket ticket = new Ticket("/atlas/data/run1/file-1.root", "pool1", Ticket.READ,
            Instant.now().getEpochSecond(), Instant.now().getEpochSecond() + 600, "/DC=org/DC=example/CN=Alice", "door1",
            null, 1L << 30, 1_795_000_000L, "atlas", List.of("/atlas", "/atlas/Role=production"), CredentialMode.USER,
            "https://door.example.org:2880/.gridcache/credential", List.of("pool2", "pool3"));
    private final String token = codec.sign(ticket);
    private final byte[] input = token.substring(0, token.lastIndexOf('.')).getBytes(StandardCharsets.US_ASCII);
    private KeyPair ed25519;
    private KeyPair p256;

    @Setup
    public void jdkKeys() throws Exception {
        ed25519 = KeyPairGenerator.getInstance("Ed25519").generateKeyPair();
        KeyPairGenerator ec = KeyPairGenerator.getInstance("EC");
        ec.initialize(new ECGenParameterSpec("secp256r1"));
        p256 = ec.generateKeyPair();
    }

    @Benchmark
    public String sign() {
        return codec.sign(ticket);
    }

    /** A ticket the pool has verified before (a client reusing it): its signature is not checked again. */
    @Benchmark
    public Ticket verifyReused() throws TicketException {
        return codec.verify(token, ticket.path(), ticket.pool(), Ticket.READ);
    }

    /** A ticket the pool sees for the first time: parse and Ed25519 verification (a fresh codec remembers nothing). */
    @Benchmark
    public Ticket verifyFirstUse() throws TicketException {
        return new TicketCodec(null, published, TicketCodec.DEFAULT_MAX_LIFETIME, Clock.systemUTC())
                .verify(token, ticket.path(), ticket.pool(), Ticket.READ);
    }

    @Benchmark
    public byte[] jdkEd25519Sign() throws Exception {
        Signature s = Signature.getInstance("Ed25519");
        s.initSign(ed25519.getPrivate());
        s.update(input);
        return s.sign();
    }

    @Benchmark
    public byte[] jdkEs256Sign() throws Exception {
        Signature s = Signature.getInstance("SHA256withECDSAinP1363Format");
        s.initSign(p256.getPrivate());
        s.update(input);
        return s.sign();
    }
}
