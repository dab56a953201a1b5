package org.gridcache.zk.props;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.apache.curator.framework.CuratorFramework;
import org.gridcache.zk.layout.ZkLayout;
import org.gridcache.zk.ZooKeeperServer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** Dead properties through a real embedded ZooKeeper, as two doors see them. */
class DeadPropertyStoreTest {
    private static final Duration WAIT = Duration.ofSeconds(10);
    private static final DeadProperty COLOUR = new DeadProperty("http://example.com/", "colour", "<colour xmlns=\"http://example.com/\">red</colour>");
    private static final String COPIER = "/CN=copier";
    private static final DeadProperty BARE = new DeadProperty("", "bare", "<bare xmlns=\"\">x</bare>");
    @RegisterExtension
    final ZooKeeperServer zooKeeper = new ZooKeeperServer();

    @Test
    void aWriteIsSeenAtOnceByItsDoorAndSoonByTheOther() throws Exception {
        CuratorFramework client = zooKeeper.client();
        try (DeadPropertyStore a = new DeadPropertyStore(client).start(WAIT); DeadPropertyStore b = new DeadPropertyStore(client).start(WAIT)) {
            a.update("/data/f", props -> List.of(COLOUR, BARE));
            assertEquals(List.of(COLOUR, BARE), a.of("/data/f"), "read your writes, without waiting");
            await().atMost(WAIT).until(() -> b.of("/data/f").equals(List.of(COLOUR, BARE)));
            b.update("/data/f", props -> props.stream().filter(p -> !p.named("", "bare")).toList());
            assertEquals(List.of(COLOUR), b.of("/data/f"));
            b.update("/data/f", props -> List.of());
            assertEquals(List.of(), b.of("/data/f"));
            assertNull(client.checkExists().forPath(ZkLayout.props(DeadPropertyStore.hash("/data/f"))), "no empty znode left");
        }
    }

    @Test
    void moveCopyAndDeleteTakeTheMembersOfACollectionAlong() throws Exception {
        try (DeadPropertyStore store = new DeadPropertyStore(zooKeeper.client()).start(WAIT)) {
            store.update("/d", p -> List.of(COLOUR));
            store.update("/d/f", p -> List.of(BARE));
            store.update("/dx", p -> List.of(BARE)); // a sibling whose name starts alike is not a member
            store.update("/e/old", p -> List.of(COLOUR));
            store.copy("/d", "/e", true, COPIER);
            assertEquals(List.of(COLOUR.setBy(COPIER)), store.of("/e"), "charged to who copied them");
            assertEquals(List.of(BARE.setBy(COPIER)), store.of("/e/f"));
            assertEquals(List.of(), store.of("/e/old"), "the copy replaced the destination and its members");
            store.copy("/d", "/z", false, COPIER);
            assertEquals(List.of(COLOUR.setBy(COPIER)), store.of("/z"));
            assertEquals(List.of(), store.of("/z/f"), "depth 0: the collection alone");
            store.move("/d", "/m", COPIER);
            assertEquals(List.of(), store.of("/d"));
            assertEquals(List.of(), store.of("/d/f"));
            assertEquals(List.of(BARE.setBy(COPIER)), store.of("/m/f"));
            assertEquals(List.of(BARE), store.of("/dx"));
            store.delete("/m");
            assertEquals(List.of(), store.of("/m/f"));
        }
    }

    @Test
    void propertiesBeyondTheLimitsAreRefusedAndNothingIsWritten() throws Exception {
        try (DeadPropertyStore store = new DeadPropertyStore(zooKeeper.client()).start(WAIT)) {
            DeadProperty big = new DeadProperty("", "big", "<big xmlns=\"\">" + "x".repeat(DeadPropertyStore.MAX_PROPERTY) + "</big>");
            assertThrows(PropertyLimitException.class, () -> store.update("/f", p -> List.of(COLOUR, big)));
            assertEquals(List.of(), store.of("/f"));
            List<DeadProperty> many = new ArrayList<>();
            for (int i = 0; i < 20; i++) {
                many.add(new DeadProperty("", "p" + i, "<p xmlns=\"\">" + "y".repeat(DeadPropertyStore.MAX_PROPERTY - 100) + "</p>"));
            }
            assertThrows(PropertyLimitException.class, () -> store.update("/f", p -> many), "64 Ki characters per resource");
            assertEquals(List.of(), store.of("/f"));
        }
    }

    @Test
    void theClusterWideBoundRefusesNewPropertiesButLetsAResourceShrink() throws Exception {
        long size = new StoredProperties("/a", 1, List.of(COLOUR)).size();
        try (DeadPropertyStore store = new DeadPropertyStore(zooKeeper.client(), 2 * size).start(WAIT)) {
            store.update("/a", p -> List.of(COLOUR));
            store.update("/b", p -> List.of(COLOUR));
            assertThrows(PropertyLimitException.class, () -> store.update("/c", p -> List.of(COLOUR)));
            assertEquals(List.of(), store.of("/c"));
            store.update("/a", p -> List.of());
            store.update("/c", p -> List.of(COLOUR));
            assertEquals(List.of(COLOUR), store.of("/c"), "room again once another resource gave its properties up");
        }
    }

    @Test
    void oneSubjectCannotTakeTheClusterBudgetOfEveryone() throws Exception {
        DeadProperty mallory = COLOUR.setBy("/CN=Mallory");
        long size = mallory.size();
        try (DeadPropertyStore store = new DeadPropertyStore(zooKeeper.client(), 100 * size, 2 * size).start(WAIT)) {
            store.update("/a", p -> List.of(mallory));
            store.update("/b", p -> List.of(mallory));
            PropertyLimitException refused = assertThrows(PropertyLimitException.class, () -> store.update("/c", p -> List.of(mallory)));
            assertTrue(refused.getMessage().contains("/CN=Mallory's dead properties would take more than"), refused.getMessage());
            assertEquals(List.of(), store.of("/c"), "nothing written");
            assertThrows(PropertyLimitException.class, () -> store.copy("/a", "/d", false, "/CN=Mallory"), "a copy is charged too");
            store.update("/c", p -> List.of(COLOUR.setBy("/CN=Alice")));
            assertEquals(List.of(COLOUR.setBy("/CN=Alice")), store.of("/c"), "another subject still has room");
            store.update("/a", p -> List.of());
            store.update("/e", p -> List.of(mallory));
            assertEquals(List.of(mallory), store.of("/e"), "room again once the subject gave some up");
        }
    }

    @Test
    void aZnodeThatIsNotThePropertiesOfItsHashIsIgnored() throws Exception {
        CuratorFramework client = zooKeeper.client();
        try (DeadPropertyStore store = new DeadPropertyStore(client).start(WAIT)) {
            store.update("/good", p -> List.of(COLOUR));
            // a record claiming another path than its name says could hang properties on any resource
            client.create().forPath(ZkLayout.props(DeadPropertyStore.hash("/elsewhere")),
                    "{\"path\":\"/victim\",\"revision\":1,\"properties\":[]}".getBytes(StandardCharsets.UTF_8));
            store.update("/good", p -> List.of(BARE));
            assertEquals(List.of(), store.of("/victim"));
            assertEquals(List.of(BARE), store.of("/good"));
        }
    }
}
