package org.gridcache.common.settings;

import org.gridcache.common.ByteSize;
import org.gridcache.common.ticket.TicketCodec;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

/**
 * The value types of cluster settings (ARCHITECTURE.md, "Settings"): each turns an admin's string into a value or
 * throws {@link IllegalArgumentException} with the reason alone; {@link ClusterSettings} adds the key and the value to
 * the message, so that every refusal reads the same.
 */
public final class SettingTypes {
    /** Parses a setting's string; throws {@link IllegalArgumentException} with a reason. */
    @FunctionalInterface
    public interface Type<T> {
        T parse(String value);
    }

    public static final Type<Boolean> BOOLEAN = SettingTypes::parseBoolean;
    /** "60s", "500ms", "2m", "1h", or a plain number of seconds; zero allowed. */
    public static final Type<Duration> DURATION = SettingTypes::parseDuration;
    public static final Type<Duration> POSITIVE_DURATION = v -> positive(parseDuration(v));
    /**
     * The longest a ticket may be valid, whatever {@code /config} says: a stolen ticket (or a rewritten setting) must
     * not open a file for days. Pools enforce the same cap on every ticket they accept.
     */
    public static final Duration MAX_TICKET_LIFETIME = TicketCodec.DEFAULT_MAX_LIFETIME;
    /** A ticket lifetime: positive, at most {@link #MAX_TICKET_LIFETIME}. */
    public static final Type<Duration> TICKET_LIFETIME = v -> atMost(positive(parseDuration(v)), MAX_TICKET_LIFETIME);
    /** A fraction of a store's capacity, in (0, 1]. */
    public static final Type<Double> FRACTION = SettingTypes::fraction;
    public static final Type<Double> NON_NEGATIVE = SettingTypes::nonNegative;
    public static final Type<Long> BYTE_SIZE = ByteSize::parse;
    /** A size, or "off": Long.MAX_VALUE (no file is that large). */
    /** A partial file's block: 128 KiB to 1 MiB, a multiple of 4 KiB (the page size, so blocks never share a page). */
    public static final Type<Long> BLOCK_SIZE = v -> {
        long n = ByteSize.parse(v);
        if (n < (128 << 10) || n > (1 << 20) || n % 4096 != 0) {
            throw new IllegalArgumentException("expected 128k to 1M, a multiple of 4k");
        }
        return n;
    };
    /** Comma-separated regular expressions, compiled once per snapshot: the door matches them on every read. */
    public static final Type<List<Pattern>> PATTERNS = SettingTypes::patterns;
    public static final Type<SiteMap> SITE_MAP = SiteMap::parse;
    /** Comma-separated host names (lower-cased), each exact or {@code *.domain} for every host below the domain. */
    public static final Type<List<String>> HOSTS = SettingTypes::hosts;
    /** Address blocks and host names a third-party copy may reach inside the site. */
    public static final Type<org.gridcache.common.net.AllowedHosts> ALLOWED_HOSTS = org.gridcache.common.net.AllowedHosts::parse;
    /** GridFTP parallel streams: 1 to 64, as {@code GridFtpOptions} accepts. */
    public static final Type<Integer> STREAMS = SettingTypes::streams;
    /** A count, 0 or more. */
    public static final Type<Integer> COUNT = SettingTypes::count;
    /** A count, 1 or more. */
    public static final Type<Integer> POSITIVE_COUNT = v -> {
        int n = count(v);
        if (n < 1) {
            throw new IllegalArgumentException("expected a whole number >= 1");
        }
        return n;
    };
    public static final Type<SelectionPolicy> SELECTION_POLICY = SelectionPolicy::parse;
    public static final Type<GridFtpProtection> GRIDFTP_PROTECTION = GridFtpProtection::parse;
    public static final Type<GridFtpChecksum> GRIDFTP_CHECKSUM = GridFtpChecksum::parse;
    public static final Type<StorageShares> STORAGE_SHARES = StorageShares::parse;
    /** Checksum types by RFC 3230 name, comma-separated; none is allowed (the pool then computes nothing). */
    public static final Type<java.util.Set<org.gridcache.common.checksum.ChecksumType>> CHECKSUM_TYPES = SettingTypes::checksumTypes;

    private SettingTypes() {
    }

    static boolean parseBoolean(String v) {
        return switch (v.trim().toLowerCase(Locale.ROOT)) {
            case "true", "yes", "on" -> true;
            case "false", "no", "off" -> false;
            default -> throw new IllegalArgumentException("expected true or false");
        };
    }

