package org.gridcache.common.security;

import eu.emi.security.authn.x509.CrlCheckingMode;
import eu.emi.security.authn.x509.NamespaceCheckingMode;
import eu.emi.security.authn.x509.OCSPCheckingMode;
import eu.emi.security.authn.x509.OCSPParametes;
import eu.emi.security.authn.x509.ProxySupport;
import eu.emi.security.authn.x509.RevocationParameters;
import eu.emi.security.authn.x509.StoreUpdateListener;
import eu.emi.security.authn.x509.impl.OpensslCertChainValidator;
import eu.emi.security.authn.x509.impl.ValidatorParams;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.italiangrid.voms.ac.VOMSACValidator;
import org.italiangrid.voms.ac.impl.DefaultVOMSValidator;
import org.italiangrid.voms.store.impl.DefaultVOMSTrustStore;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What a node trusts: the CA directory in the OpenSSL hashed layout ({@code /etc/grid-security/certificates}: CA
 * certificates, CRLs, signing policies), re-read every {@code refresh} so new CRLs apply without a restart, with
 * RFC 3820 proxies allowed and CRLs required (canl-java); and, when given, a {@code vomsdir} of {@code .lsc} files
 * for VOMS attribute certificates (voms-api-java).
 */
public final class GridTrust implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(GridTrust.class);
    public static final Duration DEFAULT_REFRESH = Duration.ofMinutes(10);
    private final Path caDir;
    private final OpensslCertChainValidator validator;
    private final VOMSACValidator voms;

    private GridTrust(Path caDir, OpensslCertChainValidator validator, VOMSACValidator voms) {
        this.caDir = caDir;
        this.validator = validator;
        this.voms = voms;
    }

    /** {@code vomsDir} may be null: then no attribute certificate is ever accepted (subjects have no VO). */
    public static GridTrust load(Path caDir, Path vomsDir, Duration refresh) {
        if (caDir == null || !Files.isDirectory(caDir)) {
            throw new IllegalArgumentException("CA directory " + caDir + " does not exist");
        }
        if (vomsDir != null && !Files.isDirectory(vomsDir)) {
            throw new IllegalArgumentException("vomsdir " + vomsDir + " does not exist");
        }
        ValidatorParams params = new ValidatorParams(
                new RevocationParameters(CrlCheckingMode.REQUIRE, new OCSPParametes(OCSPCheckingMode.IGNORE)), ProxySupport.ALLOW);
        params.setInitialListeners(List.of(GridTrust::onStoreUpdate));
        OpensslCertChainValidator validator = new OpensslCertChainValidator(caDir.toString(), true,
                NamespaceCheckingMode.EUGRIDPMA_AND_GLOBUS_REQUIRE, refresh.toMillis(), params, false);
        VOMSACValidator voms = null;
        if (vomsDir != null) {
            voms = new DefaultVOMSValidator.Builder()
                    .trustStore(new DefaultVOMSTrustStore(List.of(vomsDir.toString())))
                    .certChainValidator(validator)
                    .build();
        }
        LOG.info("trusting CAs in {} (re-read every {} s){}", caDir, refresh.toSeconds(),
                vomsDir == null ? ", no vomsdir: VOMS attributes ignored" : ", VOMS servers in " + vomsDir);
        return new GridTrust(caDir, validator, voms);
    }

    private static void onStoreUpdate(String location, String type, StoreUpdateListener.Severity level, Exception error) {
        if (level != StoreUpdateListener.Severity.NOTIFICATION) {
            LOG.warn("trust store: {} {} {}: {}", type, location, level, error != null ? error.getMessage() : "");
        }
    }

    public OpensslCertChainValidator validator() {
        return validator;
    }

    /** The VOMS validator, or null when no vomsdir was given. */
    public VOMSACValidator voms() {
        return voms;
    }

    public Path caDir() {
        return caDir;
    }

    @Override
    public void close() {
        if (voms != null) {
            voms.shutdown();
        }
        validator.dispose();
    }
}
