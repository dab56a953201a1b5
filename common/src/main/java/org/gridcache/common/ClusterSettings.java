package org.gridcache.common;

import java.time.Duration;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Consumer;
import java.util.regex.Pattern;

/**
 * The cluster-wide settings kept in ZooKeeper under {@code /config}: the known keys, their defaults and their
 * validation, and an immutable snapshot of the values in force. Unknown keys are refused so that typos show.
 */
public final class ClusterSettings {
    public static final String REDIRECT_ON_READ = "redirect.on-read";
    public static final String TICKET_LIFETIME = "ticket.lifetime";
    public static final String PROXY_USER_AGENTS = "door.proxy-user-agents";
    public static final String LISTING_CACHE_TTL = "door.listing-cache-ttl";
    public static final String WATERMARK_HIGH = "pool.watermark.high";
    public static final String WATERMARK_LOW = "pool.watermark.low";
    public static final String WRITE_BEHIND = "pool.write-behind";
    public static final String SELECTION_POLICY = "selection.policy";
    public static final String SITE_MAP = "door.site-map";
    public static final String PERMISSION_CACHE_TTL = "pool.permission-cache-ttl";
    public static final String PEER_TIMEOUT = "selection.peer-timeout";
    public static final String SPILL_LOAD = "selection.spill-load";
    public static final String ZK_GRACE = "door.zk-grace";
    /** The values of {@link #SELECTION_POLICY}. */
    public static final List<String> POLICIES = List.of("random", "least-loaded", "affinity");
    public static final String GRIDFTP_STREAMS = "gridftp.streams";
    public static final String GRIDFTP_DCAU = "gridftp.dcau";
    public static final String GRIDFTP_PROTECTION = "gridftp.protection";
    public static final String GRIDFTP_CHECKSUM = "gridftp.checksum";
    public static final String GRIDFTP_TIMEOUT = "gridftp.timeout";

    /** One known setting: its default and a check that throws {@link IllegalArgumentException} with a reason. */
    public record Setting(String key, String defaultValue, String description, Consumer<String> check) {
    }

    private static final Map<String, Setting> KNOWN = new LinkedHashMap<>();

    static {
        define(REDIRECT_ON_READ, "true", "false: the door streams every read itself instead of redirecting (dCache's webdav.redirect.on-read)",
                ClusterSettings::parseBoolean);
        define(TICKET_LIFETIME, "60s", "how long a read ticket stays valid (reusable until then)", v -> positive(parseDuration(v)));
        define(PROXY_USER_AGENTS, "^cadaver/,^davfs2/,^litmus/,^neon/,^Microsoft-WebDAV-MiniRedir/",
                "comma-separated regular expressions of User-Agents that cannot follow redirects: the door proxies for them",
                ClusterSettings::parsePatterns);
        define(LISTING_CACHE_TTL, "10s", "how long the door caches an origin's listing and file metadata", v -> parseDuration(v));
        define(WATERMARK_HIGH, "0.95", "pool eviction starts when the store exceeds this fraction of its capacity", ClusterSettings::fraction);
        define(WATERMARK_LOW, "0.90", "pool eviction stops when the store is back under this fraction", ClusterSettings::fraction);
        define(WRITE_BEHIND, "1G", "memory a pool may hold of received bytes not yet on disk, so that clients of a miss are "
                + "served at network speed while the disk catches up; above it, origin reads pause", v -> ByteSize.parse(v));
        define(SELECTION_POLICY, "affinity", "how the door chooses a pool: random (the seed design: a missing pool asks all peers and "
                + "redirects to one that holds the file), least-loaded, or affinity (weighted rendezvous hashing of the path, "
                + "spilling past loaded pools; a missing pool pulls from the pools ranked above it)", ClusterSettings::policy);
        define(SITE_MAP, "", "comma-separated CIDR=site: the site of a client by its address, for nearest-first pool lists "
                + "(e.g. 10.0.0.0/8=cern,127.0.0.0/8=local)", SiteMap::parse);
        define(PERMISSION_CACHE_TTL, "5m", "how long a pool trusts that a subject may read a file before it asks the origin again (0: always ask)",
                v -> parseDuration(v));
        define(PEER_TIMEOUT, "2s", "how long a missing pool waits for its peers to say whether they hold a file before it "
                + "goes to the origin", v -> positive(parseDuration(v)));
        define(SPILL_LOAD, "16", "affinity: a pool whose published load (active movers + bytes/s out / 100 MB/s) is above "
                + "this is passed over for the next-ranked one, so a hot file gains copies", ClusterSettings::nonNegative);
        define(ZK_GRACE, "5m", "how long a door keeps redirecting to the pools it last knew while ZooKeeper is unreachable; "
                + "after that it answers 503", v -> parseDuration(v));
        define(GRIDFTP_STREAMS, "1", "parallel TCP streams of a pool's GridFTP fetch: 1 is stream mode, more is MODE E (1-64)",
                ClusterSettings::streams);
        define(GRIDFTP_DCAU, "true", "whether GridFTP data channels are authenticated with the user's credential (DCAU A, else N)",
                ClusterSettings::parseBoolean);
        define(GRIDFTP_PROTECTION, "clear", "GridFTP data channel protection: clear, safe (integrity) or private (encrypted); "
                + "safe and private need gridftp.dcau=true", ClusterSettings::protection);
        define(GRIDFTP_CHECKSUM, "adler32", "checksum a pool asks a GridFTP origin for (CKSM) and compares with what it wrote: "
                + "adler32, md5 (the other is tried when the server lacks one) or none", ClusterSettings::checksum);
        define(GRIDFTP_TIMEOUT, "60s", "how long a GridFTP server may leave a command unanswered, or a transfer without a byte, "
                + "before the pool gives the fetch up (502)", v -> parseDuration(v));
    }