    static Duration parseDuration(String v) {
        String s = v.trim().toLowerCase(Locale.ROOT);
        try {
            if (s.isEmpty()) {
                throw new NumberFormatException(); // found by SettingValuesFuzzTest: an empty value was a 500
            }
            if (s.endsWith("ms")) {
                return Duration.ofMillis(Long.parseLong(s.substring(0, s.length() - 2)));
            }
            char unit = s.isEmpty() ? ' ' : s.charAt(s.length() - 1);
            String n = Character.isDigit(unit) ? s : s.substring(0, s.length() - 1);
            long amount = Long.parseLong(n);
            if (amount < 0) {
                throw new NumberFormatException();
            }
            return switch (unit) {
                case 's' -> Duration.ofSeconds(amount);
                case 'm' -> Duration.ofMinutes(amount);
                case 'h' -> Duration.ofHours(amount);
                default -> {
                    if (!Character.isDigit(unit)) {
                        throw new NumberFormatException();
                    }
                    yield Duration.ofSeconds(amount);
                }
            };
        } catch (NumberFormatException | ArithmeticException e) { // ArithmeticException: more hours than a Duration holds
            throw new IllegalArgumentException("expected a duration such as 60s, 500ms, 2m");
        }
    }

    private static Duration atMost(Duration d, Duration max) {
        if (d.compareTo(max) > 0) {
            throw new IllegalArgumentException("must be at most " + max.toSeconds() + "s");
        }
        return d;
    }

    private static Duration positive(Duration d) {
        if (d.isZero() || d.isNegative()) {
            throw new IllegalArgumentException("must be positive");
        }
        return d;
    }

    private static List<Pattern> patterns(String v) {
        try {
            return Arrays.stream(v.split(",")).map(String::trim).filter(s -> !s.isEmpty()).map(Pattern::compile).toList();
        } catch (PatternSyntaxException e) {
            throw new IllegalArgumentException("not a regular expression: " + e.getDescription());
        }
    }

    private static final Pattern HOST = Pattern.compile("(\\*\\.)?[a-z0-9\\[]([a-z0-9.:\\[\\]-]*[a-z0-9\\]])?");

    private static List<String> hosts(String v) {
        List<String> hosts = Arrays.stream(v.split(",")).map(s -> s.trim().toLowerCase(Locale.ROOT)).filter(s -> !s.isEmpty()).toList();
        for (String host : hosts) {
            if (!HOST.matcher(host).matches()) {
                throw new IllegalArgumentException("not a host name or *.domain: " + host);
            }
        }
        return hosts;
    }

    private static java.util.Set<org.gridcache.common.checksum.ChecksumType> checksumTypes(String v) {
        java.util.Set<org.gridcache.common.checksum.ChecksumType> types = java.util.EnumSet.noneOf(org.gridcache.common.checksum.ChecksumType.class);
        for (String name : v.split(",")) {
            if (name.isBlank()) {
                continue;
            }
            org.gridcache.common.checksum.ChecksumType t = org.gridcache.common.checksum.ChecksumType.byName(name);
            if (t == null) {
                throw new IllegalArgumentException("not a checksum gridcache computes (adler32, md5, sha-256, crc32c): " + name.trim());
            }
            types.add(t);
        }
        return java.util.Collections.unmodifiableSet(types);
    }

    private static double fraction(String v) {
        try {
            double d = Double.parseDouble(v.trim());
            if (!(d > 0 && d <= 1)) {
                throw new NumberFormatException();
            }
            return d;
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("expected a fraction in (0, 1]");
        }
    }

    private static double nonNegative(String v) {
        try {
            double d = Double.parseDouble(v.trim());
            if (!(d >= 0) || Double.isInfinite(d)) {
                throw new NumberFormatException();
            }
            return d;
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("expected a number >= 0");
        }
    }

    private static int count(String v) {
        try {
            int n = Integer.parseInt(v.trim());
            if (n < 0) {
                throw new NumberFormatException();
            }
            return n;
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("expected a whole number >= 0");
        }
    }

    private static int streams(String v) {
        try {
            int n = Integer.parseInt(v.trim());
            if (n < 1 || n > 64) {
                throw new NumberFormatException();
            }
            return n;
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("expected a number of streams from 1 to 64");
        }
    }

    /** The enum constant whose {@code label} is {@code v}, ignoring case and blanks; null when none is. */
    static <E extends Enum<E>> E byLabel(Class<E> type, String v, java.util.function.Function<E, String> label) {
        String s = v.trim().toLowerCase(Locale.ROOT);
        for (E e : type.getEnumConstants()) {
            if (label.apply(e).equals(s)) {
                return e;
            }
        }
        return null;
    }
}
