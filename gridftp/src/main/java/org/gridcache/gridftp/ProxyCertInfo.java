package org.gridcache.gridftp;

import java.io.IOException;
import java.math.BigInteger;
import java.security.cert.X509Certificate;
import org.bouncycastle.asn1.ASN1Encodable;
import org.bouncycastle.asn1.ASN1Integer;
import org.bouncycastle.asn1.ASN1OctetString;
import org.bouncycastle.asn1.ASN1Primitive;
import org.bouncycastle.asn1.ASN1Sequence;

/**
 * The proxy path length constraint of a proxy chain (RFC 3820 ProxyCertInfo, or the pre-RFC Globus OID), read with
 * the BouncyCastle shaded into this module (ARCHITECTURE.md, "Trust model"): a GridFTP server authenticates data
 * channels with a proxy it signs below ours, which a constraint of 0 forbids.
 */
final class ProxyCertInfo {
    static final String RFC3820_OID = "1.3.6.1.5.5.7.1.14";
    static final String GLOBUS_OID = "1.3.6.1.4.1.3536.1.222";

    private ProxyCertInfo() {
    }

    /**
     * How many more proxies may be signed below the chain's first certificate: the least, over its proxy
     * certificates, of their path length constraint less the proxies already below them; {@link Integer#MAX_VALUE}
     * when none constrains.
     */
    static int proxiesAllowedBelow(X509Certificate[] chain) {
        int allowed = Integer.MAX_VALUE;
        for (int i = 0; i < chain.length; i++) {
            byte[] ext = chain[i].getExtensionValue(RFC3820_OID);
            if (ext == null) {
                ext = chain[i].getExtensionValue(GLOBUS_OID);
            }
            if (ext == null) {
                continue;
            }
            int pathLen = pathLenConstraint(ext);
            if (pathLen >= 0) {
                allowed = Math.min(allowed, pathLen - i);
            }
        }
        return allowed;
    }

    /** The pCPathLenConstraint of a DER ProxyCertInfo wrapped in its extension OCTET STRING; -1 when absent or unreadable. */
    static int pathLenConstraint(byte[] extensionValue) {
        try {
            byte[] info = ASN1OctetString.getInstance(ASN1Primitive.fromByteArray(extensionValue)).getOctets();
            ASN1Sequence sequence = ASN1Sequence.getInstance(ASN1Primitive.fromByteArray(info));
            ASN1Encodable first = sequence.size() > 0 ? sequence.getObjectAt(0) : null;
            if (!(first instanceof ASN1Integer)) {
                return -1; // the constraint is optional and comes first: unconstrained
            }
            BigInteger value = ((ASN1Integer) first).getValue();
            return value.signum() < 0 ? -1 : value.min(BigInteger.valueOf(Integer.MAX_VALUE)).intValue();
        } catch (IOException | RuntimeException e) {
            return -1;
        }
    }
}
