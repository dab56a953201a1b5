package org.gridcache.common.settings;

import static org.gridcache.common.settings.ClusterSettings.Apply.LIVE;

import java.time.Duration;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import org.gridcache.common.settings.SettingTypes.Type;

/**
 * The cluster-wide settings kept in ZooKeeper under {@code /config} (ARCHITECTURE.md, "Settings"): every key is one
 * declaration in {@link Keys}, and a {@code ClusterSettings} is an immutable snapshot whose values were parsed once,
 * when it was built, so readers on the request path only look them up. Unknown keys are refused so that typos show;
 * a key that was once known and then removed ({@link #retired}) is ignored instead, so that a cluster whose ZooKeeper
 * still holds it keeps its other settings.
 */
public final class ClusterSettings {
    /** Whether a node applies a new value at once or only when it starts again. */
    public enum Apply { LIVE, RESTART }

    /** One known setting: its type, its default (as an admin would write it), when it applies and what it does. */
    public record Setting<T>(String key, Type<T> type, String defaultValue, Apply apply, String description) {
        /** The value of {@code value}; the message names the value, the key and the reason, as the CLI shows it. */
        public T parse(String value) {
            try {
                return type.parse(value);
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("invalid value '" + value + "' for " + key + ": " + e.getMessage());
            }
        }

        @Override
        public String toString() {
            return key;
        }
    }

    /**
     * Every setting, one declaration each. All are {@link Apply#LIVE}: doors and pools read them from the current
     * snapshot on each use (or on {@code ClusterConfig.onChange}), and a GridFTP fetch takes its options when it starts.
     */
    public static final class Keys {
        private static final Map<String, Setting<?>> KNOWN = new LinkedHashMap<>();
        private static final Map<Setting<?>, Object> DEFAULTS = new HashMap<>();

