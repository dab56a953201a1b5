package org.gridcache.door.webdav;

import static org.junit.jupiter.api.Assertions.assertTrue;

import com.code_intelligence.jazzer.junit.FuzzTest;
import org.gridcache.door.exchange.DoorException;

/** PROPFIND bodies (issue 15, R8): accepted, or refused with a 4xx DoorException — never another exception (a 500). */
class PropfindBodyFuzzTest {
    @FuzzTest
    void anyBodyIsAcceptedOrA4xx(byte[] body) {
        try {
            PropfindRequest.checkXml(body);
        } catch (DoorException refused) {
            assertTrue(refused.status() >= 400 && refused.status() < 500, refused.status() + " " + refused.reason());
        }
    }
}
