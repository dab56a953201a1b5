package org.gridcache.door.delegation;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import eu.emi.security.authn.x509.proxy.ProxyType;
import java.security.PublicKey;
import java.security.cert.X509Certificate;
import java.time.Clock;
import org.gridcache.common.security.GridCredentials;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The checks of the chain a client returns, with real proxies of gridenv's PKI. */
class DelegatedChainCheckTest {
    private final ProxyRequests requests = new ProxyRequests(Clock.systemUTC());
    private DelegatedChainCheck check;

    @BeforeEach
    void trust() throws Exception {
        check = new DelegatedChainCheck(DelegationFixtures.trust());
    }

    private PublicKey keyOf(String dn, String id) {
        return requests.keysOf(dn, id).orElseThrow().getPublic();
    }

    @Test
    void aProxyOfTheCallerForTheRequestsKeyPasses() throws Exception {
        String csr = requests.create(DelegationFixtures.ALICE, "a");
        X509Certificate[] chain = check.check(DelegationFixtures.ALICE, keyOf(DelegationFixtures.ALICE, "a"),
                DelegationFixtures.sign(csr, "alice", 3600));
        assertEquals(keyOf(DelegationFixtures.ALICE, "a"), chain[0].getPublicKey());
        assertTrue(chain.length >= 2, "the proxy and the chain that signed it");
    }

    @Test
    void everyWrongChainIsRefusedWithItsReason() throws Exception {
        String csr = requests.create(DelegationFixtures.ALICE, "a");
        PublicKey alicesKey = keyOf(DelegationFixtures.ALICE, "a");
        DelegationException junk = assertThrows(DelegationException.class, () -> check.check(DelegationFixtures.ALICE, alicesKey, "not pem"));
        assertEquals(400, junk.status());
        // a proxy for another key (the request of another delegation)
        String otherCsr = requests.create(DelegationFixtures.ALICE, "b");
        DelegationException wrongKey = assertThrows(DelegationException.class,
                () -> check.check(DelegationFixtures.ALICE, alicesKey, DelegationFixtures.sign(otherCsr, "alice", 3600)));
        assertEquals(400, wrongKey.status());
        assertTrue(wrongKey.getMessage().contains("key"), wrongKey.getMessage());
        // Alice's proxy put into Bob's delegation
        String bobCsr = requests.create(DelegationFixtures.BOB, "c");
        DelegationException notYours = assertThrows(DelegationException.class, () -> check.check(DelegationFixtures.BOB,
                keyOf(DelegationFixtures.BOB, "c"), DelegationFixtures.sign(bobCsr, "alice", 3600)));
        assertEquals(403, notYours.status());
        // a revoked user's proxy
        String malloryCsr = requests.create(DelegationFixtures.MALLORY, "d");
        DelegationException revoked = assertThrows(DelegationException.class, () -> check.check(DelegationFixtures.MALLORY,
                keyOf(DelegationFixtures.MALLORY, "d"), DelegationFixtures.sign(malloryCsr, "mallory", 3600)));
        assertEquals(400, revoked.status());
        assertTrue(revoked.getMessage().contains("does not validate"), revoked.getMessage());
        // the proxy alone, without the chain that signed it
        String proxyOnly = GridCredentials.certificatesToPem(new X509Certificate[] {
                GridCredentials.certificatesFromPem(DelegationFixtures.sign(csr, "alice", 3600))[0]});
        DelegationException alone = assertThrows(DelegationException.class, () -> check.check(DelegationFixtures.ALICE, alicesKey, proxyOnly));
        assertTrue(alone.getMessage().contains("without the chain"), alone.getMessage());
    }

    @Test
    void aProxyThatOpenSsl3CannotVerifyIsNamed() throws Exception {
        String legacy = DelegationFixtures.sign(requests.create(DelegationFixtures.ALICE, "legacy"), "alice", 3600, ProxyType.LEGACY);
        assertEquals("is not an RFC 3820 proxy", DelegatedChainCheck.weakness(GridCredentials.certificatesFromPem(legacy)[0]));
        String rfc = DelegationFixtures.sign(requests.create(DelegationFixtures.ALICE, "rfc"), "alice", 3600);
        assertNull(DelegatedChainCheck.weakness(GridCredentials.certificatesFromPem(rfc)[0]));
    }
}
