package org.gridcache.simulator;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class ActiveReadsTest {

    @Test
    void aPoolsLoadRisesWithItsReadsAndFallsAsTheyEnd() {
        ActiveReads active = new ActiveReads(2, 3);
        active.advance(); // step 0
        active.start(0);
        active.advance(); // step 1
        active.start(0);
        active.start(1);
        assertEquals(2, active.load(0));
        assertEquals(1, active.load(1));

        active.advance(); // step 2
        active.advance(); // step 3: the read of step 0 is over
        assertEquals(1, active.load(0));

        active.advance(); // step 4
        assertEquals(0, active.load(0));
        assertEquals(0, active.load(1));
    }

    @Test
    void aFetchStartedNowEndsAfterTheReadDuration() {
        ActiveReads active = new ActiveReads(1, 20);
        long now = active.advance();

        assertEquals(now + 20, active.endOfNow());
    }
}
