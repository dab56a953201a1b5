package org.gridcache.common.security;

import eu.emi.security.authn.x509.X509Credential;
import eu.emi.security.authn.x509.impl.CertificateUtils;
import eu.emi.security.authn.x509.impl.KeyAndCertCredential;
import eu.emi.security.authn.x509.impl.PEMCredential;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.PrivateKey;
import java.security.cert.X509Certificate;

/**
 * Reading and writing credentials as PEM: host certificates, proxies (certificate, key, then the rest of the chain,
 * as grid-proxy-init writes them), delegated credentials. The text of a credential holds its private key: it is
 * never logged and only written to files of mode 0600.
 */
public final class GridCredentials {
    private GridCredentials() {
    }

    /** A host (or user) credential from a certificate file and an unencrypted key file. */
    public static X509Credential load(Path cert, Path key) throws IOException {
        if (!Files.isReadable(cert)) {
            throw new IOException("cannot read certificate " + cert);
        }
        if (!Files.isReadable(key)) {
            throw new IOException("cannot read private key " + key);
        }
        try {
            return new PEMCredential(key.toString(), cert.toString(), null);
        } catch (GeneralSecurityException e) {
            throw new IOException("cannot load credential " + cert + ": " + e.getMessage());
        }
    }

    /** A proxy file: certificates and the key in one PEM text, in any order. */
    public static X509Credential loadProxy(Path file) throws IOException {
        return fromPem(Files.readString(file, StandardCharsets.US_ASCII));
    }

    public static X509Credential fromPem(String pem) throws IOException {
        try {
            return new PEMCredential(new ByteArrayInputStream(pem.getBytes(StandardCharsets.US_ASCII)), (char[]) null);
        } catch (GeneralSecurityException e) {
            throw new IOException("not a PEM credential: " + e.getMessage());
        }
    }

    public static X509Credential of(PrivateKey key, X509Certificate[] chain) {
        try {
            return new KeyAndCertCredential(key, chain);
        } catch (java.security.KeyStoreException e) {
            throw new IllegalArgumentException("key does not fit the chain", e);
        }
    }

    /** The credential as one PEM text: first certificate, the key (PKCS#1, unencrypted), then the rest of the chain. */
    public static String toPem(X509Credential credential) throws IOException {
        X509Certificate[] chain = credential.getCertificateChain();
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        CertificateUtils.saveCertificate(out, chain[0], CertificateUtils.Encoding.PEM);
        CertificateUtils.savePrivateKey(out, credential.getKey(), CertificateUtils.Encoding.PEM, null, null, true);
        for (int i = 1; i < chain.length; i++) {
            CertificateUtils.saveCertificate(out, chain[i], CertificateUtils.Encoding.PEM);
        }
        return out.toString(StandardCharsets.US_ASCII);
    }

    public static String certificatesToPem(X509Certificate[] chain) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (X509Certificate c : chain) {
            CertificateUtils.saveCertificate(out, c, CertificateUtils.Encoding.PEM);
        }
        return out.toString(StandardCharsets.US_ASCII);
    }

    public static X509Certificate[] certificatesFromPem(String pem) throws IOException {
        return CertificateUtils.loadCertificates(new ByteArrayInputStream(pem.getBytes(StandardCharsets.US_ASCII)),
                CertificateUtils.Encoding.PEM);
    }
}
