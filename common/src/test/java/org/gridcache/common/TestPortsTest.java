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
    void theEphemeralRangeIsTheKernelsWholeNumberNotItsFirstDigit() throws Exception {
        String range = Files.readAllLines(Path.of("/proc/sys/net/ipv4/ip_local_port_range")).get(0);
        int low = Integer.parseInt(range.trim().split("\\s+")[0]);
        assertEquals(low > TestPorts.LOW + 2000 ? low : 32768, TestPorts.EPHEMERAL_LOW, range);
    }

    @Test
    void portsAreBindableBelowTheEphemeralRangeAndNeverHandedOutTwice() throws Exception {
        Set<Integer> seen = new HashSet<>();
        for (int i = 0; i < 200; i++) {
            int port = TestPorts.freePort();
            assertTrue(port >= TestPorts.LOW && port < TestPorts.EPHEMERAL_LOW, "below the ephemeral range: " + port);
            seen.add(port);
        }
        assertEquals(200, seen.size(), "never the same port twice");
        try (ServerSocket s = new ServerSocket()) {
            s.bind(new InetSocketAddress("127.0.0.1", TestPorts.freePort()));
        }
    }
}
