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

    /** Ports handed out by {@link #freePort} in this JVM: never twice, even once free again. */
    private static final Set<Integer> HANDED_OUT = ConcurrentHashMap.newKeySet();

    /**
     * A loopback port free now, for a server the test starts later, below the kernel's ephemeral range
     * (ip_local_port_range) and never handed out before in this JVM. Between this call and the server's bind, the
     * kernel gives ephemeral ports to outgoing connections and to binds to port 0 (in CI a standalone's pool took the
     * port chosen for its door that way), and a server stopped and started again needs its port back.
     */
    public static int freePort() {
        int ephemeralLow = 32768; // not Linux, or a range not understood: the usual default
        try { // line by line: a /proc file reports size 0, and Files.readString then returns its first byte alone
            int first = Integer.parseInt(Files.readAllLines(Path.of("/proc/sys/net/ipv4/ip_local_port_range")).get(0).trim().split("\\s+")[0]);
            if (first > 12000) {
                ephemeralLow = first;
            }
        } catch (IOException | RuntimeException e) {
            // keep the default
        }
        int low = 10000;
        ThreadLocalRandom random = ThreadLocalRandom.current();
        for (int attempt = 0; attempt < 1000; attempt++) {
            int port = random.nextInt(low, ephemeralLow);
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
        throw new IllegalStateException("no free port between " + low + " and " + ephemeralLow);
    }
}
