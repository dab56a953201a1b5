package org.gridcache.pool;

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
    void invalidOrMultipleRangesServeTheWholeFile() {
        assertRange("bytes=0-1,4-5", 10, ByteRange.Kind.WHOLE, 0, 9);
        assertRange("bytes=5-2", 10, ByteRange.Kind.WHOLE, 0, 9);
        assertRange("bytes=a-b", 10, ByteRange.Kind.WHOLE, 0, 9);
        assertRange("bytes=-", 10, ByteRange.Kind.WHOLE, 0, 9);
        assertRange("items=0-1", 10, ByteRange.Kind.WHOLE, 0, 9);
        assertRange("bytes=99999999999999999999-", 10, ByteRange.Kind.WHOLE, 0, 9);
    }
}
