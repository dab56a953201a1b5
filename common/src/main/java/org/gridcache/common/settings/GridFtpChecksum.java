package org.gridcache.common.settings;

import java.util.Locale;

/** The checksum a pool asks a GridFTP origin for ({@code gridftp.checksum}); NONE skips verification. */
public enum GridFtpChecksum {
    ADLER32, MD5, NONE;

    public String label() {
        return name().toLowerCase(Locale.ROOT);
    }

    public static GridFtpChecksum parse(String v) {
        GridFtpChecksum c = SettingTypes.byLabel(GridFtpChecksum.class, v, GridFtpChecksum::label);
        if (c == null) {
            throw new IllegalArgumentException("expected adler32, md5 or none");
        }
        return c;
    }

    @Override
    public String toString() {
        return label();
    }
}
