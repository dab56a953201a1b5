package org.gridcache.zk;

import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonProcessingException;
import java.io.IOException;
import java.net.URI;
import java.net.URISyntaxException;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import org.gridcache.common.Json;
import org.gridcache.common.origin.OriginEntry;
import org.gridcache.common.cluster.PoolRecord;
import org.gridcache.common.ticket.TicketKeys;

/**
 * What a node checks of every record it reads from ZooKeeper before using it: the mount table's entries and the pools'
 * records steer where pools fetch from (and present users' proxies to) and where clients and tickets are sent, the
 * doors' records hold the keys pools verify tickets with, so a record that does not hold together is refused with the
 * reason ({@link IllegalArgumentException}) and {@link WatchedJsonTree} leaves it out with a log line; the rest of the
 * table goes on working.
 */
public final class RecordChecks {
    private static final Set<String> POOL_STATES = Set.of(PoolRecord.ENABLED, PoolRecord.DRAINING, PoolRecord.READONLY);

    private RecordChecks() {
    }

    /**
     * An origin entry stored as {@code /origins/<name>}: it must be one that {@code gridcache origins add} could have
     * written — the same rules ({@link OriginEntry#of}), its own name, a protocol that is the URL's scheme, no
     * password in the URL, a host for http(s), none for file.
     */
    public static OriginEntry origin(String name, byte[] data) {
        OriginEntry e = Json.read(data, OriginEntry.class);
        if (e.name() == null || e.prefix() == null || e.url() == null) {
            throw new IllegalArgumentException("an origin entry needs name, prefix and url");
        }
        if (!e.name().equals(name)) {
            throw new IllegalArgumentException("entry names origin '" + e.name() + "' but is stored as '" + name + "'");
        }
        OriginEntry checked = OriginEntry.of(e.name(), e.prefix(), e.url(), e.credentialMode().id()).withVo(e.vo());
        if (e.protocol() != null && !e.protocol().equals(checked.protocol())) {
            throw new IllegalArgumentException("protocol '" + e.protocol() + "' is not the scheme of " + e.url());
        }
        URI uri = uri(checked.url());
        if (uri.getRawUserInfo() != null) {
            throw new IllegalArgumentException("an origin URL must not carry a user or password");
        }
        if (uri.getRawFragment() != null) {
            throw new IllegalArgumentException("an origin URL has no fragment");
        }
        switch (checked.protocol()) {
            case "http", "https" -> {
                if (uri.getHost() == null) {
                    throw new IllegalArgumentException("an http(s) origin URL needs a host: " + checked.url());
                }
            }
            case "file" -> {
                if (uri.getRawAuthority() != null || uri.getPath() == null || !uri.getPath().startsWith("/")) {
                    throw new IllegalArgumentException("a file origin URL is file:///absolute/path: " + checked.url());
                }
            }
            default -> {
                // gsiftp: OriginEntry.of checked host, query and user
            }
        }
        return checked;
    }

    /**
     * A pool's record stored as {@code /pools/<name>}: its own id, an http(s) URL with a host and nothing else
     * (clients and tickets go there), a known state, no negative counts, and if it names a ticket key, a public
     * Ed25519 JWK whose {@code kid} is its thumbprint (its peers verify the pool's requests with it).
     */
    public static PoolRecord pool(String name, byte[] data) {
        PoolRecord r = keyRecord(data, PoolRecord.class, "pool");
        if (r.id() == null || !r.id().equals(name)) {
            throw new IllegalArgumentException("record names pool '" + r.id() + "' but is stored as '" + name + "'");
        }
        if (r.url() == null) {
            throw new IllegalArgumentException("a pool record needs a url");
        }
        nodeUrl("pool", r.url());
        if (!POOL_STATES.contains(r.state())) {
            throw new IllegalArgumentException("unknown pool state '" + r.state() + "'");
        }
        if (r.capacityBytes() < 0 || r.freeBytes() < 0 || r.activeMovers() < 0 || r.hits() < 0 || r.misses() < 0
                || !Double.isFinite(r.load()) || r.load() < 0) {
            throw new IllegalArgumentException("a pool record has negative or non-finite counts");
        }
        if (r.ticketKey() != null) {
            try {
                TicketKeys.parsePublished(r.ticketKey());
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("pool " + name + " publishes an unusable ticket key: " + e.getMessage());
            }
        }
        return r;
    }

