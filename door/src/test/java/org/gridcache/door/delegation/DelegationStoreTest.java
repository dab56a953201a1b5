package org.gridcache.door.delegation;

import org.gridcache.door.MutableClock;
import org.gridcache.common.security.TestPki;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import eu.emi.security.authn.x509.X509Credential;
import eu.emi.security.authn.x509.proxy.ProxyGenerator;
import eu.emi.security.authn.x509.proxy.ProxyRequestOptions;
import java.io.ByteArrayInputStream;
import java.io.StringReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.bouncycastle.openssl.PEMParser;
import org.bouncycastle.pkcs.PKCS10CertificationRequest;
import org.gridcache.common.security.GridCredentials;
import org.gridcache.common.security.GridTrust;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.xml.sax.SAXException;

/** The delegation store with real proxies of gridenv's PKI: put, checks, expiry, destroy, files of mode 0600. */
class DelegationStoreTest {
    static final String ALICE = "/DC=org/DC=example/CN=Alice";
    static Path pki;
    static GridTrust trust;
    @TempDir
    Path tmp;

    @BeforeAll
    static void load() throws Exception {
        pki = TestPki.get();
        trust = GridTrust.load(pki.resolve("certificates"), null, Duration.ofMinutes(10));
    }

    @AfterAll
    static void close() {
        if (trust != null) {
            trust.close();
        }
    }

    /** What a client does with the door's request: signs an RFC 3820 proxy for it with its own proxy. */
    static String sign(String csrPem, String proxy, long seconds) throws Exception {
        return sign(csrPem, proxy, seconds, eu.emi.security.authn.x509.proxy.ProxyType.RFC3820);
    }

    static String sign(String csrPem, String proxy, long seconds, eu.emi.security.authn.x509.proxy.ProxyType type) throws Exception {
        X509Credential user = GridCredentials.loadProxy(pki.resolve("proxies/" + proxy + ".pem"));
        PKCS10CertificationRequest csr;
        try (PEMParser parser = new PEMParser(new StringReader(csrPem))) {
            csr = (PKCS10CertificationRequest) parser.readObject();
        }
        ProxyRequestOptions options = new ProxyRequestOptions(user.getCertificateChain(), csr);
        options.setLifetime(seconds, TimeUnit.SECONDS);
        options.setType(type);
        return GridCredentials.certificatesToPem(ProxyGenerator.generate(options, user.getKey()));
    }

