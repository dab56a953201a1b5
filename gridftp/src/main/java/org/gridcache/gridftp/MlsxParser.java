package org.gridcache.gridftp;

import java.time.LocalDateTime;
import java.time.ZoneOffset;
import org.globus.ftp.MlsxEntry;

/** MLST/MLSD facts (RFC 3659) turned into {@link RemoteEntry}s. */
final class MlsxParser {
    private MlsxParser() {
    }

    /** Whether an MLSD entry is the listed directory itself or its parent, which a listing leaves out. */
    static boolean isSelfOrParent(MlsxEntry e) {
        String type = e.get(MlsxEntry.TYPE);
        String name = e.getFileName();
        return name == null || MlsxEntry.TYPE_CDIR.equals(type) || MlsxEntry.TYPE_PDIR.equals(type) || name.equals(".") || name.equals("..");
    }

    /** {@code name} with the size (-1 for a directory or when absent) and mtime (-1 when absent) of {@code e}. */
    static RemoteEntry entry(MlsxEntry e, String name) {
        String type = e.get(MlsxEntry.TYPE);
        boolean dir = MlsxEntry.TYPE_DIR.equals(type) || MlsxEntry.TYPE_CDIR.equals(type) || MlsxEntry.TYPE_PDIR.equals(type);
        long size = -1;
        String s = e.get(MlsxEntry.SIZE);
        if (s != null && !dir) {
            try {
                size = Long.parseLong(s.trim());
            } catch (NumberFormatException ignored) {
                size = -1;
            }
        }
        String modify = e.get(MlsxEntry.MODIFY);
        return new RemoteEntry(name, dir, size, modify != null ? parseModify(modify) : -1);
    }

    /** MLSx "modify" facts are YYYYMMDDHHMMSS[.sss] in UTC; -1 when unreadable. */
    static long parseModify(String value) {
        String v = value.trim();
        if (v.length() < 14) {
            return -1;
        }
        try {
            LocalDateTime t = LocalDateTime.of(Integer.parseInt(v.substring(0, 4)), Integer.parseInt(v.substring(4, 6)),
                    Integer.parseInt(v.substring(6, 8)), Integer.parseInt(v.substring(8, 10)), Integer.parseInt(v.substring(10, 12)),
                    Integer.parseInt(v.substring(12, 14)));
            long millis = t.toInstant(ZoneOffset.UTC).toEpochMilli();
            if (v.length() > 15 && v.charAt(14) == '.') {
                millis += Integer.parseInt((v.substring(15) + "000").substring(0, 3));
            }
            return millis;
        } catch (RuntimeException e) {
            return -1;
        }
    }

    /** The last segment of a path, a trailing slash ignored. */
    static String lastSegment(String path) {
        String p = path.endsWith("/") && path.length() > 1 ? path.substring(0, path.length() - 1) : path;
        int slash = p.lastIndexOf('/');
        return slash < 0 ? p : p.substring(slash + 1);
    }
}
