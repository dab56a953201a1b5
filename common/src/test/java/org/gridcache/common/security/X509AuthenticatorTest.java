package org.gridcache.common.security;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.security.cert.X509Certificate;
import java.time.Duration;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** Subject extraction from real chains of gridenv's PKI: proxies, VOMS attributes, and every way a chain fails. */
class X509AuthenticatorTest {
    static Path pki;
    static GridTrust trust;
    static X509Authenticator auth;

    @BeforeAll
    static void load() throws Exception {
        pki = TestPki.get();
        trust = GridTrust.load(pki.resolve("certificates"), pki.resolve("vomsdir"), Duration.ofMinutes(10));
        auth = new X509Authenticator(trust);
    }

    @AfterAll
    static void close() {
        if (trust != null) {
            trust.close();
        }
    }

    static X509Certificate[] chain(String proxy) throws Exception {
        return GridCredentials.loadProxy(pki.resolve("proxies/" + proxy + ".pem")).getCertificateChain();
    }

    @Test
    void aVomsProxyGivesDnVoAndFqans() throws Exception {
        GridSubject s = auth.authenticate(chain("alice-atlas"));
        assertEquals("/DC=org/DC=example/CN=Alice", s.dn());
        assertEquals("atlas", s.vo());
        assertTrue(s.fqans().stream().anyMatch(f -> f.startsWith("/atlas/Role=production")), s.fqans().toString());
        assertFalse(s.limited());
    }

    @Test
    void aPlainProxyHasNoVoAndALimitedOneIsFlagged() throws Exception {
        GridSubject plain = auth.authenticate(chain("alice"));
        assertEquals("/DC=org/DC=example/CN=Alice", plain.dn());
        assertNull(plain.vo());
        GridSubject limited = auth.authenticate(chain("alice-limited"));
        assertEquals("/DC=org/DC=example/CN=Alice", limited.dn());
        assertTrue(limited.limited());
    }

    @Test
    void anExpiredAttributeCertificateLeavesTheUserWithoutFqans() throws Exception {
        GridSubject s = auth.authenticate(chain("alice-atlas-expired-ac"));
        assertEquals("/DC=org/DC=example/CN=Alice", s.dn());
        assertNull(s.vo());
        assertTrue(s.fqans().isEmpty());
    }

    @Test
    void expiredAndRevokedChainsAreRefusedWithTheReason() {
        AuthenticationException expired = assertThrows(AuthenticationException.class, () -> auth.authenticate(chain("alice-expired")));
        assertTrue(expired.getMessage().contains("expired"), expired.getMessage());
        AuthenticationException revoked = assertThrows(AuthenticationException.class, () -> auth.authenticate(chain("mallory")));
        assertTrue(revoked.getMessage().contains("revoked"), revoked.getMessage());
    }

    @Test
    void aProxyWithoutItsUserCertificateIsRefusedWithAHintForNeonClients() throws Exception {
        X509Certificate[] full = chain("alice");
        AuthenticationException e = assertThrows(AuthenticationException.class,
                () -> auth.authenticate(new X509Certificate[] {full[0]}));
        assertEquals("certificate refused: " + X509Authenticator.LONE_PROXY, e.getMessage());
    }

    @Test
    void noChainIsAnonymousAndTheHostCertificateIsItsDn() throws Exception {
        assertTrue(auth.authenticate(null).anonymous());
        X509Certificate host = GridCredentials.load(pki.resolve("host/cert.pem"), pki.resolve("host/key.pem")).getCertificate();
        assertEquals("/DC=org/DC=example/OU=hosts/CN=localhost", auth.authenticate(new X509Certificate[] {host}).dn());
    }

    @Test
    void aMissingCaDirectoryIsAClearError() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> GridTrust.load(pki.resolve("nope"), null, Duration.ofMinutes(1)));
        assertTrue(e.getMessage().contains("does not exist"));
    }
}
