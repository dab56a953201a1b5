package org.gridcache.zk;

import java.io.Closeable;
import java.time.Duration;
import java.util.Arrays;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.recipes.nodes.PersistentNode;
import org.apache.zookeeper.CreateMode;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * An ephemeral znode that says "this node is alive" ({@code /pools/<id>}, {@code /doors/<id>}), with its JSON
 * record refreshed every {@code period} and on demand. Curator's {@link PersistentNode} re-creates it after a
 * connection loss or session expiry, so a pool whose session expired re-registers by itself; it vanishes when the
 * process dies.
 */
public final class EphemeralRegistration implements Closeable {
    private static final Logger LOG = LoggerFactory.getLogger(EphemeralRegistration.class);
    private final PersistentNode node;
    private final Supplier<byte[]> record;
    private final ScheduledExecutorService refresher;
    private final String path;
    private volatile byte[] published;

    public EphemeralRegistration(CuratorFramework client, String path, Supplier<byte[]> record, Duration period) {
        this.path = path;
        this.record = record;
        this.published = record.get();
        this.node = new PersistentNode(client, CreateMode.EPHEMERAL, false, path, published);
        this.refresher = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "zk-registration");
            t.setDaemon(true);
            return t;
        });
        // one line per creation: after an outage that expired the session, the operator sees the node registered again
        node.getListenable().addListener(created -> LOG.info("registered {} in ZooKeeper", created));
        node.start();
        refresher.scheduleWithFixedDelay(this::publishNow, period.toMillis(), period.toMillis(), TimeUnit.MILLISECONDS);
    }

    /** Waits until the node exists (first creation), or throws after {@code timeout}. */
    public void awaitCreated(Duration timeout) throws InterruptedException {
        if (!node.waitForInitialCreate(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
            throw new IllegalStateException("could not create " + path + " in ZooKeeper within " + timeout.toSeconds() + " s");
        }
    }

    /** Publishes the current record now if it changed (called on large load changes, too). */
    public synchronized void publishNow() {
        try {
            byte[] next = record.get();
            if (!Arrays.equals(next, published)) {
                node.setData(next);
                published = next;
            }
        } catch (Exception e) {
            // the node is re-created with the latest data once the connection is back; nothing else to do
            LOG.debug("cannot publish {} now: {}", path, e.toString());
        }
    }

    @Override
    public void close() {
        refresher.shutdownNow();
        try {
            node.close();
        } catch (Exception e) {
            LOG.warn("cannot remove {}: {}", path, e.toString());
        }
    }
}
