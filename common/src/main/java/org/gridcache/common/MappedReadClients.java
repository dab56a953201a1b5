package org.gridcache.common;

import java.util.Locale;

/**
 * Which clients a pool sends hot reads to by copying from a memory mapping of the file rather than with
 * {@code sendfile(2)} ({@code pool.mapped-reads}): {@code local}, clients on the pool's own host (over loopback the
 * receiver copies every byte anyway, so zero-copy saves nothing there); {@code all}; {@code none}.
 */
public enum MappedReadClients {
    LOCAL, ALL, NONE;

    public String label() {
        return name().toLowerCase(Locale.ROOT);
    }

    public static MappedReadClients parse(String v) {
        MappedReadClients c = SettingTypes.byLabel(MappedReadClients.class, v, MappedReadClients::label);
        if (c == null) {
            throw new IllegalArgumentException("expected local, all or none");
        }
        return c;
    }

    @Override
    public String toString() {
        return label();
    }
}