    /** The most ticket keys a door publishes: the current one and, during a roll-over, the previous one (and room). */
    public static final int MAX_DOOR_TICKET_KEYS = 4;

    /**
     * A door's record stored as {@code /doors/<id>}: its own id, an http(s) URL with a host if it names one, and
     * 1 to {@value #MAX_DOOR_TICKET_KEYS} ticket keys, each a public Ed25519 JWK whose {@code kid} is its RFC 7638
     * thumbprint ({@link TicketKeys#parsePublished}). Pools verify the door's tickets with these keys, so one bad key
     * refuses the whole record: a half-read record could leave a retired key trusted. A key's private part is never
     * quoted, nor is the JSON itself.
     *
     * @return the record's keys, public key by kid
     */
    public static Map<String, byte[]> doorTicketKeys(String name, byte[] data) {
        DoorFields r = keyRecord(data, DoorFields.class, "door");
        if (r.id() == null || !r.id().equals(name)) {
            throw new IllegalArgumentException("record names door '" + r.id() + "' but is stored as '" + name + "'");
        }
        if (r.url() != null) {
            nodeUrl("door", r.url());
        }
        List<Map<String, Object>> keys = r.ticketKeys();
        if (keys == null || keys.isEmpty()) {
            throw new IllegalArgumentException("a door record needs its ticket keys (ticketKeys)");
        }
        if (keys.size() > MAX_DOOR_TICKET_KEYS) {
            throw new IllegalArgumentException("a door publishes at most " + MAX_DOOR_TICKET_KEYS + " ticket keys, not " + keys.size());
        }
        Map<String, byte[]> byKid = new HashMap<>();
        for (int i = 0; i < keys.size(); i++) {
            try {
                TicketKeys.Published key = TicketKeys.parsePublished(keys.get(i));
                byKid.put(key.kid(), key.publicKey());
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("ticket key " + (i + 1) + " of door " + name + ": " + e.getMessage());
            }
        }
        return Map.copyOf(byKid);
    }

    /** The part of a door's record ({@code DoorRecord}, which lives in the door) that others rely on. */
    private record DoorFields(String id, String url, List<Map<String, Object>> ticketKeys) {
    }

    /**
     * A record that may hold key material, decoded; when it is not well-formed JSON of that shape, only where it
     * fails is said: a parser's message quotes the token it failed on, which may be a private key.
     */
    private static <T> T keyRecord(byte[] data, Class<T> type, String what) {
        T r;
        try {
            r = Json.mapper().readValue(data, type);
        } catch (JsonProcessingException e) {
            JsonLocation at = e.getLocation();
            throw new IllegalArgumentException("malformed " + what + " record JSON" + (at == null ? ""
                    : " (line " + at.getLineNr() + ", column " + at.getColumnNr() + ")"));
        } catch (IOException e) {
            throw new IllegalArgumentException("malformed " + what + " record JSON");
        }
        if (r == null) {
            throw new IllegalArgumentException("a " + what + " record is a JSON object");
        }
        return r;
    }

    /** Where a node's record sends clients and tickets: {@code http(s)://host[:port][/path]}, nothing else. */
    private static void nodeUrl(String what, String url) {
        URI uri = uri(url);
        String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
        if (!scheme.equals("http") && !scheme.equals("https")) {
            throw new IllegalArgumentException("a " + what + " URL must be http:// or https:// (got '" + url + "')");
        }
        if (uri.getHost() == null || uri.getRawUserInfo() != null || uri.getRawQuery() != null || uri.getRawFragment() != null) {
            throw new IllegalArgumentException("a " + what + " URL is http(s)://host[:port][/path] (got '" + url + "')");
        }
    }

    private static URI uri(String url) {
        try {
            return new URI(url);
        } catch (URISyntaxException e) {
            throw new IllegalArgumentException("not a URL: " + e.getMessage());
        }
    }
}