    private static void define(String key, String def, String description, Consumer<String> check) {
        KNOWN.put(key, new Setting(key, def, description, check));
    }

    private final Map<String, String> values;
    /** Compiled once per snapshot: the door matches them on every read. */
    private final List<Pattern> proxyUserAgents;
    private final SiteMap siteMap;

    private ClusterSettings(Map<String, String> values) {
        this.values = values;
        this.proxyUserAgents = parsePatterns(get(PROXY_USER_AGENTS));
        this.siteMap = SiteMap.parse(get(SITE_MAP));
    }

    public static ClusterSettings defaults() {
        return new ClusterSettings(Map.of());
    }

    /** A snapshot of {@code raw}; throws when any value is unknown or invalid, so callers can keep the last good one. */
    public static ClusterSettings of(Map<String, String> raw) {
        raw.forEach(ClusterSettings::validate);
        return new ClusterSettings(Map.copyOf(raw));
    }

    public static Map<String, Setting> known() {
        return Collections.unmodifiableMap(KNOWN);
    }

    public static void validate(String key, String value) {
        Setting setting = KNOWN.get(key);
        if (setting == null) {
            throw new IllegalArgumentException("unknown setting '" + key + "' (known: " + String.join(", ", KNOWN.keySet()) + ")");
        }
        try {
            setting.check().accept(value);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("invalid value '" + value + "' for " + key + ": " + e.getMessage());
        }
    }

    public String get(String key) {
        String v = values.get(key);
        return v != null ? v : KNOWN.get(key).defaultValue();
    }

    public Map<String, String> explicitValues() {
        return values;
    }

    public boolean redirectOnRead() {
        return parseBoolean(get(REDIRECT_ON_READ));
    }

    public Duration ticketLifetime() {
        return parseDuration(get(TICKET_LIFETIME));
    }

    public List<Pattern> proxyUserAgents() {
        return proxyUserAgents;
    }

    public Duration listingCacheTtl() {
        return parseDuration(get(LISTING_CACHE_TTL));
    }

    public double watermarkHigh() {
        return fraction(get(WATERMARK_HIGH));
    }

    public double watermarkLow() {
        return fraction(get(WATERMARK_LOW));
    }

    public long writeBehindBytes() {
        return ByteSize.parse(get(WRITE_BEHIND));
    }

    /** random, least-loaded or affinity. */
    public String selectionPolicy() {
        return policy(get(SELECTION_POLICY));
    }

    public SiteMap siteMap() {
        return siteMap;
    }

    public Duration permissionCacheTtl() {
        return parseDuration(get(PERMISSION_CACHE_TTL));
    }

    public Duration peerTimeout() {
        return parseDuration(get(PEER_TIMEOUT));
    }

    public double spillLoad() {
        return nonNegative(get(SPILL_LOAD));
    }

    public Duration zkGrace() {
        return parseDuration(get(ZK_GRACE));
    }

    private static String policy(String v) {
        String p = v.trim().toLowerCase(Locale.ROOT);
        if (!POLICIES.contains(p)) {
            throw new IllegalArgumentException("unknown policy (known: " + String.join(", ", POLICIES) + ")");
        }
        return p;
    }

    public int gridftpStreams() {
        return streams(get(GRIDFTP_STREAMS));
    }

    public boolean gridftpDcau() {
        return parseBoolean(get(GRIDFTP_DCAU));
    }

    /** clear, safe or private. */
    public String gridftpProtection() {
        return protection(get(GRIDFTP_PROTECTION));
    }

    public Duration gridftpTimeout() {
        return parseDuration(get(GRIDFTP_TIMEOUT));
    }

    /** adler32, md5 or none. */
    public String gridftpChecksum() {
        return checksum(get(GRIDFTP_CHECKSUM));
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

    private static String protection(String v) {
        String p = v.trim().toLowerCase(Locale.ROOT);
        if (!List.of("clear", "safe", "private").contains(p)) {
            throw new IllegalArgumentException("expected clear, safe or private");
        }
        return p;
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

    private static String checksum(String v) {
        String c = v.trim().toLowerCase(Locale.ROOT);
        if (!List.of("adler32", "md5", "none").contains(c)) {
            throw new IllegalArgumentException("expected adler32, md5 or none");
        }
        return c;
    }

    static boolean parseBoolean(String v) {
        return switch (v.trim().toLowerCase(Locale.ROOT)) {
            case "true", "yes", "on" -> true;
            case "false", "no", "off" -> false;
            default -> throw new IllegalArgumentException("expected true or false");
        };
    }

    /** "60s", "500ms", "2m", "1h", or a plain number of seconds. */
    public static Duration parseDuration(String v) {
        String s = v.trim().toLowerCase(Locale.ROOT);
        try {
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
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("expected a duration such as 60s, 500ms, 2m");
        }
    }

    private static void positive(Duration d) {
        if (d.isZero() || d.isNegative()) {
            throw new IllegalArgumentException("must be positive");
        }
    }

    private static List<Pattern> parsePatterns(String v) {
        try {
            return java.util.Arrays.stream(v.split(",")).map(String::trim).filter(s -> !s.isEmpty()).map(Pattern::compile).toList();
        } catch (java.util.regex.PatternSyntaxException e) {
            throw new IllegalArgumentException("not a regular expression: " + e.getDescription());
        }
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
}
