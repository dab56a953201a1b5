package org.gridcache.pool;

/**
 * The part of a file one GET asks for (RFC 9110 §14): the whole file, one satisfiable range, or an unsatisfiable
 * one. Only a single range is honoured; a multi-range request is answered with the whole file (200), which RFC 9110
 * allows, since no grid client needs multipart/byteranges. A syntactically invalid Range header is ignored, also as
 * RFC 9110 says.
 */
record ByteRange(Kind kind, long start, long end) {
    enum Kind { WHOLE, PARTIAL, UNSATISFIABLE }

    private static final String UNIT = "bytes=";

    static ByteRange whole(long size) {
        return new ByteRange(Kind.WHOLE, 0, size - 1);
    }

    /** The range {@code header} selects in a file of {@code size} bytes; {@code header} may be null. */
    static ByteRange parse(String header, long size) {
        if (header == null) {
            return whole(size);
        }
        String h = header.trim();
        if (!h.regionMatches(true, 0, UNIT, 0, UNIT.length())) {
            return whole(size);
        }
        String spec = h.substring(UNIT.length()).trim();
        if (spec.indexOf(',') >= 0) {
            return whole(size);
        }
        int dash = spec.indexOf('-');
        if (dash < 0) {
            return whole(size);
        }
        long first = parseNumber(spec.substring(0, dash).trim());
        long last = parseNumber(spec.substring(dash + 1).trim());
        if (dash == 0) {
            return suffix(last, size);
        }
        if (first < 0 || (last < 0 && !spec.substring(dash + 1).isBlank()) || (last >= 0 && last < first)) {
            return whole(size); // invalid syntax: ignored
        }
        if (first >= size) {
            return unsatisfiable();
        }
        long end = last < 0 || last >= size ? size - 1 : last;
        return new ByteRange(Kind.PARTIAL, first, end);
    }

    /** "bytes=-n": the last n bytes (all of them when the file is shorter). */
    private static ByteRange suffix(long n, long size) {
        if (n < 0) {
            return whole(size);
        }
        if (n == 0 || size == 0) {
            return unsatisfiable();
        }
        return new ByteRange(Kind.PARTIAL, Math.max(0, size - n), size - 1);
    }

    private static ByteRange unsatisfiable() {
        return new ByteRange(Kind.UNSATISFIABLE, -1, -1);
    }

    /** A non-negative decimal, or -1 when {@code s} is empty or not one (including overflow). */
    private static long parseNumber(String s) {
        if (s.isEmpty() || !s.chars().allMatch(Character::isDigit)) {
            return -1;
        }
        try {
            return Long.parseLong(s);
        } catch (NumberFormatException e) {
            return -1;
        }
    }

    long length() {
        return end - start + 1;
    }

    String contentRange(long size) {
        return "bytes " + start + "-" + end + "/" + size;
    }
}
