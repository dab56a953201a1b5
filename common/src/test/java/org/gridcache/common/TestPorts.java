package org.gridcache.common;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ThreadLocalRandom;

/** Ports for servers a test starts, shared by every module's tests (common's test jar). */
public final class TestPorts {
    private TestPorts() {
    }

    /** The lowest port the kernel hands out itself (ip_local_port_range), read once. */
    static final int EPHEMERAL_LOW = ephemeralLow();
    /** The lowest port chosen: clear of the well-known and commonly configured ones. */
    static final int LOW = 10000;
    /** Ports handed out by {@link #freePort} in this JVM: never twice, even once free again. */
    private static final Set<Integer> HANDED_OUT = ConcurrentHashMap.newKeySet();

    private static int ephemeralLow() {
        try { // line by line: a /proc file reports size 0, and Files.readString then returns its first byte alone
            int first = Integer.parseInt(Files.readAllLines(Path.of("/proc/sys/net/ipv4/ip_local_port_range")).get(0).trim().split("\\s+")[0]);
            if (first > LOW + 2000) {
                return first;
            }
        } catch (IOException | RuntimeException e) {
            // not Linux: the usual default
        }
        return 32768; // or a range that leaves no room below it
    }

    /**
     * A loopback port free now, for a server the test starts later, below the kernel's ephemeral range and never
     * handed out before in this JVM. Between this call and the server's bind, the kernel gives ephemeral ports to
     * outgoing connections and to binds to port 0 (in CI a standalone's pool took the port chosen for its door that
     * way), and a server stopped and started again needs its port back.
     */
    public static int freePort() {
        ThreadLocalRandom random = ThreadLocalRandom.current();
        for (int attempt = 0; attempt < 1000; attempt++) {
            int port = random.nextInt(LOW, EPHEMERAL_LOW);
            if (HANDED_OUT.contains(port)) {
                continue;
            }
            try (ServerSocket s = new ServerSocket()) {
                s.bind(new InetSocketAddress("127.0.0.1", port));
            } catch (IOException taken) {
                continue;
            }
            if (HANDED_OUT.add(port)) {
                return port;
            }
        }
        throw new IllegalStateException("no free port between " + LOW + " and " + EPHEMERAL_LOW);
    }
}
