package org.gridcache.common.settings;

import java.util.Locale;

/**
 * How the door's WLCG storage report divides the cache into shares ({@code srr.shares}): one per origin, or one per
 * virtual organisation, an origin's cached files counting under the VO its mount declares.
 */
public enum StorageShares {
    ORIGIN, VO;

    public String label() {
        return name().toLowerCase(Locale.ROOT);
    }

    public static StorageShares parse(String v) {
        StorageShares s = SettingTypes.byLabel(StorageShares.class, v, StorageShares::label);
        if (s == null) {
            throw new IllegalArgumentException("expected origin or vo");
        }
        return s;
    }

    @Override
    public String toString() {
        return label();
    }
}
