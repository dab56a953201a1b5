package org.gridcache.door.http;

import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.eclipse.jetty.io.EndPoint;
import org.eclipse.jetty.util.thread.Scheduler;

/**
 * A request's line and headers must arrive within a time of its first byte, as Apache's mod_reqtimeout asks: a client
 * that trickles a header byte every few seconds (slowloris) keeps resetting Jetty's idle timeout and would hold its
 * connection for ever. While a head is being read, the connection's idle timeout is cut to what is left of the
 * deadline, so silence ends it on time; a byte that arrives after it is answered 408 ({@link StrictRequestLine}). Once
 * the head is complete, the connector's idle timeout applies again. One per connection, used on its parsing thread.
 *
 * <p>The first head of a connection is also bounded from the connection's opening, by one scheduled check: a client
 * that connects and sends nothing, or trickles a TLS handshake (which never reaches the parser), is closed then too.
 */
final class HeaderDeadline {
    private final EndPoint endPoint;
    private final Duration timeout;
    private final long idleMillis;
    private long startedNanos;
    private boolean reading;
    private volatile boolean firstHeadDone;

    HeaderDeadline(EndPoint endPoint, Duration timeout, long idleMillis) {
        this.endPoint = endPoint;
        this.timeout = timeout;
        this.idleMillis = idleMillis;
    }

    /** The connection is open: its first head (and TLS handshake) must be in within the deadline. */
    void opened(Scheduler scheduler) {
        scheduler.schedule(() -> {
            if (!firstHeadDone) {
                endPoint.close();
            }
        }, timeout.toMillis(), TimeUnit.MILLISECONDS);
    }

    Duration timeout() {
        return timeout;
    }

    /** Whether a head being read has taken longer than the deadline. */
    boolean passed() {
        return reading && System.nanoTime() - startedNanos > timeout.toNanos();
    }

    /**
     * After each parse: {@code begun} when a request's head has begun and is not yet complete, {@code complete} when it
     * is (then the connection's first head is in, whether it took one read or many).
     */
    void reading(boolean begun, boolean complete) {
        if (complete) {
            firstHeadDone = true;
        }
        if (begun) {
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
