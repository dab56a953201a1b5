package org.gridcache.door.delegation;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.security.KeyPair;
import org.gridcache.door.MutableClock;
import org.junit.jupiter.api.Test;

/** Certificate requests awaiting their signed proxy: reuse while fresh, expiry, ids. */
class ProxyRequestsTest {
    private final MutableClock clock = new MutableClock();
    private final ProxyRequests requests = new ProxyRequests(clock);

    @Test
    void aPendingRequestIsHandedOutAgainUntilItsLifetimeEndsThenANewOneWithANewKey() throws Exception {
        String first = requests.current(DelegationFixtures.ALICE, "a");
        assertTrue(first.contains("BEGIN CERTIFICATE REQUEST"), first);
        KeyPair keys = requests.keysOf(DelegationFixtures.ALICE, "a").orElseThrow();
        clock.advance(ProxyRequests.LIFETIME.toMillis() - 1);
        assertEquals(first, requests.current(DelegationFixtures.ALICE, "a"), "still fresh: the same request");
        clock.advance(1);
        assertNotEquals(first, requests.current(DelegationFixtures.ALICE, "a"), "stale: a new request");
        assertNotEquals(keys.getPublic(), requests.keysOf(DelegationFixtures.ALICE, "a").orElseThrow().getPublic());
    }

    @Test
    void requestsArePerDnAndIdAndPurgedOnceStale() throws Exception {
        requests.create(DelegationFixtures.ALICE, "a");
        clock.advance(ProxyRequests.LIFETIME.toMillis() / 2);
        requests.create(DelegationFixtures.BOB, "a");
        assertTrue(requests.keysOf(DelegationFixtures.ALICE, "b").isEmpty(), "another id");
        assertTrue(requests.keysOf("/DC=org/DC=example/CN=Carol", "a").isEmpty(), "another DN");
        clock.advance(ProxyRequests.LIFETIME.toMillis() / 2);
        requests.purge();
        assertTrue(requests.keysOf(DelegationFixtures.ALICE, "a").isEmpty(), "Alice's is an hour old");
        assertTrue(requests.keysOf(DelegationFixtures.BOB, "a").isPresent(), "Bob's is half an hour old");
        assertEquals(1, requests.size());
    }

    @Test
    void aDnKeepsItsNewestPendingRequestsOnlyAndOthersAreUntouched() throws Exception {
        requests.create(DelegationFixtures.BOB, "b");
        for (int i = 0; i < ProxyRequests.MAX_PER_DN + 3; i++) {
            clock.advance(RequestRates.REFILL.toMillis()); // within the DN's rate
            requests.create(DelegationFixtures.ALICE, "id" + i);
        }
        assertEquals(ProxyRequests.MAX_PER_DN, requests.sizeOf(DelegationFixtures.ALICE));
        for (int i = 0; i < 3; i++) {
            assertTrue(requests.keysOf(DelegationFixtures.ALICE, "id" + i).isEmpty(), "evicted: the oldest, id" + i);
        }
        assertTrue(requests.keysOf(DelegationFixtures.ALICE, "id3").isPresent());
        assertTrue(requests.keysOf(DelegationFixtures.BOB, "b").isPresent(), "Bob's request is not Alice's to evict");
        assertEquals(ProxyRequests.MAX_PER_DN + 1, requests.size());

        requests.create(DelegationFixtures.ALICE, "id3"); // asked again: now the newest
        requests.create(DelegationFixtures.ALICE, "new");
        assertTrue(requests.keysOf(DelegationFixtures.ALICE, "id3").isPresent(), "renewed, so kept");
        assertTrue(requests.keysOf(DelegationFixtures.ALICE, "id4").isEmpty(), "now the oldest, so evicted");
    }

    @Test
    void aDnBeyondItsRateIs429WithWhenToRetryAndOtherDnsAreServed() throws Exception {
        for (int i = 0; i < RequestRates.BURST; i++) {
            requests.create(DelegationFixtures.ALICE, "a" + i);
        }
        DelegationException refused = assertThrows(DelegationException.class, () -> requests.create(DelegationFixtures.ALICE, "more"));
        assertEquals(429, refused.status());
        assertEquals(RequestRates.REFILL.toSeconds(), refused.retryAfterSeconds());
        assertTrue(refused.getMessage().startsWith("too many certificate requests from this DN"), refused.getMessage());
        assertTrue(requests.keysOf(DelegationFixtures.ALICE, "more").isEmpty(), "no key made");
        String pending = requests.current(DelegationFixtures.ALICE, "a" + (RequestRates.BURST - 1));
        assertTrue(pending.contains("CERTIFICATE REQUEST"), "a pending one costs nothing");
        requests.create(DelegationFixtures.BOB, "b"); // another DN's budget
        clock.advance(RequestRates.REFILL.toMillis());
        requests.create(DelegationFixtures.ALICE, "more");
        assertTrue(requests.keysOf(DelegationFixtures.ALICE, "more").isPresent(), "one more after the refill");
    }

    @Test
    void aKeyGenerationThatGetsNoTurnIs503() {
        ProxyRequests busy = new ProxyRequests(clock, 0, java.time.Duration.ofMillis(10));
        DelegationException e = assertThrows(DelegationException.class, () -> busy.current(DelegationFixtures.ALICE, "a"));
        assertEquals(503, e.status());
        assertTrue(e.getMessage().contains("busy"), e.getMessage());
        assertEquals(0, busy.size(), "nothing pending");
    }

    @Test
    void idsAreShortWordsAndFreshIdsAreValidOnes() throws Exception {
        for (String bad : new String[] {"../x", "", "a b", "x".repeat(65), null}) {
            assertEquals(400, assertThrows(DelegationException.class, () -> ProxyRequests.checkId(bad)).status(), String.valueOf(bad));
        }
        assertEquals("my-id_1.0", ProxyRequests.checkId("my-id_1.0"));
        String id = requests.newId();
        assertEquals(id, ProxyRequests.checkId(id));
        assertNotEquals(id, requests.newId());
    }
}
