package org.gridcache.systemtest;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import org.junit.jupiter.api.Assertions;

/**
 * The real grid peers of {@code ../shared/gridenv} (beside the checkout): the test PKI made by {@code mkpki.sh}
 * (CA, CRL, host and user certificates, RFC 3820 and VOMS proxies) and the Apache + mod_gridsite HTTPS origin.
 */
final class GridEnv {
    static final Path SCRIPTS = repoRoot().getParent().resolve("shared/gridenv");

    private GridEnv() {
    }

    private static Path repoRoot() {
        Path dir = Path.of("").toAbsolutePath();
        while (dir != null && !Files.exists(dir.resolve(".ci/run"))) {
            dir = dir.getParent();
        }
        Assertions.assertNotNull(dir, "cannot find the repository root above " + Path.of("").toAbsolutePath());
        return dir;
    }

    /** Makes the PKI in {@code dir} (CA, CRL, certificates, proxies valid for a week). */
    static Path pki(Path dir) {
        Tools.run(Duration.ofMinutes(3), SCRIPTS.resolve("mkpki.sh").toString(), dir.toString()).assertOk();
        return dir;
    }

    /** A directory the origin's workers (www-data) can read; not under JUnit's private temporary directories. */
    static Path worldReadableDir(String prefix) throws IOException {
        Path dir = Files.createTempDirectory(prefix, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwxr-xr-x")));
        Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwxr-xr-x"));
        return dir;
    }

    static void makeReadable(Path file) throws IOException {
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString(Files.isDirectory(file) ? "rwxr-xr-x" : "rw-r--r--"));
    }

    /** Apache + mod_gridsite serving {@code data} on a free loopback port; stop with {@link Origin#close}. */
    record Origin(int port) implements AutoCloseable {
        static Origin start(Path pki, Path data) {
            int port = Tools.freePort();
            Tools.run(Duration.ofMinutes(1), SCRIPTS.resolve("start-https-origin.sh").toString(), pki.toString(), data.toString(),
                    String.valueOf(port)).assertOk();
            return new Origin(port);
        }

        String url() {
            return "https://localhost:" + port;
        }

        @Override
        public void close() {
            Tools.run(Duration.ofMinutes(1), SCRIPTS.resolve("stop-https-origin.sh").toString(), String.valueOf(port));
        }
    }
}
