package org.gridcache.door.auth;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import eu.emi.security.authn.x509.proxy.ProxyCertificateOptions;
import eu.emi.security.authn.x509.proxy.ProxyGenerator;
import eu.emi.security.authn.x509.proxy.ProxyUtils;
import java.math.BigInteger;
import java.nio.file.Path;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Date;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;
import javax.security.auth.x500.X500Principal;
import org.bouncycastle.cert.jcajce.JcaX509CertificateConverter;
import org.bouncycastle.cert.jcajce.JcaX509v3CertificateBuilder;
import org.bouncycastle.operator.jcajce.JcaContentSignerBuilder;
import org.gridcache.common.security.GridCredentials;
import org.gridcache.common.security.GridSubject;
import org.gridcache.common.security.GridTrust;
import org.gridcache.common.security.TestPki;
import org.gridcache.common.security.X509Authenticator;
import org.gridcache.door.exchange.DoorException;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A proxy presented alone (as neon sends a PKCS#12 of a proxy) is completed from certificates the door holds and then
 * validated by canl like any chain; a leaf that only claims the right issuer, or one nothing held completes, is a 401.
 * The held certificates here are gridenv's chains above their leaves, as {@code DelegationStore} indexes them.
 */
class ProxyChainCompletionTest {
    static final String ALICE = "/DC=org/DC=example/CN=Alice";
    static final String REFUSED = "certificate refused: " + ProxyChainCompletion.NO_USER_CERTIFICATE;
    static Path pki;
    static GridTrust trust;
    /** What the door holds: subject → stored chains from that certificate up; tests add to it. */
    private final Map<X500Principal, List<List<X509Certificate>>> held = new ConcurrentHashMap<>();
    private X509SubjectResolver resolver;

    @BeforeAll
    static void load() throws Exception {
        pki = TestPki.get();
        trust = GridTrust.load(pki.resolve("certificates"), pki.resolve("vomsdir"), Duration.ofMinutes(10));
    }

    @AfterAll
    static void close() {
        if (trust != null) {
            trust.close();
        }
    }

    @BeforeEach
    void resolver() {
        resolver = new X509SubjectResolver(new X509Authenticator(trust),
                new ProxyChainCompletion(subject -> held.getOrDefault(subject, List.of())));
    }

    static X509Certificate[] chain(String proxy) throws Exception {
        return GridCredentials.loadProxy(pki.resolve("proxies/" + proxy + ".pem")).getCertificateChain();
    }

    /** The door holds the certificates above the leaf of {@code proxy}'s chain, as it does after a delegation of it. */
    private void hold(String proxy) throws Exception {
        X509Certificate[] chain = chain(proxy);
        for (int i = 1; i < chain.length; i++) {
            held.computeIfAbsent(chain[i].getSubjectX500Principal(), s -> new ArrayList<>())
                    .add(List.of(Arrays.copyOfRange(chain, i, chain.length)));
        }
    }

    private static X509Certificate[] leafOf(String proxy) throws Exception {
        return new X509Certificate[] {chain(proxy)[0]};
    }

    @Test
    void aLoneProxyIsCompletedWithTheUserCertificateOfAnotherDelegationAndValidates() throws Exception {
        hold("alice-atlas"); // Alice delegated her /atlas proxy; she now presents her plain proxy alone
        GridSubject s = resolver.resolve(leafOf("alice"));
        assertEquals(ALICE, s.dn());
        assertTrue(s.fqans().isEmpty(), "the plain proxy carries no VOMS attributes");
        GridSubject atlas = resolver.resolve(leafOf("alice-atlas"));
        assertEquals(ALICE, atlas.dn());
        assertTrue(atlas.fqans().stream().anyMatch(f -> f.startsWith("/atlas")), "its attributes are read: " + atlas.fqans());
    }

    @Test
    void theCompletedChainIsTheProxyFollowedByItsIssuerAndThatIssuersOwnIssuers() throws Exception {
        hold("alice");
        X509Certificate[] full = chain("alice");
        ProxyChainCompletion completion = new ProxyChainCompletion(subject -> held.getOrDefault(subject, List.of()));
        X509Certificate[] completed = completion.complete(new X509Certificate[] {full[0]}).orElseThrow();
        assertTrue(Arrays.equals(full, completed), "the chain the client would have sent, had it sent it whole");
        assertSame(full, completion.complete(full).orElseThrow(), "a chain that ends in an end-entity certificate is left alone");
    }

    @Test
    void noHeldCertificateIsA401ThatSaysToDelegateOrUseTheUserCertificate() throws Exception {
        DoorException e = assertThrows(DoorException.class, () -> resolver.resolve(leafOf("alice")));
        assertEquals(401, e.status());
        assertEquals(REFUSED, e.reason());
        assertTrue(e.reason().contains("gridcache delegate"), e.reason());
        assertTrue(e.reason().contains("PKCS#12 of the user certificate"), e.reason());
        hold("bob");
        assertEquals(REFUSED, assertThrows(DoorException.class, () -> resolver.resolve(leafOf("alice"))).reason(),
                "another user's certificate completes nothing of Alice's");
    }

    @Test
    void aRefusalIsNotRememberedOnceTheUserHasDelegated() throws Exception {
        assertEquals(REFUSED, assertThrows(DoorException.class, () -> resolver.resolve(leafOf("alice"))).reason());
        hold("alice");
        assertEquals(ALICE, resolver.resolve(leafOf("alice")).dn());
    }

    @Test
    void aLoneProxyIsCompletedFromTheWholeChainTheUserPresentedBeforeWithoutADelegation() throws Exception {
        assertEquals(REFUSED, assertThrows(DoorException.class, () -> resolver.resolve(leafOf("alice"))).reason());
        assertEquals(ALICE, resolver.resolve(chain("alice")).dn(), "curl, wget or davix send the whole proxy");
        assertEquals(ALICE, resolver.resolve(leafOf("alice")).dn(), "then cadaver's proxy alone is completed");
        GridSubject atlas = resolver.resolve(leafOf("alice-atlas"));
        assertTrue(atlas.fqans().stream().anyMatch(f -> f.startsWith("/atlas")), "another proxy of hers too: " + atlas.fqans());
        assertEquals(REFUSED, assertThrows(DoorException.class, () -> resolver.resolve(leafOf("bob"))).reason(),
                "Alice's chain completes nothing of Bob's");
    }

    @Test
    void aChainThatDidNotValidateCompletesNothingLater() throws Exception {
        DoorException revoked = assertThrows(DoorException.class, () -> resolver.resolve(chain("mallory")));
        assertTrue(revoked.reason().contains("revoked"), revoked.reason());
        assertEquals(REFUSED, assertThrows(DoorException.class, () -> resolver.resolve(leafOf("mallory"))).reason(),
                "the refused chain's certificates were not remembered");
    }

    @Test
    void aForgedLeafNamingAliceAsItsIssuerIsRefused() throws Exception {
        hold("alice");
        X509Certificate forged = proxyOfAliceSignedBy(rsa().getPrivate());
        assertEquals(chain("alice")[1].getSubjectX500Principal(), forged.getIssuerX500Principal(), "the issuer DN matches");
        assertTrue(ProxyUtils.isProxy(forged));
        DoorException e = assertThrows(DoorException.class, () -> resolver.resolve(new X509Certificate[] {forged}));
        assertEquals(401, e.status());
        assertEquals(REFUSED, e.reason(), "Alice's certificate does not verify its signature, so nothing completes it");
    }

    @Test
    void aHeldCertificateWithTheRightDnButAnotherKeyIsPassedOver() throws Exception {
        X509Certificate aliceEec = chain("alice")[1];
        X509Certificate impostor = selfSigned(aliceEec.getSubjectX500Principal());
        held.computeIfAbsent(impostor.getSubjectX500Principal(), s -> new ArrayList<>()).add(List.of(impostor));
        assertEquals(REFUSED, assertThrows(DoorException.class, () -> resolver.resolve(leafOf("alice"))).reason());
        hold("alice");
        assertEquals(ALICE, resolver.resolve(leafOf("alice")).dn(), "the certificate whose key signed the proxy is chosen");
    }

    @Test
    void validationStillDecidesACompletedChain() throws Exception {
        hold("mallory");
        DoorException revoked = assertThrows(DoorException.class, () -> resolver.resolve(leafOf("mallory")));
        assertEquals(401, revoked.status());
        assertTrue(revoked.reason().contains("revoked"), "the CRL refuses Mallory's completed chain: " + revoked.reason());
        hold("alice-expired");
        DoorException expired = assertThrows(DoorException.class, () -> resolver.resolve(leafOf("alice-expired")));
        assertTrue(expired.reason().contains("expired"), expired.reason());
    }

    @Test
    void aFullChainIsValidatedWithoutLookingAnythingUp() throws Exception {
        Function<X500Principal, List<List<X509Certificate>>> none = subject -> {
            throw new AssertionError("looked up " + subject);
        };
        X509SubjectResolver plain = new X509SubjectResolver(new X509Authenticator(trust), new ProxyChainCompletion(none));
        assertEquals(ALICE, plain.resolve(chain("alice")).dn());
        assertTrue(plain.resolve(new X509Certificate[0]).anonymous());
        assertFalse(plain.resolve(chain("alice-limited")).anonymous());
    }

    /** A proxy whose issuer is Alice's DN, signed with another key: what an attacker can make without Alice's key. */
    private static X509Certificate proxyOfAliceSignedBy(java.security.PrivateKey key) throws Exception {
        X509Certificate[] alice = chain("alice");
        ProxyCertificateOptions options = new ProxyCertificateOptions(new X509Certificate[] {alice[1]});
        options.setPublicKey(rsa().getPublic());
        return ProxyGenerator.generate(options, key).getCertificateChain()[0];
    }

    private static X509Certificate selfSigned(X500Principal subject) throws Exception {
        KeyPair keys = rsa();
        Instant now = Instant.now();
        return new JcaX509CertificateConverter().getCertificate(new JcaX509v3CertificateBuilder(subject, BigInteger.TEN,
                Date.from(now.minusSeconds(60)), Date.from(now.plusSeconds(3600)), subject, keys.getPublic())
                .build(new JcaContentSignerBuilder("SHA256withRSA").build(keys.getPrivate())));
    }

    private static KeyPair rsa() throws Exception {
        KeyPairGenerator g = KeyPairGenerator.getInstance("RSA");
        g.initialize(2048);
        return g.generateKeyPair();
    }
}
