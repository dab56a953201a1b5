package org.gridcache.zk;

import org.gridcache.zk.layout.ZkLayout;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.apache.curator.framework.CuratorFramework;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** Two doors' root keys through one real embedded ZooKeeper. */
class MacaroonSecretsTest {
    private static final Duration WAIT = Duration.ofSeconds(10);
    @RegisterExtension
    final ZooKeeperServer zooKeeper = new ZooKeeperServer();

    @Test
    void twoDoorsStartingAtOnceShareOneRandomKey() throws Exception {
        List<CuratorFramework> clients = List.of(Zk.connect(zooKeeper.connectString()), Zk.connect(zooKeeper.connectString()));
        ExecutorService both = Executors.newFixedThreadPool(2);
        try {
            List<Callable<MacaroonSecrets>> starts = new ArrayList<>();
            clients.forEach(c -> starts.add(() -> new MacaroonSecrets(c).start(WAIT)));
            List<Future<MacaroonSecrets>> started = both.invokeAll(starts);
            try (MacaroonSecrets a = started.get(0).get(); MacaroonSecrets b = started.get(1).get()) {
                assertEquals(a.current().id(), b.current().id());
                assertArrayEquals(a.current().secret(), b.current().secret());
                assertEquals(32, a.current().secret().length, "256 bits");
                assertArrayEquals(a.current().secret(), b.key(a.current().id()).orElseThrow().secret());
                assertTrue(b.key("no-such-key").isEmpty());
                assertFalse(a.current().toString().contains(Base64.getEncoder().encodeToString(a.current().secret())),
                        "a key's string names no secret");
            }
        } finally {
            both.shutdownNow();
            clients.forEach(CuratorFramework::close);
        }
    }

    @Test
    void aRotationByAnAdminIsSeenByEveryDoorAndTheOldKeyStillVerifies() throws Exception {
        CuratorFramework client = zooKeeper.client();
        try (MacaroonSecrets door = new MacaroonSecrets(client).start(WAIT)) {
            MacaroonSecrets.RootKey old = door.current();
            String oldKey = Base64.getEncoder().encodeToString(old.secret());
            String newKey = Base64.getEncoder().encodeToString(new byte[32]);
            client.setData().forPath(ZkLayout.MACAROON_SECRET, ("{\"current\":\"k2\",\"keys\":{\"" + old.id() + "\":\"" + oldKey
                    + "\",\"k2\":\"" + newKey + "\"}}").getBytes(StandardCharsets.UTF_8));
            await().atMost(WAIT).until(() -> door.current().id().equals("k2"));
            assertArrayEquals(old.secret(), door.key(old.id()).orElseThrow().secret());
            client.setData().forPath(ZkLayout.MACAROON_SECRET, "{\"current\":\"k3\",\"keys\":{}}".getBytes(StandardCharsets.UTF_8));
            client.setData().forPath(ZkLayout.MACAROON_SECRET, ("{\"current\":\"k4\",\"keys\":{\"k4\":\""
                    + Base64.getEncoder().encodeToString(new byte[8]) + "\"}}").getBytes(StandardCharsets.UTF_8));
            client.setData().forPath(ZkLayout.MACAROON_SECRET, ("{\"current\":\"k5\",\"keys\":{\"k5\":\"" + newKey + "\"}}")
                    .getBytes(StandardCharsets.UTF_8));
            await().atMost(WAIT).until(() -> door.current().id().equals("k5"));
            assertNotEquals(old.id(), door.current().id());
            assertTrue(door.key(old.id()).isEmpty(), "a key the admin removed verifies nothing");
        }
    }

    @Test
    void aZnodeWithoutAUsableKeyFailsTheStartLoudly() throws Exception {
        CuratorFramework client = zooKeeper.client();
        client.create().creatingParentsIfNeeded().forPath(ZkLayout.MACAROON_SECRET, "{\"current\":\"x\"}".getBytes(StandardCharsets.UTF_8));
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> new MacaroonSecrets(client).start(WAIT));
        assertTrue(e.getMessage().contains("no usable macaroon root key"), e.getMessage());
    }
}
