package org.gridcache.pool.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.EnumSet;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The transition table of a replica's state, and {@link Replica#become} keeping to it. */
class ReplicaStateTest {
    private static final Set<String> ALLOWED = Set.of(
            "NEW>FILLING", "NEW>PARTIAL", "NEW>REMOVED",
            "FILLING>COMPLETE", "FILLING>REMOVED",
            "PARTIAL>COMPLETE", "PARTIAL>REMOVED",
            "COMPLETE>REMOVED");

    private static final class Probe extends Replica {
        Probe(ReplicaState initial) {
            super(initial, 0);
        }
    }

    @Test
    void theTableHasExactlyTheseMoves() {
        for (ReplicaState from : ReplicaState.values()) {
            for (ReplicaState to : ReplicaState.values()) {
                assertEquals(ALLOWED.contains(from + ">" + to), from.canBecome(to), from + " to " + to);
            }
        }
    }

    @Test
    void removedIsFinal() {
        for (ReplicaState to : ReplicaState.values()) {
            assertFalse(ReplicaState.REMOVED.canBecome(to));
        }
    }

    @Test
    void onlyCompleteAndPartialReplicasAreRead() {
        EnumSet<ReplicaState> readable = EnumSet.noneOf(ReplicaState.class);
        for (ReplicaState s : ReplicaState.values()) {
            if (s.isReadable()) {
                readable.add(s);
            }
        }
        assertEquals(EnumSet.of(ReplicaState.COMPLETE, ReplicaState.PARTIAL), readable);
    }

    @Test
    void aMoveFromAnotherStateIsRefusedAndChangesNothing() {
        Probe r = new Probe(ReplicaState.FILLING);
        assertFalse(r.become(ReplicaState.PARTIAL, ReplicaState.COMPLETE), "it is not PARTIAL");
        assertEquals(ReplicaState.FILLING, r.state());
        assertTrue(r.become(ReplicaState.FILLING, ReplicaState.COMPLETE));
        assertEquals(ReplicaState.COMPLETE, r.state());
        assertFalse(r.become(ReplicaState.FILLING, ReplicaState.REMOVED), "committed: a cancel comes too late");
        assertEquals(ReplicaState.COMPLETE, r.state());
    }

    @Test
    void aMoveTheTableLacksIsABug() {
        Probe r = new Probe(ReplicaState.COMPLETE);
        assertThrows(IllegalStateException.class, () -> r.become(ReplicaState.COMPLETE, ReplicaState.FILLING));
        assertThrows(IllegalStateException.class, () -> r.become(ReplicaState.REMOVED, ReplicaState.NEW));
        assertEquals(ReplicaState.COMPLETE, r.state());
    }

    @Test
    void removeWorksFromAnyStateOnce() {
        for (ReplicaState s : EnumSet.complementOf(EnumSet.of(ReplicaState.REMOVED))) {
            Probe r = new Probe(s);
            assertTrue(r.remove(), s.toString());
            assertEquals(ReplicaState.REMOVED, r.state());
            assertFalse(r.remove(), "a second remove finds it removed");
        }
    }

    @Test
    void anEntryKeepsItsSizeAndMtimeBesideItsStateThroughEveryMove() {
        long size = Replica.MAX_VALUE;
        long mtime = 0xFFFF_FFFEL; // the last second an entry keeps (in 2106)
        StoreEntry e = new StoreEntry(size, mtime, "\"e\"");
        assertTrue(e.become(ReplicaState.FILLING, ReplicaState.COMPLETE));
        assertTrue(e.remove());
        assertEquals(ReplicaState.REMOVED, e.state());
        assertEquals(size, e.size());
        assertEquals(mtime, e.mtime());
        assertEquals(1_795_000_000L, new StoreEntry(0, 1_795_000_000L, null).mtime());
    }

    @Test
    void anMtimeAnEntryCannotKeepIsUnknownAndASizeTooLargeIsRefused() {
        assertEquals(-1, new StoreEntry(1, -1, null).mtime());
        assertEquals(-1, new StoreEntry(1, -5, null).mtime(), "before 1970");
        assertEquals(-1, new StoreEntry(1, 1L << 33, null).mtime(), "after 2106");
        assertFalse(new StoreEntry(1, -1, null).isStaleFor(1, 1_795_000_000L), "an unknown mtime is no other version");
        assertThrows(IllegalArgumentException.class, () -> new StoreEntry(Replica.MAX_VALUE + 1, 0, null));
        assertThrows(IllegalArgumentException.class, () -> new StoreEntry(-1, 0, null));
    }
}
