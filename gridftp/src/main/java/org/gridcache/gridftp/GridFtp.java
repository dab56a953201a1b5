package org.gridcache.gridftp;

import java.lang.reflect.Field;
import java.nio.file.Path;
import org.globus.gsi.gssapi.GlobusGSSContextImpl;

/**
 * Process-wide set-up that jGlobus 2.1.0 needs before its first connection (gridenv/README.md, Java findings): it
 * offers only TLSv1 and SSLv3, which current servers and JDKs refuse, so its protocol list is switched to TLSv1.2
 * (TLSv1.3 does not work with its GSS code); and it reads the trusted CA directory only from the
 * {@code X509_CERT_DIR} system property. Its readers are replaced: stream-mode retrieves read into one reused array
 * ({@link StreamModeReader}), MODE E blocks in pieces of bounded size ({@link ModeEBlockReader}).
 */
public final class GridFtp {
    private static boolean patched;
    private static Path configuredCaDir;

    private GridFtp() {
    }

    /** Idempotent. {@code caDir}: the OpenSSL-hashed CA directory (with CRLs and signing policies) to trust. */
    public static synchronized void configure(Path caDir) {
        if (caDir != null) {
            Path dir = caDir.toAbsolutePath();
            System.setProperty("X509_CERT_DIR", dir.toString());
            if (configuredCaDir != null && !configuredCaDir.equals(dir)) {
                forgetCrls();
            }
            configuredCaDir = dir;
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
            StreamModeReader.install();
            ModeEBlockReader.install();
            patched = true;
        } catch (ReflectiveOperationException | RuntimeException e) {
            throw new IllegalStateException("cannot set jGlobus up (TLSv1.2, the readers): " + e, e);
        }
    }

    /**
     * jGlobus checks CRLs from a process-wide list it reloads from the CA directory only when its cache lifetime has
     * passed: after a switch to another directory whose CA has the same name (another test PKI) it would check the new
     * CA's certificates against the old CA's CRL ("Error validating CRL from CA"). Forgetting the list makes the next
     * check load the new directory's.
     */
    private static void forgetCrls() {
        try {
            Field f = org.globus.gsi.CertificateRevocationLists.class.getDeclaredField("defaultCrl");
            f.setAccessible(true);
            synchronized (org.globus.gsi.CertificateRevocationLists.class) {
                f.set(null, null);
            }
        } catch (ReflectiveOperationException | RuntimeException e) {
            throw new IllegalStateException("cannot reset jGlobus' CRL cache: " + e, e);
        }
    }
}
