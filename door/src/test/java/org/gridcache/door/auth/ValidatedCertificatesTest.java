package org.gridcache.door.auth;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigInteger;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.cert.X509Certificate;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Date;
import java.util.List;
import javax.security.auth.x500.X500Principal;
import org.bouncycastle.asn1.x509.BasicConstraints;
import org.bouncycastle.asn1.x509.Extension;
import org.bouncycastle.cert.jcajce.JcaX509CertificateConverter;
import org.bouncycastle.cert.jcajce.JcaX509v3CertificateBuilder;
import org.bouncycastle.operator.jcajce.JcaContentSignerBuilder;
import org.gridcache.common.security.GridCredentials;
import org.gridcache.common.security.TestPki;
import org.junit.jupiter.api.Test;

/** What the door remembers of the chains it validated: their end-entity certificates, the newest few per subject. */
class ValidatedCertificatesTest {
    static final X500Principal ALICE = new X500Principal("CN=Alice,DC=example,DC=org");
    static final X500Principal CA = new X500Principal("CN=Example Grid Test CA,DC=example,DC=org");

    @Test
    void theEndEntityCertificateIsRememberedWithTheIssuersSentAboveItAndNoProxyNorCa() throws Exception {
        ValidatedCertificates remembered = new ValidatedCertificates();
        X509Certificate[] chain = GridCredentials.loadProxy(TestPki.get().resolve("proxies/alice.pem")).getCertificateChain();
        X509Certificate ca = certificate(CA, CA, true);
        remembered.remember(new X509Certificate[] {chain[0], chain[1], ca});
        assertEquals(List.of(List.of(chain[1], ca)), remembered.withSubject(chain[1].getSubjectX500Principal()));
        assertTrue(remembered.withSubject(chain[0].getSubjectX500Principal()).isEmpty(), "the proxy is not kept");
        assertTrue(remembered.withSubject(CA).isEmpty(), "a CA comes from the CA directory, never from a client");
        ValidatedCertificates onlyProxies = new ValidatedCertificates();
        onlyProxies.remember(new X509Certificate[] {chain[0]});
        assertTrue(onlyProxies.withSubject(chain[0].getIssuerX500Principal()).isEmpty());
    }

    @Test
    void aSubjectKeepsItsNewestChainsOnlyAndEachOnce() throws Exception {
        ValidatedCertificates remembered = new ValidatedCertificates();
        List<X509Certificate> users = new ArrayList<>();
        for (int i = 0; i < ValidatedCertificates.CHAINS_PER_SUBJECT + 2; i++) {
            users.add(certificate(ALICE, CA, false));
            remembered.remember(new X509Certificate[] {users.get(i)});
            remembered.remember(new X509Certificate[] {users.get(i)});
        }
        List<List<X509Certificate>> kept = remembered.withSubject(ALICE);
        assertEquals(ValidatedCertificates.CHAINS_PER_SUBJECT, kept.size(), "bounded, no duplicates");
        assertEquals(List.of(users.get(users.size() - 1)), kept.get(0), "newest first");
        assertTrue(kept.stream().noneMatch(c -> c.get(0).equals(users.get(0))), "the oldest went first");
    }

    private static X509Certificate certificate(X500Principal subject, X500Principal issuer, boolean ca) throws Exception {
        KeyPairGenerator g = KeyPairGenerator.getInstance("EC");
        g.initialize(256);
        KeyPair keys = g.generateKeyPair();
        Instant now = Instant.now();
        JcaX509v3CertificateBuilder b = new JcaX509v3CertificateBuilder(issuer, BigInteger.valueOf(now.toEpochMilli()),
                Date.from(now.minusSeconds(60)), Date.from(now.plusSeconds(3600)), subject, keys.getPublic());
        if (ca) {
            b.addExtension(Extension.basicConstraints, true, new BasicConstraints(true));
        }
        return new JcaX509CertificateConverter().getCertificate(b.build(new JcaContentSignerBuilder("SHA256withECDSA").build(keys.getPrivate())));
    }
}
