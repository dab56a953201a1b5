package org.gridcache.door;

import java.io.IOException;
import java.net.Socket;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.Callable;
import org.awaitility.Awaitility;
import org.gridcache.common.TestPorts;
import org.junit.jupiter.api.Assertions;
import org.junit.jupiter.api.Assumptions;

/** What the door's tests share for the parts they start. */
public final class TestResources {
    private TestResources() {
    }

    /** Closes what a test started, last started first; a part that fails to close does not keep the others open. */
    public static void closeInReverse(List<AutoCloseable> parts) {
        for (int i = parts.size() - 1; i >= 0; i--) {
            try {
                parts.get(i).close();
            } catch (Exception e) {
                // best effort: the next test starts afresh in a new temporary directory
            }
        }
        parts.clear();
    }

    /**
     * Skips the test loudly when a program it starts is not installed (a developer's machine); in CI (CI=true) fails,
     * as {@code .ci/run} installs {@code packages}.
     */
    public static void requireInstalled(boolean installed, String what, String packages, String tests) {
        if (!installed) {
            System.err.println("!!! SKIPPED: " + what + " is not installed (apt-get install " + packages + "); " + tests
                    + " did not run !!!");
            Assertions.assertNotEquals("true", System.getenv("CI"), what + " is not installed: .ci/run installs it");
            Assumptions.abort(what + " is not installed");
        }
    }

    /** A loopback port for a server process the test starts (origins: nginx, PHP): {@link TestPorts#freePort}. */
    public static int freePort() {
        return TestPorts.freePort();
    }

    /** Waits until a server process accepts connections on the loopback {@code port}; {@code alive} fails early if it died. */
    public static void awaitListening(int port, Callable<Boolean> alive) {
        Awaitility.await().atMost(Duration.ofSeconds(20)).until(() -> {
            if (!alive.call()) {
                return true; // the caller's check below says why
            }
            try (Socket s = new Socket("127.0.0.1", port)) {
                return true;
            } catch (IOException e) {
                return false;
            }
        });
    }
}
