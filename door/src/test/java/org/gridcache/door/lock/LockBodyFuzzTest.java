package org.gridcache.door.lock;

import static org.junit.jupiter.api.Assertions.assertTrue;

import com.code_intelligence.jazzer.api.FuzzedDataProvider;
import com.code_intelligence.jazzer.junit.FuzzTest;
import java.time.Duration;
import org.gridcache.door.exchange.DoorException;

/**
 * LOCK requests (issue 15, R8): the body, the If header and the Timeout header are each accepted or refused with a
 * 4xx — never another exception (a 500).
 */
class LockBodyFuzzTest {
    @FuzzTest
    void anyLockRequestIsAcceptedOrA4xx(FuzzedDataProvider data) {
        String ifHeader = data.consumeString(200);
        String timeout = data.consumeString(60);
        byte[] body = data.consumeRemainingAsBytes();
        try {
            LockRequests.parse(body);
        } catch (DoorException refused) {
            assertTrue(refused.status() >= 400 && refused.status() < 500, refused.status() + " " + refused.reason());
        }
        try {
            IfHeader.parse(ifHeader);
        } catch (DoorException refused) {
            assertTrue(refused.status() >= 400 && refused.status() < 500, refused.status() + " " + refused.reason());
        }
        Duration t = LockTimeouts.parse(timeout, Duration.ofMinutes(5), Duration.ofHours(1));
        assertTrue(!t.isNegative() && t.compareTo(Duration.ofHours(1)) <= 0, timeout + " -> " + t);
    }
}
