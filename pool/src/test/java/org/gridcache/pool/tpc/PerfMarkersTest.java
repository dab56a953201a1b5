package org.gridcache.pool.tpc;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.api.Test;

/** The marker stream as davix parses it: a block per marker, then one last line. */
class PerfMarkersTest {

    @Test
    void aMarkerIsTheBlockDavixParses() {
        List<String> lines = PerfMarkers.marker(1_700_000_000L, 123_456).lines().map(String::strip).toList();
        assertEquals(List.of("Perf Marker", "Timestamp: 1700000000", "Stripe Index: 0", "Stripe Bytes Transferred: 123456",
                "Total Stripe Count: 1", "End"), lines);
    }

    @Test
    void theLastLineIsOneLineWhateverTheReason() {
        assertEquals("success: Created\n", PerfMarkers.SUCCESS);
        assertEquals("failure: the remote answered GET with 404\n", PerfMarkers.failure("the remote answered GET with 404"));
        assertEquals("failure: first\n", PerfMarkers.failure("  first\nsecond\n"));
        assertEquals("failure: the copy failed\n", PerfMarkers.failure(null));
    }
}
