package org.gridcache.pool.mover;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.code_intelligence.jazzer.api.FuzzedDataProvider;
import com.code_intelligence.jazzer.junit.FuzzTest;
import java.util.List;

/**
 * Range parsing (issue 15, R8): any header on any file size gives the whole file, one unsatisfiable answer, or
 * sorted, disjoint, non-touching ranges inside the file, at most {@link ByteRange#MAX_RANGES} of them; it never
 * throws. CI replays the corpus; {@code bench/fuzz.sh} fuzzes.
 */
class ByteRangeFuzzTest {
    @FuzzTest
    void rangesStayInsideTheFileAndNeverOverlap(FuzzedDataProvider data) {
        long size = data.consumeLong(0, 1L << 50);
        String header = data.consumeRemainingAsString();
        List<ByteRange> all = ByteRange.parseAll(header, size);
        assertFalse(all.isEmpty(), header);
        assertTrue(all.size() <= ByteRange.MAX_RANGES, header);
        if (all.size() == 1 && all.get(0).kind() != ByteRange.Kind.PARTIAL) {
            return;
        }
        long previousEnd = -2;
        for (ByteRange r : all) {
            assertEquals(ByteRange.Kind.PARTIAL, r.kind(), header);
            assertTrue(r.start() >= 0 && r.start() <= r.end() && r.end() < size, header + " on " + size + ": " + r);
            assertTrue(r.start() > previousEnd + 1, "sorted and coalesced: " + header + " -> " + all);
            assertEquals(r.end() - r.start() + 1, r.length());
            previousEnd = r.end();
        }
        ByteRange one = ByteRange.parse(header, size);
        assertEquals(all.size() == 1 ? all.get(0) : ByteRange.whole(size), one);
    }
}
