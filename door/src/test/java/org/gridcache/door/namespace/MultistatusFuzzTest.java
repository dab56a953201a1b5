package org.gridcache.door.namespace;

import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.code_intelligence.jazzer.junit.FuzzTest;
import java.util.List;

/**
 * The origin's multistatus (issue 15, R8): whatever an origin answers a PROPFIND with is a list of items or an
 * IllegalArgumentException (the door's 502 naming the origin) — never another exception, never an entity expanded.
 */
class MultistatusFuzzTest {
    @FuzzTest
    void anyAnswerIsItemsOrRefused(byte[] xml) {
        List<MultistatusParser.Item> items;
        try {
            items = MultistatusParser.parse(xml);
        } catch (IllegalArgumentException refused) {
            return;
        }
        for (MultistatusParser.Item item : items) {
            assertNotNull(item.hrefPath());
            assertTrue(item.size() >= -1, "size " + item.size());
        }
    }
}
