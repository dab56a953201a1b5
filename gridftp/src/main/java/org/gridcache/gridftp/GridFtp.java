package org.gridcache.gridftp;

import java.lang.reflect.Field;
import java.nio.file.Path;
import org.globus.gsi.gssapi.GlobusGSSContextImpl;

/**
 * Process-wide set-up that jGlobus 2.1.0 needs before its first connection (gridenv/README.md, Java findings): it
 * offers only TLSv1 and SSLv3, which current servers and JDKs refuse, so its protocol list is switched to TLSv1.2
 * (TLSv1.3 does not work with its GSS code); and it reads the trusted CA directory only from the
 * {@code X509_CERT_DIR} system property.
 */
public final class GridFtp {
    private static boolean patched;

    private GridFtp() {
    }

    /** Idempotent. {@code caDir}: the OpenSSL-hashed CA directory (with CRLs and signing policies) to trust. */
    public static synchronized void configure(Path caDir) {
        if (caDir != null) {
            System.setProperty("X509_CERT_DIR", caDir.toAbsolutePath().toString());
        }
        if (patched) {
            return;
        }
        try {
            Field f = GlobusGSSContextImpl.class.getDeclaredField("ENABLED_PROTOCOLS");
            f.setAccessible(true);
            String[] protocols = (String[]) f.get(null);
            for (int i = 0; i < protocols.length; i++) {
                protocols[i] = "TLSv1.2"; // the array is final, its elements are not
            }
            patched = true;
        } catch (ReflectiveOperationException | RuntimeException e) {
            throw new IllegalStateException("cannot switch jGlobus to TLSv1.2: " + e, e);
        }
    }
}
