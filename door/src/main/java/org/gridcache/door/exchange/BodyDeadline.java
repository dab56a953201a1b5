package org.gridcache.door.exchange;

import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.TimeoutException;

/**
 * A request body the door proxies (a PUT to an origin) must keep coming, as Apache's {@code mod_reqtimeout}
 * {@code body=20,MinRate=500} wants it: within {@link #FIRST} of its first read, and then at least {@value #MIN_RATE}
 * bytes a second (each {@value #MIN_RATE} bytes received give it one more second). A body that falls behind, or that
 * stops until the connection's idle timeout, fails its next read with {@link TooSlow}, which the writers answer with
 * {@link #refusal} (408, the connection closed), after dropping what the origin received. So a client dripping its
 * body holds the door's thread for seconds, not for ever.
 */
public final class BodyDeadline extends FilterInputStream {
    static final Duration FIRST = Duration.ofSeconds(20);
    static final int MIN_RATE = 500;
    private final long startNanos = System.nanoTime();
    private long received;

    /** The body came too slowly, or stopped: the reason, for the 408. */
    public static final class TooSlow extends IOException {
        private static final long serialVersionUID = 1L;

        TooSlow(String reason) {
            super(reason);
        }
    }

    public BodyDeadline(InputStream body) {
        super(body);
    }

    /**
     * The answer to a client whose body could not be read: 408 when it came too slowly ({@link TooSlow}), else 400
     * with {@code brokeOff}.
     */
    public static DoorException refusal(IOException e, String brokeOff) {
        if (e instanceof TooSlow) {
            return new DoorException(408, e.getMessage(), Map.of("Connection", "close"));
        }
        return new DoorException(400, brokeOff);
    }

    @Override
    public int read() throws IOException {
        check();
        int b;
        try {
            b = super.read();
        } catch (IOException e) {
            throw stalled(e);
        }
        if (b >= 0) {
            received++;
        }
        return b;
    }

    @Override
    public int read(byte[] b, int off, int len) throws IOException {
        check();
        int n;
        try {
            n = super.read(b, off, len);
        } catch (IOException e) {
            throw stalled(e);
        }
        if (n > 0) {
            received += n;
        }
        return n;
    }

    /** A body that sent nothing until the connection's idle timeout came too slowly as well. */
    private IOException stalled(IOException e) {
        return e.getCause() instanceof TimeoutException ? tooSlow() : e;
    }

    @Override
    public long skip(long n) throws IOException {
        check();
        return super.skip(n);
    }

    private void check() throws TooSlow {
        long allowedNanos = FIRST.toNanos() + received * 1_000_000_000L / MIN_RATE;
        if (System.nanoTime() - startNanos > allowedNanos) {
            throw tooSlow();
        }
    }

    private TooSlow tooSlow() {
        long seconds = Duration.ofNanos(System.nanoTime() - startNanos).toSeconds();
        return new TooSlow("request body too slow: " + received + " bytes in " + seconds + " s (the door wants "
                + MIN_RATE + " bytes/s after the first " + FIRST.toSeconds() + " s)");
    }
}
