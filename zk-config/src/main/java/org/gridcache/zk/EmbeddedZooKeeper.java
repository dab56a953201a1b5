package org.gridcache.zk;

import java.io.Closeable;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import org.apache.zookeeper.server.ServerCnxnFactory;
import org.apache.zookeeper.server.ZooKeeperServer;
import org.gridcache.zk.security.ZkServerTls;

/**
 * A real, single ZooKeeper server in this JVM (ZooKeeper's own {@link ZooKeeperServer} with its NIO connection
 * factory, data kept on disk under {@code dataDir}): the one-host mode of {@code gridcache standalone} and the
 * {@code gridcache zk} command. No admin HTTP server (it would drag in another Jetty).
 */
public final class EmbeddedZooKeeper implements Closeable {
    private static final int TICK_MS = 2000;
    private final ZooKeeperServer server;
    private final ServerCnxnFactory factory;
    private final boolean dataWasReachable;

    private EmbeddedZooKeeper(ZooKeeperServer server, ServerCnxnFactory factory, boolean dataWasReachable) {
        this.server = server;
        this.factory = factory;
        this.dataWasReachable = dataWasReachable;
    }

    public static EmbeddedZooKeeper start(Path dataDir, String host, int port) throws IOException {
        return start(dataDir, host, port, null);
    }

    /**
     * With {@code tls} (null: plain), clients are served over TLS only and authenticated by certificate
     * ({@link ZkServerTls}); there is no plain port. {@code dataDir} is made private first ({@link ZkDataDirectory}).
     */
    public static EmbeddedZooKeeper start(Path dataDir, String host, int port, ZkServerTls tls) throws IOException {
        boolean reachable = ZkDataDirectory.makePrivate(dataDir);
        ZooKeeperServer server = new ZooKeeperServer(dataDir.resolve("snapshots").toFile(),
                dataDir.resolve("log").toFile(), TICK_MS);
        ServerCnxnFactory factory;
        if (tls == null) {
            factory = ServerCnxnFactory.createFactory(new InetSocketAddress(host, port), 1000);
        } else {
            tls.install();
            factory = ServerCnxnFactory.createFactory();
            factory.configure(new InetSocketAddress(host, port), 1000, -1, true);
        }
        try {
            factory.startup(server);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            factory.shutdown();
            throw new IOException("interrupted while starting ZooKeeper", e);
        } catch (IOException e) {
            factory.shutdown();
            throw new IOException("cannot start ZooKeeper on " + host + ":" + port + ": " + e.getMessage(), e);
        }
        return new EmbeddedZooKeeper(server, factory, reachable);
    }

    /**
     * Whether other local users could reach the data directory before this start (an earlier version made it with the
     * umask): the secrets it holds, the macaroon root keys, may have been read and must be replaced.
     */
    public boolean dataWasReachable() {
        return dataWasReachable;
    }

    public int port() {
        return factory.getLocalPort();
    }

    public String connectString() {
        return "127.0.0.1:" + port();
    }

    /** Blocks until the server stops (for the {@code gridcache zk} command). */
    public void join() throws InterruptedException {
        factory.join();
    }

    @Override
    public void close() {
        factory.shutdown();
        if (server.isRunning()) {
            server.shutdown();
        }
    }
}
