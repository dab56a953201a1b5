package org.globus.gsi.bc;

import java.io.IOException;
import java.io.InputStream;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.PrivateKey;
import java.security.Security;
import java.security.interfaces.RSAPrivateCrtKey;
import java.security.spec.InvalidKeySpecException;
import java.security.spec.PKCS8EncodedKeySpec;
import org.bouncycastle.asn1.ASN1Encoding;
import org.bouncycastle.asn1.DERNull;
import org.bouncycastle.asn1.pkcs.PKCSObjectIdentifiers;
import org.bouncycastle.asn1.pkcs.PrivateKeyInfo;
import org.bouncycastle.asn1.pkcs.RSAPrivateKey;
import org.bouncycastle.asn1.x509.AlgorithmIdentifier;
import org.bouncycastle.jce.provider.BouncyCastleProvider;
import org.globus.gsi.OpenSSLKey;

/**
 * An RSA key in OpenSSL's PEM form (PKCS#1). Takes the place of jGlobus 2.1.0's class of this name in the shaded jar
 * (gridftp/pom.xml), with the same public and protected members, because that one turns a PKCS#8 key into PKCS#1 with
 * a BouncyCastle method removed after 1.50, which every {@code new X509Credential(key, chain)} reaches.
 */
public class BouncyCastleOpenSSLKey extends OpenSSLKey {
    private static final long serialVersionUID = 1L;

    static {
        // as jGlobus' class does: its encryption of keys names the provider "BC" (getProvider)
        Security.addProvider(new BouncyCastleProvider());
    }

    public BouncyCastleOpenSSLKey(InputStream in) throws IOException, GeneralSecurityException {
        super(in);
    }

    public BouncyCastleOpenSSLKey(String file) throws IOException, GeneralSecurityException {
        super(file);
    }

    public BouncyCastleOpenSSLKey(PrivateKey key) {
        super(key);
    }

    public BouncyCastleOpenSSLKey(String algorithm, byte[] data) throws GeneralSecurityException {
        super(algorithm, data);
    }

    /** An RSA key from its PKCS#1 encoding; null for another algorithm, which jGlobus does not read. */
    @Override
    protected PrivateKey getKey(String algorithm, byte[] pkcs1) throws GeneralSecurityException {
        if (!"RSA".equals(algorithm)) {
            return null;
        }
        if (pkcs1.length == 0) {
            throw new GeneralSecurityException("Cannot process empty byte stream.");
        }
        try {
            PrivateKeyInfo pkcs8 = new PrivateKeyInfo(new AlgorithmIdentifier(PKCSObjectIdentifiers.rsaEncryption, DERNull.INSTANCE),
                    RSAPrivateKey.getInstance(pkcs1));
            return KeyFactory.getInstance("RSA").generatePrivate(new PKCS8EncodedKeySpec(pkcs8.getEncoded(ASN1Encoding.DER)));
        } catch (IOException | IllegalArgumentException e) {
            throw new InvalidKeySpecException("not an RSA private key in PKCS#1: " + e.getMessage(), e);
        }
    }

    /** The key's PKCS#1 encoding; empty when it has none (not RSA), as jGlobus answers. */
    @Override
    protected byte[] getEncoded(PrivateKey key) {
        try {
            if (key instanceof RSAPrivateCrtKey rsa) {
                return new RSAPrivateKey(rsa.getModulus(), rsa.getPublicExponent(), rsa.getPrivateExponent(), rsa.getPrimeP(),
                        rsa.getPrimeQ(), rsa.getPrimeExponentP(), rsa.getPrimeExponentQ(), rsa.getCrtCoefficient()).getEncoded(ASN1Encoding.DER);
            }
            String format = key.getFormat();
            if ("PKCS#8".equalsIgnoreCase(format) || "PKCS8".equalsIgnoreCase(format)) {
                return PrivateKeyInfo.getInstance(key.getEncoded()).parsePrivateKey().toASN1Primitive().getEncoded(ASN1Encoding.DER);
            }
            if ("PKCS#1".equalsIgnoreCase(format)) {
                return key.getEncoded();
            }
        } catch (IOException | IllegalArgumentException e) {
            // no PKCS#1 form
        }
        return new byte[0];
    }

    @Override
    protected String getProvider() {
        return "BC";
    }
}
