package org.gridcache.door.delegation;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * How many certificate requests (an RSA key generation each) a DN may have made: a token bucket per DN of
 * {@value #BURST} requests, refilled by one every {@link #REFILL}. A client delegates once per proxy (hours), so only
 * a runaway or hostile client meets it; it is refused with 429 and the seconds until its next request
 * ({@code Retry-After}), and the door's CPU stays with its reads. A DN whose bucket is full again is forgotten.
 */
final class RequestRates {
    static final int BURST = 20;
    static final Duration REFILL = Duration.ofSeconds(3);
    private final Map<String, Bucket> buckets = new ConcurrentHashMap<>();
    private final Clock clock;

    /** The requests a DN has left ({@code tokens}, whole and partial) as of {@code at}. */
    private record Bucket(double tokens, Instant at) {
        Bucket refilled(Instant now) {
            double gained = Duration.between(at, now).toNanos() / (double) REFILL.toNanos();
            return new Bucket(Math.min(BURST, tokens + Math.max(0, gained)), now);
        }
    }

    RequestRates(Clock clock) {
        this.clock = clock;
    }

    /** Takes one request of {@code dn}'s budget, or refuses with 429 and when to retry. */
    void take(String dn) throws DelegationException {
        Instant now = clock.instant();
        boolean[] taken = {false};
        Bucket left = buckets.compute(dn, (key, b) -> {
            Bucket current = b == null ? new Bucket(BURST, now) : b.refilled(now);
            taken[0] = current.tokens() >= 1;
            return taken[0] ? new Bucket(current.tokens() - 1, now) : current;
        });
        if (!taken[0]) {
            long seconds = Math.max(1, (long) Math.ceil((1 - left.tokens()) * REFILL.toSeconds()));
            throw new DelegationException(429, "too many certificate requests from this DN (" + BURST
                    + " at once, then one every " + REFILL.toSeconds() + " s): retry in " + seconds + " s", seconds);
        }
    }

    /** Forgets the DNs whose budget is whole again. */
    void purge() {
        Instant now = clock.instant();
        buckets.values().removeIf(b -> b.refilled(now).tokens() >= BURST);
    }
}
