package org.gridcache.door.lock;

import java.time.Duration;

/**
 * The {@code Timeout} request header (RFC 4918 §10.7): the first acceptable of {@code Second-N} and {@code Infinite},
 * capped: a desktop that asks for {@code Infinite} (Windows does) and then disappears must not hold a path forever.
 */
public final class LockTimeouts {
    private LockTimeouts() {
    }

    public static Duration parse(String header, Duration fallback, Duration max) {
        if (header == null || header.isBlank()) {
            return fallback;
        }
        for (String part : header.split(",")) {
            String t = part.strip();
            if (t.equalsIgnoreCase("Infinite")) {
                return max;
            }
            if (t.regionMatches(true, 0, "Second-", 0, 7)) {
                try {
                    long seconds = Long.parseLong(t.substring(7));
                    if (seconds > 0) {
                        return seconds >= max.toSeconds() ? max : Duration.ofSeconds(seconds);
                    }
                } catch (NumberFormatException e) {
                    // a number beyond long (Windows sends 4100000000, which fits) or garbage: try the next
                }
            }
        }
        return fallback;
    }

    /** The value of the {@code Timeout} response header and of {@code DAV:timeout}. */
    public static String header(long seconds) {
        return "Second-" + seconds;
    }
}
