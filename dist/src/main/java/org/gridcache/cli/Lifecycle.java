package org.gridcache.cli;

import java.util.ArrayDeque;
import java.util.Deque;
import java.util.concurrent.CountDownLatch;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Holds what a long-running command started and closes it in reverse order on shutdown (SIGTERM, Ctrl-C). */
final class Lifecycle {
    private static final Logger LOG = LoggerFactory.getLogger(Lifecycle.class);
    private final Deque<AutoCloseable> started = new ArrayDeque<>();
    private final CountDownLatch stopped = new CountDownLatch(1);

    <T extends AutoCloseable> T add(T part) {
        started.push(part);
        return part;
    }

    /** Blocks until the JVM is asked to stop, then closes everything. */
    void runUntilStopped() throws InterruptedException {
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            closeAll();
            stopped.countDown();
        }, "shutdown"));
        stopped.await();
    }

    synchronized void closeAll() {
        while (!started.isEmpty()) {
            AutoCloseable part = started.pop();
            try {
                part.close();
            } catch (Exception e) {
                LOG.warn("error while stopping {}: {}", part.getClass().getSimpleName(), e.toString());
            }
        }
    }
}
