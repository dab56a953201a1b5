package org.gridcache.gridftp.jglobus;

import java.io.IOException;
import java.io.OutputStream;
import org.bouncycastle.asn1.ASN1Encodable;
import org.bouncycastle.asn1.ASN1Encoding;

/**
 * What jGlobus 2.1.0 uses of BouncyCastle 1.50's public {@code DEROutputStream} (writing an object in DER), which
 * BouncyCastle has since made internal: the shading points jGlobus' references to that class here (gridftp/pom.xml).
 */
public final class DerOutputStream {
    private final OutputStream out;

    public DerOutputStream(OutputStream out) {
        this.out = out;
    }

    public void writeObject(ASN1Encodable object) throws IOException {
        out.write(object.toASN1Primitive().getEncoded(ASN1Encoding.DER));
    }
}
