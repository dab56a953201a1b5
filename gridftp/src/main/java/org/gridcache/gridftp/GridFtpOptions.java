package org.gridcache.gridftp;

import java.time.Duration;
import java.util.Locale;

/**
 * How transfers run. {@code streams}: 1 is stream mode (MODE S, the server passive) for whole files; more is extended
 * block mode (MODE E) with that many parallel TCP streams, the server active (jGlobus cannot receive EBLOCK as the
 * active side); partial retrieves always use MODE E (ERET). {@code dataChannelAuthentication}: DCAU A (the data
 * channels are authenticated with the user's credential) or N. {@code protection}: PROT C, S or P for the data
 * channels (S and P need DCAU). {@code replyTimeout}: how long to wait for a reply on the control channel.
 */
public record GridFtpOptions(int streams, boolean dataChannelAuthentication, Protection protection, Duration replyTimeout) {
    public static final int MAX_STREAMS = 64;
    public static final GridFtpOptions DEFAULT = new GridFtpOptions(1, true, Protection.CLEAR, Duration.ofSeconds(60));

    /** PROT: clear (integrity of nothing), safe (integrity-protected), private (encrypted). */
    public enum Protection {
        CLEAR, SAFE, PRIVATE;

        public static Protection parse(String s) {
            try {
                return valueOf(s.trim().toUpperCase(Locale.ROOT));
            } catch (IllegalArgumentException | NullPointerException e) {
                throw new IllegalArgumentException("data channel protection is clear, safe or private (got '" + s + "')");
            }
        }
    }

    public GridFtpOptions {
        if (streams < 1 || streams > MAX_STREAMS) {
            throw new IllegalArgumentException("streams must be 1 to " + MAX_STREAMS + " (got " + streams + ")");
        }
        if (protection == null) {
            protection = Protection.CLEAR;
        }
        if (protection != Protection.CLEAR && !dataChannelAuthentication) {
            throw new IllegalArgumentException("data channel protection " + protection.name().toLowerCase(Locale.ROOT)
                    + " needs data channel authentication");
        }
        if (replyTimeout == null || replyTimeout.isNegative() || replyTimeout.isZero()) {
            replyTimeout = Duration.ofSeconds(60);
        }
    }

    public GridFtpOptions withStreams(int n) {
        return new GridFtpOptions(n, dataChannelAuthentication, protection, replyTimeout);
    }
}
