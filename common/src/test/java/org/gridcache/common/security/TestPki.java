package org.gridcache.common.security;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assertions;
import org.junit.jupiter.api.Assumptions;

/** gridenv's test PKI ({@code ../shared/gridenv/mkpki.sh}, beside the checkout), made once per JVM. */
public final class TestPki {
    private static Path made;

    private TestPki() {
    }

    public static synchronized Path get() throws Exception {
        if (made != null) {
            return made;
        }
        Path root = Path.of("").toAbsolutePath();
        while (root != null && !Files.exists(root.resolve(".ci/run"))) {
            root = root.getParent();
        }
        Assertions.assertNotNull(root, "repository root not found");
        Path script = root.getParent().resolve("shared/gridenv/mkpki.sh");
        // a clone elsewhere than beside shared/ (in /tmp, say) would otherwise fail with a bare "cannot run program"
        Assertions.assertTrue(Files.isExecutable(script), "the test PKI's script " + script + " is missing: the checkout must lie"
                + " beside shared/ (../shared/gridenv), as the project's CI and its clones under /work do");
        for (String tool : new String[] {"openssl", "grid-proxy-init", "voms-proxy-fake"}) {
            if (!Files.isExecutable(Path.of("/usr/bin", tool))) {
                String message = "TEST NEEDS '" + tool + "' (run .ci/run or ../shared/gridenv/install-peers.sh)";
                if ("true".equals(System.getenv("CI"))) {
                    Assertions.fail(message);
                }
                Assumptions.abort(message);
            }
        }
        Path dir = Files.createTempDirectory("gridcache-unit-pki");
        Process p = new ProcessBuilder(script.toString(), dir.toString()).redirectErrorStream(true)
                .redirectOutput(dir.resolveSibling(dir.getFileName() + ".log").toFile()).start();
        Assertions.assertTrue(p.waitFor(3, TimeUnit.MINUTES) && p.exitValue() == 0, "mkpki.sh failed");
        made = dir;
        Runtime.getRuntime().addShutdownHook(new Thread(() -> deleteTree(dir)));
        return dir;
    }

    private static void deleteTree(Path dir) {
        try (var paths = Files.walk(dir)) {
            paths.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (java.io.IOException e) {
            // best effort: a temporary directory
        }
        dir.resolveSibling(dir.getFileName() + ".log").toFile().delete();
    }
}
