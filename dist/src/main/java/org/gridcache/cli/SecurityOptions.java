package org.gridcache.cli;

import eu.emi.security.authn.x509.X509Credential;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.gridcache.common.settings.ClusterSettings;
import org.gridcache.common.security.GridCredentials;
import org.gridcache.common.security.GridTrust;
import org.gridcache.zk.security.ZkClientTls;
import picocli.CommandLine.Option;

/** TLS and grid trust for doors and pools: host credential, CA directory (with CRLs), vomsdir, or plain HTTP. */
final class SecurityOptions {
    static final Path GRID_SECURITY = Path.of("/etc/grid-security");

    @Option(names = "--plain-http", description = "Speak plain HTTP (no TLS, no client authentication). Default: HTTPS "
            + "(standalone: plain HTTP unless --host-cert, --host-key, --ca-dir or --vomsdir is given).")
    boolean plainHttp;

    @Option(names = "--host-cert", paramLabel = "FILE", description = "Host certificate, PEM (default: /etc/grid-security/hostcert.pem).")
    Path hostCert;

    @Option(names = "--host-key", paramLabel = "FILE", description = "Host key, unencrypted PEM (default: /etc/grid-security/hostkey.pem).")
    Path hostKey;

    @Option(names = "--ca-dir", paramLabel = "DIR",
            description = "Trusted CAs and their CRLs, OpenSSL hashed layout (default: /etc/grid-security/certificates).")
    Path caDir;

    @Option(names = "--vomsdir", paramLabel = "DIR",
            description = "VOMS servers' .lsc files (default: /etc/grid-security/vomsdir when it exists; none: VOMS attributes ignored).")
    Path vomsDir;

    @Option(names = "--crl-refresh", paramLabel = "DURATION", defaultValue = "10m",
            description = "How often the CA directory and its CRLs are re-read (default: ${DEFAULT-VALUE}).")
    String crlRefresh;

    /** True when any TLS flag was given (standalone switches to HTTPS on them). */
    boolean anyGiven() {
        return hostCert != null || hostKey != null || caDir != null || vomsDir != null;
    }

    X509Credential hostCredential() throws IOException {
        return GridCredentials.load(or(hostCert, GRID_SECURITY.resolve("hostcert.pem")), or(hostKey, GRID_SECURITY.resolve("hostkey.pem")));
    }

    /** The CA directory given, or the grid default. */
    Path caDirectory() {
        return or(caDir, GRID_SECURITY.resolve("certificates"));
    }

    /** This node's ZooKeeper TLS: its host certificate, the CA directory. */
    ZkClientTls zkTls() throws IOException {
        return ZkClientTls.of(hostCredential(), caDirectory());
    }

    GridTrust trust() {
        Path vomsdir = vomsDir;
        if (vomsdir == null && Files.isDirectory(GRID_SECURITY.resolve("vomsdir"))) {
            vomsdir = GRID_SECURITY.resolve("vomsdir");
        }
        Duration refresh = ClusterSettings.parseDuration(crlRefresh);
        return GridTrust.load(caDirectory(), vomsdir, refresh);
    }

    private static Path or(Path given, Path fallback) {
        return given != null ? given : fallback;
    }
}