    @Test
    void aSignedRequestBecomesACredentialKeptInAFileOfMode0600() throws Exception {
        MutableClock clock = new MutableClock();
        Path dir = tmp.resolve("delegations");
        DelegationStore store = new DelegationStore(trust, dir, Duration.ofDays(7), java.time.Clock.systemUTC());
        String[] idAndCsr = store.newRequest(ALICE, null);
        DelegationStore.Delegation d = store.put(ALICE, idAndCsr[0], sign(idAndCsr[1], "alice", 3600));
        assertEquals(idAndCsr[0], store.freshest(ALICE).orElseThrow().id());
        assertTrue(d.credential().getKey() != null);
        try (var files = Files.list(dir)) {
            Path f = files.findFirst().orElseThrow();
            assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(f)));
            assertFalse(Files.readString(f).contains(ALICE + "\n" + "BEGIN"), "one credential per file");
        }
        assertEquals("rwx------", PosixFilePermissions.toString(Files.getPosixFilePermissions(dir)));
        // a restarted door finds it again
        DelegationStore again = new DelegationStore(trust, dir, Duration.ofDays(7), java.time.Clock.systemUTC());
        assertTrue(again.get(ALICE, idAndCsr[0]).isPresent());
        assertTrue(again.destroy(ALICE, idAndCsr[0]));
        try (var files = Files.list(dir)) {
            assertEquals(0, files.count(), "destroy removes the file");
        }
        assertTrue(clock.millis() > 0);
    }

    @Test
    void aProxyThatOpenSsl3CannotVerifyIsNamed() throws Exception {
        DelegationStore store = new DelegationStore(trust, null, Duration.ofDays(7), java.time.Clock.systemUTC());
        String legacy = sign(store.request(ALICE, "legacy"), "alice", 3600, eu.emi.security.authn.x509.proxy.ProxyType.LEGACY);
        assertEquals("is not an RFC 3820 proxy", DelegationStore.weakness(GridCredentials.certificatesFromPem(legacy)[0]));
        String rfc = sign(store.request(ALICE, "rfc"), "alice", 3600);
        assertEquals(null, DelegationStore.weakness(GridCredentials.certificatesFromPem(rfc)[0]));
    }

    @Test
    void anExpiredCredentialIsNotHandedOutAndIsPurged() throws Exception {
        MutableClock clock = new MutableClock();
        clock.advance(System.currentTimeMillis() - clock.millis());
        DelegationStore store = new DelegationStore(trust, null, Duration.ofDays(7), clock);
        String csr = store.request(ALICE, "short");
        store.put(ALICE, "short", sign(csr, "alice", 60));
        assertTrue(store.get(ALICE, "short").isPresent());
        clock.advance(Duration.ofMinutes(2).toMillis());
        assertTrue(store.get(ALICE, "short").isEmpty());
        assertTrue(store.freshest(ALICE).isEmpty());
        store.purge();
        assertEquals(0, store.size());
        DelegationStore.DelegationException e = assertThrows(DelegationStore.DelegationException.class,
                () -> store.terminationTime(ALICE, "short"));
        assertEquals(404, e.status());
    }

    @Test
    void everyWrongPutIsRefusedWithItsReason() throws Exception {
        DelegationStore store = new DelegationStore(trust, null, Duration.ofDays(7), java.time.Clock.systemUTC());
        // no request made first
        assertEquals(400, assertThrows(DelegationStore.DelegationException.class,
                () -> store.put(ALICE, "x", "junk")).status());
        String csr = store.request(ALICE, "a");
        assertEquals(400, assertThrows(DelegationStore.DelegationException.class,
                () -> store.put(ALICE, "a", "not pem")).status());
        // a proxy for another key (the request of another delegation)
        String otherCsr = store.request(ALICE, "b");
        DelegationStore.DelegationException wrongKey = assertThrows(DelegationStore.DelegationException.class,
                () -> store.put(ALICE, "a", sign(otherCsr, "alice", 3600)));
        assertTrue(wrongKey.getMessage().contains("key"), wrongKey.getMessage());
        // Bob's proxy put into Alice's delegation
        String bobCsr = store.request("/DC=org/DC=example/CN=Bob", "c");
        DelegationStore.DelegationException notYours = assertThrows(DelegationStore.DelegationException.class,
                () -> store.put("/DC=org/DC=example/CN=Bob", "c", sign(bobCsr, "alice", 3600)));
        assertEquals(403, notYours.status());
        // a revoked user's proxy
        String malloryCsr = store.request("/DC=org/DC=example/CN=Mallory", "d");
        DelegationStore.DelegationException revoked = assertThrows(DelegationStore.DelegationException.class,
                () -> store.put("/DC=org/DC=example/CN=Mallory", "d", sign(malloryCsr, "mallory", 3600)));
        assertTrue(revoked.getMessage().contains("does not validate"), revoked.getMessage());
        // a bad id
        assertEquals(400, assertThrows(DelegationStore.DelegationException.class, () -> store.request(ALICE, "../x")).status());
        assertTrue(csr.contains("BEGIN CERTIFICATE REQUEST"));
    }

    @Test
    void theSoapParserRefusesDoctypesAndExternalEntities() {
        String xxe = "<?xml version=\"1.0\"?><!DOCTYPE x [<!ENTITY e SYSTEM \"file:///etc/passwd\">]><x>&e;</x>";
        assertThrows(SAXException.class, () -> DelegationService.safeParser()
                .parse(new ByteArrayInputStream(xxe.getBytes(StandardCharsets.UTF_8))));
    }
}