        public static final Setting<Boolean> REDIRECT_ON_READ = define("redirect.on-read", SettingTypes.BOOLEAN, "true", LIVE,
                "false: the door streams every read itself instead of redirecting (dCache's webdav.redirect.on-read)");
        public static final Setting<Boolean> REDIRECT_ON_WRITE = define("redirect.on-write", SettingTypes.BOOLEAN, "true", LIVE,
                "false: the door proxies every PUT itself instead of redirecting a client that sends Expect: 100-continue to a pool");
        public static final Setting<Duration> TICKET_LIFETIME = define("ticket.lifetime", SettingTypes.TICKET_LIFETIME, "60s", LIVE,
                "how long a read ticket stays valid (reusable until then; at most 10m)");
        public static final Setting<List<Pattern>> PROXY_USER_AGENTS = define("door.proxy-user-agents", SettingTypes.PATTERNS,
                "^cadaver/,^davfs2/,^litmus/,^neon/,^Microsoft-WebDAV-MiniRedir/", LIVE,
                "comma-separated regular expressions of User-Agents that cannot follow redirects: the door proxies for them");
        public static final Setting<Integer> PROXY_MAX_TRANSFERS = define("door.proxy-max-transfers", SettingTypes.COUNT, "64", LIVE,
                "how many reads one door streams itself at once (proxy mode holds a door thread each); beyond, 503 with "
                + "Retry-After");
        public static final Setting<Integer> DOOR_MAX_CONNECTIONS = define("door.max-connections", SettingTypes.POSITIVE_COUNT,
                "1024", LIVE, "client connections one door keeps open at once; beyond, it stops accepting and new "
                + "connections wait in the kernel's backlog until one closes (Jetty's NetworkConnectionLimit)");
        public static final Setting<Duration> DOOR_IDLE_TIMEOUT = define("door.idle-timeout", SettingTypes.POSITIVE_DURATION, "30s",
                LIVE, "how long a door keeps an idle client connection open");
        public static final Setting<Duration> DOOR_LOW_RESOURCES_IDLE_TIMEOUT = define("door.low-resources-idle-timeout",
                SettingTypes.POSITIVE_DURATION, "5s", LIVE, "the shorter idle timeout while a door is short of threads or at "
                + "door.max-connections (Jetty's LowResourceMonitor), so idle clients make room for working ones");
        public static final Setting<Duration> DOOR_HEADER_TIMEOUT = define("door.header-timeout", SettingTypes.POSITIVE_DURATION,
                "20s", LIVE, "how long a client may take to send a request's line and headers, from its first byte, before "
                + "the door closes the connection (slow-header clients, as Apache's mod_reqtimeout)");
        public static final Setting<Duration> POOL_HEADER_TIMEOUT = define("pool.header-timeout", SettingTypes.POSITIVE_DURATION,
                "20s", LIVE, "how long a client may take to send a request's line and headers, from its first byte, before "
                + "the pool closes the connection; for new connections");
        public static final Setting<Duration> POOL_SEND_TIMEOUT = define("pool.send-timeout", SettingTypes.POSITIVE_DURATION,
                "60s", LIVE, "how long a response may make no progress (a client that stopped reading) before the pool "
                + "closes the connection; for new connections");
        public static final Setting<Duration> LISTING_CACHE_TTL = define("door.listing-cache-ttl", SettingTypes.DURATION, "10s", LIVE,
                "how long the door caches an origin's listing and file metadata");
        public static final Setting<Long> LISTING_MAX_BYTES = define("door.listing-max-bytes", SettingTypes.BYTE_SIZE, "8M", LIVE,
                "the largest origin listing (PROPFIND answer) the door reads; a larger one is a 502");
        public static final Setting<Long> LISTING_CACHE_SIZE = define("door.listing-cache-size", SettingTypes.BYTE_SIZE, "64M", LIVE,
                "what the door's cache of origin entries and listings may hold in memory (estimated bytes)");
        public static final Setting<Double> WATERMARK_HIGH = define("pool.watermark.high", SettingTypes.FRACTION, "0.95", LIVE,
                "pool eviction starts when the store exceeds this fraction of its capacity");
        public static final Setting<Double> WATERMARK_LOW = define("pool.watermark.low", SettingTypes.FRACTION, "0.90", LIVE,
                "pool eviction stops when the store is back under this fraction");
        public static final Setting<Long> WRITE_BEHIND = define("pool.write-behind", SettingTypes.BYTE_SIZE, "1G", LIVE,
                "memory a pool may hold of received bytes not yet on disk, so that clients of a miss are "
                + "served at network speed while the disk catches up; above it, origin reads pause");
        public static final Setting<SelectionPolicy> SELECTION_POLICY = define("selection.policy", SettingTypes.SELECTION_POLICY,
                "affinity", LIVE, "how the door chooses a pool: random (the seed design: a missing pool asks all peers and "
                + "redirects to one that holds the file), least-loaded, or affinity (weighted rendezvous hashing of the path, "
                + "spilling past loaded pools; a missing pool pulls from the pools ranked above it)");
        public static final Setting<SiteMap> SITE_MAP = define("door.site-map", SettingTypes.SITE_MAP, "", LIVE,
                "comma-separated CIDR=site: the site of a client by its address, for nearest-first pool lists "
                + "(e.g. 10.0.0.0/8=cern,127.0.0.0/8=local)");
        public static final Setting<Duration> PERMISSION_CACHE_TTL = define("pool.permission-cache-ttl", SettingTypes.DURATION, "5m",
                LIVE, "how long a pool trusts that a subject may read a file before it asks the origin again (0: always ask)");
        public static final Setting<Duration> PEER_TIMEOUT = define("selection.peer-timeout", SettingTypes.POSITIVE_DURATION, "2s",
                LIVE, "how long a missing pool waits for its peers to say whether they hold a file before it goes to the origin");
        public static final Setting<Double> SPILL_LOAD = define("selection.spill-load", SettingTypes.NON_NEGATIVE, "16", LIVE,
                "affinity: a pool whose published load (active movers + bytes/s out / 100 MB/s) is above "
                + "this is passed over for the next-ranked one, so a hot file gains copies");
        public static final Setting<Duration> ZK_GRACE = define("door.zk-grace", SettingTypes.DURATION, "5m", LIVE,
                "how long a door keeps redirecting to the pools it last knew while ZooKeeper is unreachable; "
                + "after that it answers 503");
        public static final Setting<Duration> POOL_PING_PERIOD = define("door.pool-ping-period", SettingTypes.POSITIVE_DURATION,
                "500ms", LIVE, "how often a door asks each pool GET /.gridcache/health over the connection it keeps to it; a pool "
                + "that refuses, closes or leaves door.pool-ping-misses pings unanswered gets no new read until it answers again");
        public static final Setting<Integer> POOL_PING_MISSES = define("door.pool-ping-misses", SettingTypes.POSITIVE_COUNT, "2",
                LIVE, "how many pings in a row a pool may leave unanswered (a host gone without closing its connections) "
                + "before the door sends it no new read");
        public static final Setting<List<String>> REDIRECT_HOSTS = define("pool.redirect-hosts", SettingTypes.HOSTS, "", LIVE,
                "comma-separated hosts (or *.domain) a pool may follow an origin's redirect to, besides the origin's own host "
                + "and the hosts of the mount table; never from https to http");
        public static final Setting<Integer> GRIDFTP_STREAMS = define("gridftp.streams", SettingTypes.STREAMS, "1", LIVE,
                "parallel TCP streams of a pool's GridFTP fetch: 1 is stream mode, more is MODE E (1-64)");
        public static final Setting<Boolean> GRIDFTP_DCAU = define("gridftp.dcau", SettingTypes.BOOLEAN, "true", LIVE,
                "whether GridFTP data channels are authenticated with the user's credential (DCAU A, else N)");
        public static final Setting<GridFtpProtection> GRIDFTP_PROTECTION = define("gridftp.protection",
                SettingTypes.GRIDFTP_PROTECTION, "clear", LIVE, "GridFTP data channel protection: clear, safe (integrity) or "
                + "private (encrypted); safe and private need gridftp.dcau=true");
        public static final Setting<GridFtpChecksum> GRIDFTP_CHECKSUM = define("gridftp.checksum", SettingTypes.GRIDFTP_CHECKSUM,
                "adler32", LIVE, "checksum a pool asks a GridFTP origin for (CKSM) and compares with what it wrote: "
                + "adler32, md5 (the other is tried when the server lacks one) or none");
        public static final Setting<java.util.Set<org.gridcache.common.checksum.ChecksumType>> POOL_CHECKSUMS = define("pool.checksums",
                SettingTypes.CHECKSUM_TYPES, "adler32,crc32c", LIVE, "checksums a pool computes while a file fills "
                + "(one pass, kept in the sidecar, answered to Want-Digest); any other is computed when a client first asks for it, "
                + "then kept; md5 and sha-256 cost CPU, a fetch started after a change uses the new set");
        public static final Setting<Duration> GRIDFTP_TIMEOUT = define("gridftp.timeout", SettingTypes.DURATION, "60s", LIVE,
                "how long a GridFTP server may leave a command unanswered, or a transfer without a byte, "
                + "before the pool gives the fetch up (502)");
        public static final Setting<Duration> TPC_MARKER_INTERVAL = define("tpc.marker-interval", SettingTypes.POSITIVE_DURATION,
                "5s", LIVE, "how often a pool doing an HTTP third-party copy sends the client a performance marker "
                + "(WLCG asks for at least one every 30 s; dCache sends one every 5 s)");
        public static final Setting<org.gridcache.common.net.AllowedHosts> TPC_ALLOWED_HOSTS = define(
                org.gridcache.common.net.AllowedHosts.KEY, SettingTypes.ALLOWED_HOSTS, "", LIVE,
                "comma-separated address blocks (10.1.0.0/16, 127.0.0.1) and host names (or *.domain) a third-party copy may "
                + "reach although they are loopback, link-local, private, unique-local, multicast or metadata addresses, "
                + "which are refused otherwise (at every redirect too)");

