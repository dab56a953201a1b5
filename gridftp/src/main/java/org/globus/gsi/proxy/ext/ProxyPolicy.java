package org.globus.gsi.proxy.ext;

import java.nio.charset.Charset;
import org.bouncycastle.asn1.ASN1Encodable;
import org.bouncycastle.asn1.ASN1EncodableVector;
import org.bouncycastle.asn1.ASN1ObjectIdentifier;
import org.bouncycastle.asn1.ASN1OctetString;
import org.bouncycastle.asn1.ASN1Primitive;
import org.bouncycastle.asn1.ASN1Sequence;
import org.bouncycastle.asn1.ASN1TaggedObject;
import org.bouncycastle.asn1.DEROctetString;
import org.bouncycastle.asn1.DERSequence;

/**
 * The ProxyPolicy of an RFC 3820 ProxyCertInfo: a policy language and an optional policy. Takes the place of jGlobus
 * 2.1.0's class of this name in the shaded jar (gridftp/pom.xml), with the same public members, because that one reads
 * a tagged policy with a BouncyCastle method removed after 1.50; a policy is read here as RFC 3820 writes it (an
 * OCTET STRING) or, as jGlobus also accepted, explicitly tagged. The policy language's type is jGlobus'
 * {@code DERObjectIdentifier}, which the shading maps to {@link ASN1ObjectIdentifier}, its successor.
 */
public class ProxyPolicy implements ASN1Encodable {
    /** id-ppl-inheritAll: the proxy has all the rights of its issuer. */
    public static final ASN1ObjectIdentifier IMPERSONATION = new ASN1ObjectIdentifier("1.3.6.1.5.5.7.21.1");
    /** id-ppl-independent: the proxy has none of its issuer's rights. */
    public static final ASN1ObjectIdentifier INDEPENDENT = new ASN1ObjectIdentifier("1.3.6.1.5.5.7.21.2");
    /** Globus' limited proxy language. */
    public static final ASN1ObjectIdentifier LIMITED = new ASN1ObjectIdentifier("1.3.6.1.4.1.3536.1.1.1.9");

    private final ASN1ObjectIdentifier policyLanguage;
    private final ASN1OctetString policy;

    /** @throws IllegalArgumentException when the sequence is no ProxyPolicy */
    public ProxyPolicy(ASN1Sequence sequence) {
        if (sequence.size() < 1 || sequence.size() > 2) {
            throw new IllegalArgumentException("a ProxyPolicy has a policy language and at most a policy, not " + sequence.size() + " elements");
        }
        this.policyLanguage = ASN1ObjectIdentifier.getInstance(sequence.getObjectAt(0));
        if (sequence.size() == 2) {
            ASN1Encodable second = sequence.getObjectAt(1);
            this.policy = second instanceof ASN1TaggedObject tagged ? ASN1OctetString.getInstance(tagged, true) : ASN1OctetString.getInstance(second);
        } else {
            this.policy = null;
        }
        checkConstraints();
    }

    public ProxyPolicy(ASN1ObjectIdentifier policyLanguage, byte[] policy) {
        if (policyLanguage == null) {
            throw new IllegalArgumentException("a ProxyPolicy needs a policy language");
        }
        this.policyLanguage = policyLanguage;
        this.policy = policy == null ? null : new DEROctetString(policy);
        checkConstraints();
    }

    public ProxyPolicy(String policyLanguageOid, byte[] policy) {
        this(policyLanguageOid == null ? null : new ASN1ObjectIdentifier(policyLanguageOid), policy);
    }

    /** The policy in the platform's charset, as jGlobus encodes it. */
    public ProxyPolicy(ASN1ObjectIdentifier policyLanguage, String policy) {
        this(policyLanguage, policy == null ? null : policy.getBytes(Charset.defaultCharset()));
    }

    public ProxyPolicy(ASN1ObjectIdentifier policyLanguage) {
        this(policyLanguage, (byte[]) null);
    }

    @Override
    public ASN1Primitive toASN1Primitive() {
        ASN1EncodableVector elements = new ASN1EncodableVector(2);
        elements.add(policyLanguage);
        if (policy != null) {
            elements.add(policy);
        }
        return new DERSequence(elements);
    }

    /** Inherit-all and independent proxies carry no policy (RFC 3820, 3.8.1). */
    protected void checkConstraints() {
        if ((IMPERSONATION.equals(policyLanguage) || INDEPENDENT.equals(policyLanguage)) && policy != null) {
            throw new IllegalArgumentException("a proxy policy of language " + policyLanguage.getId() + " has no policy");
        }
    }

    /** The policy's bytes; empty when there is none. */
    public byte[] getPolicy() {
        return policy == null ? new byte[0] : policy.getOctets();
    }

    /** The policy in the platform's charset; null when there is none. */
    public String getPolicyAsString() {
        return policy == null ? null : new String(policy.getOctets(), Charset.defaultCharset());
    }

    public ASN1ObjectIdentifier getPolicyLanguage() {
        return policyLanguage;
    }

    @Override
    public String toString() {
        return policy == null ? "ProxyPolicy: " + policyLanguage.getId()
                : "ProxyPolicy: " + policyLanguage.getId() + System.lineSeparator() + getPolicyAsString();
    }
}
