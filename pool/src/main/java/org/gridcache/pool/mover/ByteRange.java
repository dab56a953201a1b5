package org.gridcache.pool.mover;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * The part of a file one GET asks for (RFC 9110 §14): the whole file, one satisfiable range, or an unsatisfiable
 * one. A syntactically invalid Range header is ignored, as RFC 9110 says. Several ranges (the vector reads of davix
 * and ROOT) are resolved by {@link #parseAll}; {@link #parse} answers them with the whole file, for the movers that
 * serve only one range.
 */
public record ByteRange(Kind kind, long start, long end) {
    public enum Kind { WHOLE, PARTIAL, UNSATISFIABLE }

    private static final String UNIT = "bytes=";
    /** More ranges than this in one request are ignored (the whole file), as Apache's MaxRanges does. */
    static final int MAX_RANGES = 1024;

    static ByteRange whole(long size) {
        return new ByteRange(Kind.WHOLE, 0, size - 1);
    }

    /** The range {@code header} selects in a file of {@code size} bytes; {@code header} may be null. */
    public static ByteRange parse(String header, long size) {
        List<ByteRange> all = parseAll(header, size);
        return all.size() == 1 ? all.get(0) : whole(size);
    }

    /**
     * Every range {@code header} selects: [whole] when there is none or the header is invalid (or asks for more than
     * {@link #MAX_RANGES}), [unsatisfiable] when no range is satisfiable, else the satisfiable ranges sorted and
     * coalesced where they overlap or touch (RFC 9110 §14.3: so that overlapping ranges cannot multiply a response).
     */
    public static List<ByteRange> parseAll(String header, long size) {
        if (header == null) {
            return List.of(whole(size));
        }
        String h = header.trim();
        if (!h.regionMatches(true, 0, UNIT, 0, UNIT.length())) {
            return List.of(whole(size));
        }
        String[] specs = h.substring(UNIT.length()).split(",", MAX_RANGES + 1);
        if (specs.length > MAX_RANGES) {
            return List.of(whole(size));
        }
        List<ByteRange> satisfiable = new ArrayList<>(specs.length);
        for (String spec : specs) {
            ByteRange r = parseSpec(spec.trim(), size);
            if (r == null) {
                return List.of(whole(size)); // one invalid range: the header is ignored
            }
            if (r.kind() == Kind.PARTIAL) {
                satisfiable.add(r);
            }
        }
        if (satisfiable.isEmpty()) {
            return List.of(unsatisfiable());
        }
        return coalesce(satisfiable);
    }

    private static List<ByteRange> coalesce(List<ByteRange> ranges) {
        ranges.sort(Comparator.comparingLong(ByteRange::start));
        List<ByteRange> out = new ArrayList<>(ranges.size());
        ByteRange current = ranges.get(0);
        for (int i = 1; i < ranges.size(); i++) {
            ByteRange next = ranges.get(i);
            if (next.start() <= current.end() + 1) {
                current = new ByteRange(Kind.PARTIAL, current.start(), Math.max(current.end(), next.end()));
            } else {
                out.add(current);
                current = next;
            }
        }
        out.add(current);
        return out;
    }

    /** One range spec ("a-b", "a-", "-n") in a file of {@code size} bytes: partial, unsatisfiable, or null if invalid. */
    private static ByteRange parseSpec(String spec, long size) {
        int dash = spec.indexOf('-');
        if (dash < 0) {
            return null;
        }
        long first = parseNumber(spec.substring(0, dash).trim());
        long last = parseNumber(spec.substring(dash + 1).trim());
        if (dash == 0) {
            return suffix(last, size);
        }
        if (first < 0 || (last < 0 && !spec.substring(dash + 1).isBlank()) || (last >= 0 && last < first)) {
            return null;
        }
        if (first >= size) {
            return unsatisfiable();
        }
        long end = last < 0 || last >= size ? size - 1 : last;
        return new ByteRange(Kind.PARTIAL, first, end);
    }

    /** "bytes=-n": the last n bytes (all of them when the file is shorter); null when n is invalid. */
    private static ByteRange suffix(long n, long size) {
        if (n < 0) {
            return null;
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

    public long length() {
        return end - start + 1;
    }

    public String contentRange(long size) {
        return "bytes " + start + "-" + end + "/" + size;
    }
}
