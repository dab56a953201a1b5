package org.gridcache.zk;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Duration;
import org.gridcache.zk.ZooKeeperConnection.State;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The connection state doors and pools export, through a real embedded ZooKeeper that stops. */
class ZooKeeperConnectionTest {
    private static final Duration WAIT = Duration.ofSeconds(30);
    @RegisterExtension
    final ZooKeeperServer zooKeeper = new ZooKeeperServer();

    @Test
    void connectedWhileTheServerRunsSuspendedOnceItStops() {
        try (ZooKeeperConnection connection = ZooKeeperConnection.watch(zooKeeper.client())) {
            assertEquals(State.CONNECTED, connection.state());
            assertEquals(1, connection.is(State.CONNECTED));
            assertEquals(0, connection.is(State.SUSPENDED));
            zooKeeper.stopServer();
            await().atMost(WAIT).until(() -> connection.state() != State.CONNECTED);
            assertEquals(0, connection.is(State.CONNECTED));
            assertEquals(1, connection.is(State.SUSPENDED) + connection.is(State.LOST), connection.state().toString());
        }
    }

    @Test
    void labelsAreTheGaugesTagValues() {
        assertEquals("read-only", State.READ_ONLY.label());
        assertEquals("suspended", State.SUSPENDED.label());
    }
}
