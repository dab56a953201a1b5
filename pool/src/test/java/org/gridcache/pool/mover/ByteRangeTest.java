package org.gridcache.pool.mover;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class ByteRangeTest {
    private static void assertRange(String header, long size, ByteRange.Kind kind, long start, long end) {
        ByteRange r = ByteRange.parse(header, size);
        assertEquals(kind, r.kind(), header);
        if (kind != ByteRange.Kind.UNSATISFIABLE) {
            assertEquals(start, r.start(), header);
            assertEquals(end, r.end(), header);
        }
    }

    @Test
    void singleRanges() {
        assertRange(null, 10, ByteRange.Kind.WHOLE, 0, 9);
        assertRange("bytes=0-4", 10, ByteRange.Kind.PARTIAL, 0, 4);
        assertRange("bytes=5-", 10, ByteRange.Kind.PARTIAL, 5, 9);
        assertRange("bytes=5-100", 10, ByteRange.Kind.PARTIAL, 5, 9);
        assertRange("bytes=-3", 10, ByteRange.Kind.PARTIAL, 7, 9);
        assertRange("bytes=-30", 10, ByteRange.Kind.PARTIAL, 0, 9);
        assertRange("Bytes=2-2", 10, ByteRange.Kind.PARTIAL, 2, 2);
    }

    @Test
    void unsatisfiable() {
        assertRange("bytes=10-", 10, ByteRange.Kind.UNSATISFIABLE, 0, 0);
        assertRange("bytes=10-20", 10, ByteRange.Kind.UNSATISFIABLE, 0, 0);
        assertRange("bytes=-0", 10, ByteRange.Kind.UNSATISFIABLE, 0, 0);
        assertRange("bytes=-5", 0, ByteRange.Kind.UNSATISFIABLE, 0, 0);
        assertRange("bytes=0-", 0, ByteRange.Kind.UNSATISFIABLE, 0, 0);
    }

    @Test
    void invalidRangesServeTheWholeFile() {
        assertRange("bytes=5-2", 10, ByteRange.Kind.WHOLE, 0, 9);
        assertRange("bytes=a-b", 10, ByteRange.Kind.WHOLE, 0, 9);
        assertRange("bytes=-", 10, ByteRange.Kind.WHOLE, 0, 9);
        assertRange("items=0-1", 10, ByteRange.Kind.WHOLE, 0, 9);
        assertRange("bytes=99999999999999999999-", 10, ByteRange.Kind.WHOLE, 0, 9);
        assertRange("bytes=0-1,x", 10, ByteRange.Kind.WHOLE, 0, 9);
        assertRange("bytes=0-1,4-5", 10, ByteRange.Kind.WHOLE, 0, 9); // parse: one range or the whole file
    }

    private static String all(String header, long size) {
        return ByteRange.parseAll(header, size).stream()
                .map(r -> r.kind() == ByteRange.Kind.PARTIAL ? r.start() + "-" + r.end() : r.kind().toString())
                .collect(java.util.stream.Collectors.joining(","));
    }

    @Test
    void severalRangesAreSortedCoalescedAndFiltered() {
        assertEquals("0-1,4-5", all("bytes=4-5, 0-1", 10));
        assertEquals("0-5", all("bytes=0-3,2-5", 10), "overlapping");
        assertEquals("0-5", all("bytes=0-2,3-5", 10), "touching");
        assertEquals("0-9", all("bytes=0-,0-,0-,0-", 10), "repeated ranges cannot multiply the response");
        assertEquals("0-1,7-9", all("bytes=-3,0-1", 10), "a suffix among others");
        assertEquals("2-3", all("bytes=20-30,2-3", 10), "unsatisfiable ones dropped");
        assertEquals("UNSATISFIABLE", all("bytes=20-30,40-", 10));
        assertEquals("WHOLE", all("bytes=" + "0-0,".repeat(ByteRange.MAX_RANGES) + "1-1", 10), "too many: ignored");
        assertEquals(ByteRange.MAX_RANGES, ByteRange.parseAll("bytes=" + java.util.stream.IntStream.range(0, ByteRange.MAX_RANGES)
                .mapToObj(i -> (2 * i) + "-" + (2 * i)).collect(java.util.stream.Collectors.joining(",")), 1 << 20).size());
    }
}
