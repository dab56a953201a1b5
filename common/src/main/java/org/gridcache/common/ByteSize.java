package org.gridcache.common;

import java.util.Locale;

/** Parses sizes as admins write them: "500M", "20G", "1T", "123456" (bytes); binary multiples. */
public final class ByteSize {
    private ByteSize() {
    }

    public static long parse(String text) {
        String s = text.trim().toUpperCase(Locale.ROOT);
        if (s.endsWith("IB")) {
            s = s.substring(0, s.length() - 2);
        } else if (s.endsWith("B")) {
            s = s.substring(0, s.length() - 1);
        }
        long multiplier = 1;
        if (!s.isEmpty()) {
            switch (s.charAt(s.length() - 1)) {
                case 'K' -> multiplier = 1L << 10;
                case 'M' -> multiplier = 1L << 20;
                case 'G' -> multiplier = 1L << 30;
                case 'T' -> multiplier = 1L << 40;
                default -> multiplier = 1;
            }
        }
        if (multiplier != 1) {
            s = s.substring(0, s.length() - 1);
        }
        try {
            long value = Long.parseLong(s.trim());
            if (value < 0) {
                throw new NumberFormatException();
            }
            return Math.multiplyExact(value, multiplier);
        } catch (NumberFormatException | ArithmeticException e) {
            throw new IllegalArgumentException("not a size: '" + text + "' (expected e.g. 500M, 20G, 1T)");
        }
    }

    public static String format(long bytes) {
        String[] units = {"B", "KiB", "MiB", "GiB", "TiB"};
        double v = bytes;
        int u = 0;
        while (v >= 1024 && u < units.length - 1) {
            v /= 1024;
            u++;
        }
        return u == 0 ? bytes + " B" : String.format(Locale.ROOT, "%.1f %s", v, units[u]);
    }
}
