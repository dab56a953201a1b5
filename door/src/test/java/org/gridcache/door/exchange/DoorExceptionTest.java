package org.gridcache.door.exchange;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import java.util.Map;
import org.junit.jupiter.api.Test;

/** A 503 is "not now": it always tells the client when to come back (issue 15: no 503 without Retry-After). */
class DoorExceptionTest {
    @Test
    void a503WithoutRetryAfterGetsTheDefault() {
        DoorException e = new DoorException(503, "the cluster's lock table cannot be read now (ConnectionLossException)");
        assertEquals(Map.of("Retry-After", DoorException.DEFAULT_RETRY_AFTER_SECONDS), e.headers());
    }

    @Test
    void a503KeepsItsOwnRetryAfterAndOtherHeaders() {
        DoorException e = new DoorException(503, "busy", Map.of("Retry-After", "30", "X-Other", "1"));
        assertEquals(Map.of("Retry-After", "30", "X-Other", "1"), e.headers());
    }

    @Test
    void otherStatusesGetNone() {
        assertFalse(new DoorException(502, "origin down").headers().containsKey("Retry-After"));
        assertEquals(Map.of(DoorException.DELEGATE_TO, "https://door/x"),
                new DoorException(401, "delegate", Map.of(DoorException.DELEGATE_TO, "https://door/x")).headers());
    }
}
