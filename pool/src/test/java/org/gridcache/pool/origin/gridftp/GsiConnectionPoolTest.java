package org.gridcache.pool.origin.gridftp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import eu.emi.security.authn.x509.X509Credential;
import eu.emi.security.authn.x509.proxy.ProxyCertificateOptions;
import eu.emi.security.authn.x509.proxy.ProxyGenerator;
import eu.emi.security.authn.x509.proxy.ProxyType;
import java.net.URI;
import java.nio.file.Path;
import org.gridcache.common.security.GridCredentials;
import org.gridcache.common.security.TestPki;
import org.gridcache.gridftp.GridFtpOptions;
import org.junit.jupiter.api.Test;


/**
 * The pool of idle GSI control connections: the key that keeps users apart (the idle pool beneath:
 * IdleConnectionPoolTest; real connections: GridFtpOriginTest).
 */
class GsiConnectionPoolTest {
    private static final URI ORIGIN = URI.create("gsiftp://se.example.org:2811/data/f.bin");

    /** A new proxy of {@code parent}, as the door derives one for a pool from a delegation (a fresh key each time). */
    static X509Credential proxyOf(X509Credential parent) throws Exception {
        ProxyCertificateOptions options = new ProxyCertificateOptions(parent.getCertificateChain());
        options.setType(ProxyType.RFC3820);
        options.setKeyLength(1024); // a test's key: only its identity matters here
        return ProxyGenerator.generate(options, parent.getKey()).getCredential();
    }

    @Test
    void twoProxiesOfOneDelegationShareConnectionsAndNothingElseDoes() throws Exception {
        Path pki = TestPki.get();
        // what the door hands the pool for each miss: a new proxy of the user's delegation (here: of her proxy)
        X509Credential delegation = GridCredentials.loadProxy(pki.resolve("proxies/alice.pem"));
        X509Credential forFirstMiss = proxyOf(delegation);
        X509Credential forSecondMiss = proxyOf(delegation);
        assertNotEquals(forFirstMiss.getCertificate(), forSecondMiss.getCertificate(), "each its own key and serial");
        GridFtpOptions one = GridFtpOptions.DEFAULT;
        GsiConnectionPool.Key key = GsiConnectionPool.key(ORIGIN, forFirstMiss, one);
        assertEquals(key, GsiConnectionPool.key(URI.create("gsiftp://SE.example.org:2811/data/other.bin"), forSecondMiss, one),
                "the same server and the same delegation, whichever file and whichever proxy of it");
        X509Credential bob = proxyOf(GridCredentials.loadProxy(pki.resolve("proxies/bob.pem")));
        assertNotEquals(key, GsiConnectionPool.key(ORIGIN, bob, one), "another user");
        X509Credential aliceAtlas = proxyOf(GridCredentials.loadProxy(pki.resolve("proxies/alice-atlas.pem")));
        assertNotEquals(key, GsiConnectionPool.key(ORIGIN, aliceAtlas, one), "another delegation of the same user (VOMS attributes)");
        assertNotEquals(GsiConnectionPool.key(ORIGIN, delegation, one),
                GsiConnectionPool.key(ORIGIN, GridCredentials.loadProxy(pki.resolve("proxies/alice-atlas.pem")), one),
                "two proxies of Alice's certificate, one with VOMS attributes: what a proxy carries counts too");
        assertNotEquals(key, GsiConnectionPool.key(URI.create("gsiftp://se.example.org:2812/data/f.bin"), forFirstMiss, one), "another server");
        assertNotEquals(key, GsiConnectionPool.key(ORIGIN, forFirstMiss, one.withStreams(4)), "other options");
        assertEquals(2811, GsiConnectionPool.key(URI.create("gsiftp://se.example.org/data/f.bin"), forFirstMiss, one).port());
        long delegationEnds = Long.MAX_VALUE;
        for (var c : delegation.getCertificateChain()) {
            delegationEnds = Math.min(delegationEnds, c.getNotAfter().getTime());
        }
        assertEquals(delegationEnds, key.notAfterMillis(), "the key holds the delegation's expiry: a re-delegation is a new key");
        X509Credential host = GridCredentials.load(pki.resolve("host/cert.pem"), pki.resolve("host/key.pem"));
        assertNotEquals(GsiConnectionPool.key(ORIGIN, host, one), key, "the pool's own certificate (service origins)");
    }

    @Test
    void nothingIdleMeansANewConnection() throws Exception {
        try (GsiConnectionPool pool = new GsiConnectionPool()) {
            X509Credential alice = GridCredentials.loadProxy(TestPki.get().resolve("proxies/alice.pem"));
            assertNull(pool.take(ORIGIN, alice, GridFtpOptions.DEFAULT));
            assertEquals(0, pool.idle());
            assertEquals(0, pool.reused());
        }
    }
}