        public static final Setting<Long> BLOCK_SIZE = define("pool.block-size", SettingTypes.BLOCK_SIZE, "128k", LIVE,
                "the block of a partially cached file (128k-1M): a Range on a cold file fetches and keeps the blocks it "
                + "touches; small blocks fetch less beyond the ranges asked for, a partial file keeps the size it started with");
        public static final Setting<Integer> BLOCK_PREFETCH = define("pool.block-prefetch", SettingTypes.COUNT, "0", LIVE,
                "blocks after a partial read's last one that are fetched along, for a client reading on (0: none)");

        public static final Setting<Duration> MACAROON_MAX_VALIDITY = define("macaroon.max-validity", SettingTypes.POSITIVE_DURATION,
                "168h", LIVE, "the longest a door-issued macaroon lives (dCache's default, 7 days); a longer validity asked "
                + "for is cut to this, and the answer says so in Macaroon-Validity-Capped");

        public static final Setting<StorageShares> SRR_SHARES = define("srr.shares", SettingTypes.STORAGE_SHARES, "origin",
                LIVE, "the shares of the door's WLCG storage report (/.gridcache/api/v1/srr): one per origin, or vo: one per "
                + "VO that mounts declare (origins add --vo), an origin's cached files counting in its VO's share; "
                + "origins that declare none stay shares of their own");

