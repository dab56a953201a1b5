package org.gridcache.zk;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;
import org.apache.curator.framework.CuratorFramework;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/** A real embedded ZooKeeper server and a Curator client to it, new for each test ({@code @RegisterExtension}). */
public final class ZooKeeperServer implements BeforeEachCallback, AfterEachCallback {
    private Path dir;
    private EmbeddedZooKeeper server;
    private CuratorFramework client;

    @Override
    public void beforeEach(ExtensionContext context) throws Exception {
        dir = Files.createTempDirectory("gridcache-zk-test");
        server = EmbeddedZooKeeper.start(dir, "127.0.0.1", 0);
        client = Zk.connect(server.connectString());
    }

    @Override
    public void afterEach(ExtensionContext context) throws Exception {
        client.close();
        if (server != null) {
            server.close();
        }
        try (Stream<Path> files = Files.walk(dir)) {
            files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        }
    }

    public CuratorFramework client() {
        return client;
    }

    /** Stops the server while the client stays open, as an ensemble's outage would look to a node. */
    public void stopServer() {
        server.close();
        server = null;
    }

    /** For a second client, as another node of the cluster would connect. */
    String connectString() {
        return server.connectString();
    }
}
