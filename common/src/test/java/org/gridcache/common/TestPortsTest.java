package org.gridcache.common;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.Test;

class TestPortsTest {
    @Test
    void portsAreBindableBelowTheEphemeralRangeAndNeverHandedOutTwice() throws Exception {
        int ephemeralLow = Integer.parseInt(Files.readAllLines(Path.of("/proc/sys/net/ipv4/ip_local_port_range")).get(0).trim().split("\\s+")[0]);
        Set<Integer> seen = new HashSet<>();
        for (int i = 0; i < 200; i++) {
            int port = TestPorts.freePort();
            assertTrue(port >= 10000 && port < Math.max(ephemeralLow, 32768), "below the ephemeral range: " + port);
            seen.add(port);
        }
        assertEquals(200, seen.size(), "never the same port twice");
        try (ServerSocket s = new ServerSocket()) {
            s.bind(new InetSocketAddress("127.0.0.1", TestPorts.freePort()));
        }
    }
}