        private Keys() {
        }

        private static <T> Setting<T> define(String key, Type<T> type, String def, Apply apply, String description) {
            Setting<T> setting = new Setting<>(key, type, def, apply, description);
            DEFAULTS.put(setting, setting.parse(def)); // a bad default fails here, not in the first node that reads it
            KNOWN.put(key, setting);
            return setting;
        }
    }

    /**
     * Keys that were settings once, with what replaced them: a snapshot ignores them, and {@code config set} refuses
     * them as it does unknown keys.
     */
    private static final Map<String, String> RETIRED = Map.of(
            "pool.fill-writers", "fills are written by the pool's disk writers at normal priority",
            "pool.direct-writes", "fills are written through the page cache",
            "pool.mapped-reads", "hot reads are sent with sendfile",
            "pool.sparse-min-size", "a Range on a cold file reads and keeps its blocks, whatever the file's size");

    /** The explicit values, as stored. */
    private final Map<String, String> values;
    /** Every known key's value, explicit or default, parsed. */
    private final Map<Setting<?>, Object> parsed;

    private ClusterSettings(Map<String, String> values, Map<Setting<?>, Object> explicit) {
        this.values = values;
        Map<Setting<?>, Object> all = new HashMap<>(Keys.DEFAULTS);
        all.putAll(explicit);
        this.parsed = Map.copyOf(all);
    }

    public static ClusterSettings defaults() {
        return new ClusterSettings(Map.of(), Map.of());
    }

    /**
     * A snapshot of {@code raw} without its {@linkplain #retired retired} keys; throws when any other value is unknown
     * or invalid, so callers can keep the last good one.
     */
    public static ClusterSettings of(Map<String, String> raw) {
        Map<String, String> current = new HashMap<>(raw);
        current.keySet().removeAll(RETIRED.keySet());
        Map<Setting<?>, Object> explicit = new HashMap<>();
        current.forEach((key, value) -> explicit.put(setting(key), setting(key).parse(value)));
        return new ClusterSettings(Map.copyOf(current), explicit);
    }

    /** What replaced {@code key} if it is a setting that was removed; null for any other key. */
    public static String retired(String key) {
        return RETIRED.get(key);
    }

    public static Map<String, Setting<?>> known() {
        return Collections.unmodifiableMap(Keys.KNOWN);
    }

    /** The declaration of {@code key}; throws, listing the known keys, when there is none. */
    public static Setting<?> setting(String key) {
        Setting<?> setting = Keys.KNOWN.get(key);
        if (setting == null && RETIRED.containsKey(key)) {
            throw new IllegalArgumentException("setting '" + key + "' was removed: " + RETIRED.get(key));
        }
        if (setting == null) {
            throw new IllegalArgumentException("unknown setting '" + key + "' (known: " + String.join(", ", Keys.KNOWN.keySet()) + ")");
        }
        return setting;
    }

    public static void validate(String key, String value) {
        setting(key).parse(value);
    }

    /** The value in force, parsed when this snapshot was built. */
    @SuppressWarnings("unchecked")
    public <T> T get(Setting<T> setting) {
        return (T) parsed.get(setting);
    }

    /** The value in force as written (explicit or default): what {@code gridcache config list} and JMX show. */
    public String get(String key) {
        String v = values.get(key);
        return v != null ? v : setting(key).defaultValue();
    }

    public Map<String, String> explicitValues() {
        return values;
    }

    /** "60s", "500ms", "2m", "1h", or a plain number of seconds. */
    public static Duration parseDuration(String v) {
        return SettingTypes.parseDuration(v);
    }
}
