package org.gridcache.zk;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.gridcache.common.TestPorts;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * One member of a three-member ensemble whose other two never start: it serves its client port (with no quorum
 * yet), or, when that port is taken, says why instead of running on without it.
 */
@Timeout(value = 2, unit = TimeUnit.MINUTES)
class QuorumMemberTest {
    @TempDir
    Path home;

    private static List<QuorumMember.Member> ensemble() throws IOException {
        List<QuorumMember.Member> members = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            members.add(new QuorumMember.Member("127.0.0.1", TestPorts.freePort(), TestPorts.freePort(), TestPorts.freePort()));
        }
        return members;
    }

    @Test
    void aMemberIsRunningOnceItServesItsClientPortEvenBeforeAQuorum() throws Exception {
        List<QuorumMember.Member> members = ensemble();
        QuorumMember member = QuorumMember.start(home, 1, members, "127.0.0.1");
        try {
            member.awaitRunning(Duration.ofSeconds(60));
            try (Socket client = new Socket()) {
                client.connect(new InetSocketAddress("127.0.0.1", members.get(0).clientPort()), 5000);
            }
        } finally {
            member.close();
        }
        assertFalse(member.awaitUnexpectedStop(), "closed, not stopped of itself");
    }

    @Test
    void aMemberWhoseClientPortIsTakenFailsWithTheReason() throws Exception {
        List<QuorumMember.Member> members = ensemble();
        try (ServerSocket squatter = new ServerSocket()) {
            squatter.bind(new InetSocketAddress("127.0.0.1", members.get(1).clientPort()));
            QuorumMember member = QuorumMember.start(home, 2, members, "127.0.0.1");
            IOException e = assertThrows(IOException.class, () -> member.awaitRunning(Duration.ofSeconds(60)));
            assertTrue(e.getMessage().startsWith("ZooKeeper member 2 stopped: ") && e.getMessage().contains("Address already in use"),
                    e.getMessage());
            assertTrue(member.awaitUnexpectedStop(), "stopped of itself: the process should end");
        }
    }
}
