package org.gridcache.common.settings;

import java.util.Locale;

/**
 * GridFTP data channel protection ({@code gridftp.protection}). The gridftp module has its own
 * {@code GridFtpOptions.Protection}: common does not depend on gridftp, so the pool maps one to the other by name.
 */
public enum GridFtpProtection {
    CLEAR, SAFE, PRIVATE;

    public String label() {
        return name().toLowerCase(Locale.ROOT);
    }

    public static GridFtpProtection parse(String v) {
        GridFtpProtection p = SettingTypes.byLabel(GridFtpProtection.class, v, GridFtpProtection::label);
        if (p == null) {
            throw new IllegalArgumentException("expected clear, safe or private");
        }
        return p;
    }

    @Override
    public String toString() {
        return label();
    }
}
