package org.gridcache.common.checksum;

import java.util.Collections;
import java.util.EnumMap;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.StringJoiner;

/**
 * The known checksums of one file (any subset of {@link ChecksumType}), immutable. Stored in a pool's sidecar as
 * {@code {"adler32": "<hex>", ...}} (hex for every type there: one form to compare).
 */
public final class Checksums {
    public static final Checksums NONE = new Checksums(new EnumMap<>(ChecksumType.class));
    private final Map<ChecksumType, byte[]> values;

    private Checksums(EnumMap<ChecksumType, byte[]> values) {
        this.values = values;
    }

    public static Checksums of(Map<ChecksumType, byte[]> values) {
        EnumMap<ChecksumType, byte[]> copy = new EnumMap<>(ChecksumType.class);
        values.forEach((t, v) -> copy.put(t, v.clone()));
        return new Checksums(copy);
    }

    /** From a sidecar's map (null: none); an entry that does not parse is left out rather than trusted. */
    public static Checksums fromHex(Map<String, String> hex) {
        EnumMap<ChecksumType, byte[]> parsed = new EnumMap<>(ChecksumType.class);
        if (hex != null) {
            hex.forEach((name, value) -> {
                ChecksumType t = ChecksumType.byName(name);
                if (t != null && value != null && value.length() == 2 * t.length()) {
                    try {
                        parsed.put(t, HexFormat.of().parseHex(value));
                    } catch (IllegalArgumentException e) {
                        // not hex: unknown
                    }
                }
            });
        }
        return new Checksums(parsed);
    }

    /** For the sidecar: RFC 3230 name to lower-case hex, in the enum's order. */
    public Map<String, String> toHex() {
        Map<String, String> hex = new LinkedHashMap<>();
        values.forEach((t, v) -> hex.put(t.rfc3230Name(), HexFormat.of().formatHex(v)));
        return Collections.unmodifiableMap(hex);
    }

    public boolean isEmpty() {
        return values.isEmpty();
    }

    /** The types with a value. */
    public java.util.Set<ChecksumType> types() {
        return Collections.unmodifiableSet(values.keySet());
    }

    public boolean has(ChecksumType type) {
        return values.containsKey(type);
    }

    /** The digest's bytes, or null when unknown. */
    public byte[] get(ChecksumType type) {
        byte[] v = values.get(type);
        return v == null ? null : v.clone();
    }

    /** The types both know whose values differ; empty when they agree on every type both know. */
    public Map<ChecksumType, byte[]> disagreements(Checksums other) {
        Map<ChecksumType, byte[]> differ = new EnumMap<>(ChecksumType.class);
        values.forEach((t, v) -> {
            byte[] o = other.values.get(t);
            if (o != null && !java.util.Arrays.equals(v, o)) {
                differ.put(t, o);
            }
        });
        return differ;
    }

    /** Only the values of {@code types}. */
    public Checksums only(java.util.Set<ChecksumType> types) {
        EnumMap<ChecksumType, byte[]> kept = new EnumMap<>(ChecksumType.class);
        values.forEach((t, v) -> {
            if (types.contains(t)) {
                kept.put(t, v);
            }
        });
        return new Checksums(kept);
    }

    /** This set with {@code other}'s values added where this has none. */
    public Checksums with(Checksums other) {
        EnumMap<ChecksumType, byte[]> merged = new EnumMap<>(ChecksumType.class);
        merged.putAll(other.values);
        merged.putAll(values);
        return new Checksums(merged);
    }

    /**
     * All known values as one RFC 3230 {@code Digest} value ({@code adler32=…,md5=…}): dCache's
     * {@code {http://www.dcache.org/2013/webdav}Checksums} property has this form.
     */
    public String rfc3230() {
        StringJoiner j = new StringJoiner(",");
        values.forEach((t, v) -> j.add(t.rfc3230Name() + "=" + t.rfc3230Value(v)));
        return j.toString();
    }

    @Override
    public String toString() {
        return rfc3230();
    }
}
