package org.gridcache.door.http;

import java.time.Duration;
import org.eclipse.jetty.io.EndPoint;

/**
 * A request's line and headers must arrive within a time of its first byte, as Apache's mod_reqtimeout asks: a client
 * that trickles a header byte every few seconds (slowloris) keeps resetting Jetty's idle timeout and would hold its
 * connection for ever. While a head is being read, the connection's idle timeout is cut to what is left of the
 * deadline, so silence ends it on time; a byte that arrives after it is answered 408 ({@link StrictRequestLine}). Once
 * the head is complete, the connector's idle timeout applies again. One per connection, used on its parsing thread.
 */
final class HeaderDeadline {
    private final EndPoint endPoint;
    private final Duration timeout;
    private final long idleMillis;
    private long startedNanos;
    private boolean reading;

    HeaderDeadline(EndPoint endPoint, Duration timeout, long idleMillis) {
        this.endPoint = endPoint;
        this.timeout = timeout;
        this.idleMillis = idleMillis;
    }

    Duration timeout() {
        return timeout;
    }

    /** Whether a head being read has taken longer than the deadline. */
    boolean passed() {
        return reading && System.nanoTime() - startedNanos > timeout.toNanos();
    }

    /** After each parse: {@code head} when a request's head has begun and is not yet complete. */
    void reading(boolean head) {
        if (head) {
            if (!reading) {
                reading = true;
                startedNanos = System.nanoTime();
            }
            long leftMillis = Math.max(1, timeout.toMillis() - (System.nanoTime() - startedNanos) / 1_000_000);
            endPoint.setIdleTimeout(Math.min(leftMillis, idleMillis > 0 ? idleMillis : Long.MAX_VALUE));
        } else if (reading) {
            reading = false;
            endPoint.setIdleTimeout(idleMillis);
        }
    }
}
