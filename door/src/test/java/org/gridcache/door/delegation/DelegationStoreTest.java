package org.gridcache.door.delegation;

import static org.gridcache.door.delegation.DelegationFixtures.ALICE;
import static org.gridcache.door.delegation.DelegationFixtures.sign;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;
import org.gridcache.door.MutableClock;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The registry of delegated credentials, in memory: put, lookup, expiry driven by the clock, destroy. */
class DelegationStoreTest {
    private final MutableClock clock = DelegationFixtures.clockAtNow();
    private DelegationStore store;

    @BeforeEach
    void open() throws Exception {
        store = new DelegationStore(DelegationFixtures.trust(), null, Duration.ofDays(7), clock);
    }

    @Test
    void aSignedRequestBecomesTheCallersCredentialUnderItsId() throws Exception {
        String[] idAndCsr = store.newRequest(ALICE, null);
        Delegation d = store.put(ALICE, idAndCsr[0], sign(idAndCsr[1], "alice", 3600));
        assertNotNull(d.credential().getKey());
        assertEquals(ALICE, d.dn());
        assertEquals(idAndCsr[0], store.freshest(ALICE).orElseThrow().id());
        assertEquals(List.of(d), store.of(ALICE));
        assertTrue(store.get("/DC=org/DC=example/CN=Bob", idAndCsr[0]).isEmpty(), "only for its DN");
        assertEquals(400, assertThrows(DelegationException.class, () -> store.put(ALICE, idAndCsr[0], sign(idAndCsr[1], "alice", 3600))).status(),
                "a request is answered once");
    }

    @Test
    void anExpiredCredentialIsNotHandedOutAndIsPurged() throws Exception {
        String csr = store.request(ALICE, "short");
        store.put(ALICE, "short", sign(csr, "alice", 60));
        assertTrue(store.get(ALICE, "short").isPresent());
        clock.advance(Duration.ofMinutes(2).toMillis());
        assertTrue(store.get(ALICE, "short").isEmpty());
        assertTrue(store.freshest(ALICE).isEmpty());
        assertEquals(1, store.size(), "kept until purged");
        store.purge();
        assertEquals(0, store.size());
        DelegationException e = assertThrows(DelegationException.class, () -> store.terminationTime(ALICE, "short"));
        assertEquals(404, e.status());
    }

    @Test
    void aCredentialIsForgottenAtTheMaximumLifetimeEvenIfItsChainLastsLonger() throws Exception {
        DelegationStore brief = new DelegationStore(DelegationFixtures.trust(), null, Duration.ofMinutes(5), clock);
        Delegation d = brief.put(ALICE, "long", sign(brief.request(ALICE, "long"), "alice", 3600));
        assertEquals(clock.instant().plus(Duration.ofMinutes(5)), d.notAfter());
        assertEquals(d.notAfter(), brief.terminationTime(ALICE, "long"));
        clock.advance(Duration.ofMinutes(5).toMillis());
        assertTrue(brief.get(ALICE, "long").isEmpty());
    }

    @Test
    void theFreshestOfSeveralDelegationsIsTheOneThatLastsLongest() throws Exception {
        store.put(ALICE, "short", sign(store.request(ALICE, "short"), "alice", 600));
        store.put(ALICE, "long", sign(store.request(ALICE, "long"), "alice", 1800));
        assertEquals("long", store.freshest(ALICE).orElseThrow().id());
        assertEquals(List.of("long", "short"), store.of(ALICE).stream().map(Delegation::id).toList());
    }

    @Test
    void aPutWithoutARequestOrWithABadIdIsRefused() throws Exception {
        assertEquals(400, assertThrows(DelegationException.class, () -> store.put(ALICE, "x", "junk")).status());
        assertEquals(400, assertThrows(DelegationException.class, () -> store.request(ALICE, "../x")).status());
        assertEquals(404, assertThrows(DelegationException.class, () -> store.renewRequest(ALICE, "none")).status());
    }

    @Test
    void destroyForgetsTheCredentialAndItsPendingRequest() throws Exception {
        store.put(ALICE, "d", sign(store.request(ALICE, "d"), "alice", 3600));
        String renewal = store.renewRequest(ALICE, "d");
        assertTrue(store.get(ALICE, "d").isPresent(), "usable until the new chain is put");
        assertTrue(store.destroy(ALICE, "d"));
        assertTrue(store.get(ALICE, "d").isEmpty());
        assertEquals(400, assertThrows(DelegationException.class, () -> store.put(ALICE, "d", sign(renewal, "alice", 3600))).status(),
                "the renewal request went with it");
        assertFalse(store.destroy(ALICE, "d"), "nothing left to destroy");
    }
}
