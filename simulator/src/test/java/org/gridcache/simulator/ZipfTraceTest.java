package org.gridcache.simulator;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

class ZipfTraceTest {

    @Test
    void theSameSeedDrawsTheSameReadsEveryTime() {
        ZipfTrace trace = new ZipfTrace(1000, 0.8, 2000, 1, 42);

        assertEquals(trace.reads().toList(), trace.reads().toList());
        assertEquals(trace.reads().toList(), new ZipfTrace(1000, 0.8, 2000, 1, 42).reads().toList());
    }

    @Test
    void anotherSeedDrawsOtherReads() {
        List<Read> a = new ZipfTrace(1000, 0.8, 2000, 1, 42).reads().toList();
        List<Read> b = new ZipfTrace(1000, 0.8, 2000, 1, 43).reads().toList();

        assertNotEquals(a, b);
    }

    @Test
    void theMostPopularFileIsReadAboutAsOftenAsTheExponentSays() {
        Map<String, Long> counts = new ZipfTrace(100, 1.0, 100_000, 1, 5).reads()
                .collect(Collectors.groupingBy(Read::path, Collectors.counting()));

        double harmonic = 0;
        for (int k = 1; k <= 100; k++) {
            harmonic += 1.0 / k;
        }
        double expectedFirst = 100_000 / harmonic; // about 19,300
        assertEquals(expectedFirst, counts.get(ZipfTrace.path(0)), expectedFirst * 0.05);
        assertTrue(counts.get(ZipfTrace.path(0)) > 25 * counts.getOrDefault(ZipfTrace.path(99), 0L),
                "rank 1 vs rank 100: " + counts.get(ZipfTrace.path(0)) + " vs " + counts.get(ZipfTrace.path(99)));
    }

    @Test
    void exponentZeroReadsEveryFileAlike() {
        Map<String, Long> counts = new ZipfTrace(10, 0, 100_000, 1, 5).reads()
                .collect(Collectors.groupingBy(Read::path, Collectors.counting()));

        assertEquals(10, counts.size());
        counts.values().forEach(n -> assertEquals(10_000, n, 500));
    }
}
