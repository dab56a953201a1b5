package org.gridcache.common;

import java.util.Locale;

/**
 * Where a pool writes a miss's received bytes into its store ({@code pool.fill-writers}): {@code idle}, on threads in
 * Linux's SCHED_IDLE class, which run only on cores nothing else wants, so that the fetch and the clients' transfers
 * go first while the write-behind memory holds the bytes; or {@code normal}, on threads scheduled as the pool's others.
 */
public enum FillWriters {
    IDLE, NORMAL;

    public String label() {
        return name().toLowerCase(Locale.ROOT);
    }

    public static FillWriters parse(String v) {
        FillWriters w = SettingTypes.byLabel(FillWriters.class, v, FillWriters::label);
        if (w == null) {
            throw new IllegalArgumentException("expected idle or normal");
        }
        return w;
    }

    @Override
    public String toString() {
        return label();
    }
}
