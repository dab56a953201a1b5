package org.gridcache.door.delegation;

import static org.gridcache.door.delegation.DelegationFixtures.ALICE;
import static org.gridcache.door.delegation.DelegationFixtures.BOB;
import static org.gridcache.door.delegation.DelegationFixtures.fqansOf;
import static org.gridcache.door.delegation.DelegationFixtures.sign;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.security.cert.X509Certificate;
import java.time.Duration;
import java.util.List;
import javax.security.auth.x500.X500Principal;
import org.gridcache.door.MutableClock;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The registry of delegated credentials, in memory: put, lookup by DN and VOMS attributes, expiry driven by the clock, destroy. */
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
        assertEquals(idAndCsr[0], store.forSession(ALICE, List.of()).orElseThrow().id());
        assertEquals(List.of(d), store.of(ALICE));
        assertTrue(store.get("/DC=org/DC=example/CN=Bob", idAndCsr[0]).isEmpty(), "only for its DN");
        assertEquals(400, assertThrows(DelegationException.class, () -> store.put(ALICE, idAndCsr[0], sign(idAndCsr[1], "alice", 3600))).status(),
                "a request is answered once");
    }

    @Test
    void aDnHoldsAtMostSoManyDelegationsButMayReplaceOne() throws Exception {
        for (int i = 0; i < DelegationStore.MAX_PER_DN; i++) {
            clock.advance(RequestRates.REFILL.toMillis()); // within the DN's rate of certificate requests
            String csr = store.request(ALICE, "d" + i);
            store.put(ALICE, "d" + i, sign(csr, "alice", 3600));
        }
        clock.advance(RequestRates.REFILL.toMillis());
        String csr = store.request(ALICE, "one-more");
        DelegationException refused = assertThrows(DelegationException.class, () -> store.put(ALICE, "one-more", sign(csr, "alice", 3600)));
        assertEquals(507, refused.status());
        assertTrue(refused.getMessage().contains("the most one DN may: destroy one first"), refused.getMessage());
        assertTrue(store.get(ALICE, "one-more").isEmpty(), "nothing kept");
        clock.advance(RequestRates.REFILL.toMillis());
        String again = store.request(ALICE, "d0");
        store.put(ALICE, "d0", sign(again, "alice", 3600)); // a renewal replaces, and is no more
        assertTrue(store.destroy(ALICE, "d1"));
        store.put(ALICE, "one-more", sign(store.request(ALICE, "one-more"), "alice", 3600));
        assertEquals(DelegationStore.MAX_PER_DN, store.of(ALICE).size());
    }

    @Test
    void anExpiredCredentialIsNotHandedOutAndIsPurged() throws Exception {
        String csr = store.request(ALICE, "short");
        store.put(ALICE, "short", sign(csr, "alice", 60));
        assertTrue(store.get(ALICE, "short").isPresent());
        clock.advance(Duration.ofMinutes(2).toMillis());
        assertTrue(store.get(ALICE, "short").isEmpty());
        assertTrue(store.forSession(ALICE, List.of()).isEmpty());
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
    void aSessionActsOnlyWithADelegationOfItsOwnVomsAttributes() throws Exception {
        List<String> atlas = fqansOf("alice-atlas");
        List<String> cms = fqansOf("alice-cms");
        assertFalse(atlas.isEmpty(), "gridenv's alice-atlas proxy carries VOMS attributes: " + atlas);
        assertTrue(atlas.get(0).startsWith("/atlas"), atlas.toString());
        Delegation d = store.put(ALICE, "atlas", sign(store.request(ALICE, "atlas"), "alice-atlas", 3600));
        assertEquals(atlas, d.fqans(), "the delegation carries the attributes of its chain");
        assertEquals("atlas", store.forSession(ALICE, atlas).orElseThrow().id());
        assertTrue(store.forSession(ALICE, cms).isEmpty(), "a /cms session never acts with an /atlas delegation");
        assertTrue(store.forSession(ALICE, List.of()).isEmpty(), "nor a session without VOMS attributes");
        assertTrue(store.forSession(ALICE, atlas.subList(0, 1)).isEmpty(), "nor one with only some of them");
        assertTrue(store.forSession(BOB, atlas).isEmpty(), "nor another DN");

        store.put(ALICE, "plain", sign(store.request(ALICE, "plain"), "alice", 7200));
        store.put(ALICE, "cms", sign(store.request(ALICE, "cms"), "alice-cms", 600));
        assertEquals("atlas", store.forSession(ALICE, atlas).orElseThrow().id(), "a longer plain delegation does not win");
        assertEquals("cms", store.forSession(ALICE, cms).orElseThrow().id());
        assertEquals("plain", store.forSession(ALICE, List.of()).orElseThrow().id());
        assertTrue(store.forSession(ALICE, List.of("/cms", "/atlas")).isEmpty(), "attributes match in order and in full");
    }

    @Test
    void aLegacyProxyDelegatedFromAVomsProxyCarriesItsAttributes() throws Exception {
        Delegation d = store.put(ALICE, "legacy", sign(store.request(ALICE, "legacy"), "alice-atlas", 3600,
                eu.emi.security.authn.x509.proxy.ProxyType.LEGACY));
        assertEquals(fqansOf("alice-atlas"), d.fqans(), "htproxyput signs such proxies");
    }

    @Test
    void theFreshestOfSeveralDelegationsIsTheOneThatLastsLongest() throws Exception {
        store.put(ALICE, "short", sign(store.request(ALICE, "short"), "alice", 600));
        store.put(ALICE, "long", sign(store.request(ALICE, "long"), "alice", 1800));
        assertEquals("long", store.forSession(ALICE, List.of()).orElseThrow().id());
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

    @Test
    void theCertificatesAboveItsDelegatedProxiesAreFoundByTheirSubjectWhileTheDelegationsAreHeld() throws Exception {
        X509Certificate[] alice = DelegationFixtures.chainOf("alice");
        X500Principal user = alice[1].getSubjectX500Principal();
        assertTrue(store.certificatesWithSubject(user).isEmpty());
        Delegation plain = store.put(ALICE, "plain", sign(store.request(ALICE, "plain"), "alice", 3600));
        store.put(ALICE, "atlas", sign(store.request(ALICE, "atlas"), "alice-atlas", 3600));
        List<List<X509Certificate>> users = store.certificatesWithSubject(user);
        assertEquals(2, users.size(), "one entry per delegation holding Alice's certificate");
        users.forEach(c -> assertEquals(List.of(alice[1]), c));
        assertEquals(List.of(List.of(alice[0], alice[1])), store.certificatesWithSubject(alice[0].getSubjectX500Principal()),
                "the proxy that signed a delegation, followed by its issuer");
        assertTrue(store.certificatesWithSubject(plain.credential().getCertificate().getSubjectX500Principal()).isEmpty(),
                "never the delegated proxy, whose key is the door's");
        assertEquals(3, store.indexedSubjects(), "Alice, her plain proxy, her /atlas proxy");

        store.put(ALICE, "plain", sign(store.request(ALICE, "plain"), "alice", 3600));
        assertEquals(2, store.certificatesWithSubject(user).size(), "a renewed delegation replaces its certificates");
        assertTrue(store.destroy(ALICE, "atlas"));
        assertEquals(1, store.certificatesWithSubject(user).size());
        assertEquals(2, store.indexedSubjects(), "the destroyed delegation's proxy is gone with it");

        clock.advance(Duration.ofHours(2).toMillis());
        assertEquals(1, store.certificatesWithSubject(user).size(),
                "expired but not yet purged: still a candidate (the certificate is public, validation decides)");
        store.purge();
        assertTrue(store.certificatesWithSubject(user).isEmpty());
        assertEquals(0, store.indexedSubjects(), "nothing is kept beyond the delegations");
    }

    @Test
    void certificatesOfManyDelegationsComeAndGoWithThemUnderConcurrentChanges() throws Exception {
        X500Principal user = DelegationFixtures.chainOf("alice")[1].getSubjectX500Principal();
        List<String> chains = new java.util.ArrayList<>();
        for (int i = 0; i < 8; i++) {
            String id = "d" + i;
            chains.add(sign(store.request(ALICE, id), i % 2 == 0 ? "alice" : "alice-atlas", 3600));
        }
        java.util.concurrent.ExecutorService pool = java.util.concurrent.Executors.newFixedThreadPool(4);
        try {
            List<java.util.concurrent.Future<?>> done = new java.util.ArrayList<>();
            for (int i = 0; i < 8; i++) {
                int n = i;
                done.add(pool.submit(() -> {
                    store.put(ALICE, "d" + n, chains.get(n));
                    return store.certificatesWithSubject(user).size();
                }));
            }
            for (java.util.concurrent.Future<?> f : done) {
                f.get();
            }
            assertEquals(8, store.certificatesWithSubject(user).size());
            done.clear();
            for (int i = 0; i < 8; i++) {
                int n = i;
                done.add(pool.submit(() -> store.destroy(ALICE, "d" + n)));
            }
            for (java.util.concurrent.Future<?> f : done) {
                f.get();
            }
        } finally {
            pool.shutdownNow();
        }
        assertTrue(store.certificatesWithSubject(user).isEmpty());
        assertEquals(0, store.indexedSubjects());
    }
}
