package org.gridcache.zk;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.curator.framework.CuratorFramework;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** Two doors' notices through a real embedded ZooKeeper. */
class WriteNoticesTest {
    private static final Duration WAIT = Duration.ofSeconds(10);
    @RegisterExtension
    final ZooKeeperServer zooKeeper = new ZooKeeperServer();

    @Test
    void aDoorHearsTheOtherDoorsWritesNotItsOwn() throws Exception {
        CuratorFramework client = zooKeeper.client();
        List<String> heardByA = new CopyOnWriteArrayList<>();
        List<String> heardByB = new CopyOnWriteArrayList<>();
        AtomicInteger allB = new AtomicInteger();
        try (WriteNotices a = new WriteNotices(client, "a", heardByA::add, () -> { }).start(WAIT);
             WriteNotices b = new WriteNotices(client, "b", heardByB::add, allB::incrementAndGet).start(WAIT)) {
            a.wrote(List.of("/data/x", "/data/y"));
            await().atMost(WAIT).until(() -> heardByB.containsAll(List.of("/data/x", "/data/y")));
            a.wrote(List.of("/data/z"));
            await().atMost(WAIT).until(() -> heardByB.contains("/data/z"));
            assertEquals(List.of("/data/x", "/data/y", "/data/z"), heardByB, "each once, in order");
            assertEquals(List.of(), heardByA, "a door is not told its own writes");
            assertEquals(0, allB.get());
        }
    }

    @Test
    void moreWritesThanTheWindowHoldsBetweenTwoNotificationsDropEverything() throws Exception {
        CuratorFramework client = zooKeeper.client();
        List<String> heard = new CopyOnWriteArrayList<>();
        AtomicInteger all = new AtomicInteger();
        try (WriteNotices a = new WriteNotices(client, "a", p -> { }, () -> { }).start(WAIT);
             WriteNotices b = new WriteNotices(client, "b", heard::add, all::incrementAndGet).start(WAIT)) {
            a.wrote(List.of("/first"));
            await().atMost(WAIT).until(() -> heard.contains("/first"));
            List<String> many = new ArrayList<>();
            for (int i = 0; i < WriteNotices.KEPT + 10; i++) {
                many.add("/many/" + i);
            }
            a.wrote(many); // one znode update: the first ten fell out of the window
            await().atMost(WAIT).until(() -> all.get() > 0);
            assertTrue(Set.of("/first").containsAll(heard), "no path told one by one: " + heard);
        }
    }
}
