package org.gridcache.common;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.code_intelligence.jazzer.junit.FuzzTest;

/**
 * Path normalisation (issue 15, R8): whatever comes in, the result is a clean absolute path that normalises to
 * itself and never climbs, or the input is refused with IllegalArgumentException. CI replays the corpus in
 * {@code src/test/resources/.../GridPathFuzzTestInputs}; {@code bench/fuzz.sh} fuzzes for as long as asked.
 */
class GridPathFuzzTest {
    @FuzzTest
    void normalisedPathsAreCleanOrRefused(String decoded) {
        String path;
        try {
            path = GridPath.normalize(decoded);
        } catch (IllegalArgumentException refused) {
            return;
        }
        assertTrue(path.startsWith("/"), path);
        assertFalse(path.contains("//"), path);
        assertFalse(path.indexOf('\0') >= 0, path);
        assertFalse(path.equals("/..") || path.startsWith("/../") || path.contains("/../") || path.endsWith("/.."), path);
        assertFalse(path.contains("/./") || path.endsWith("/."), path);
        assertTrue(path.equals("/") || !path.endsWith("/"), path);
        assertEquals(path, GridPath.normalize(path), "normalising twice changes nothing");
    }
}
