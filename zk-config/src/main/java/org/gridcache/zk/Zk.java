package org.gridcache.zk;

import org.gridcache.zk.layout.ZkLayout;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.RetryUntilElapsed;
import org.apache.zookeeper.KeeperException;
import org.gridcache.zk.security.ZkClientCredential;

/**
 * Opens the Curator client every gridcache node uses: one namespace (the chroot), retries bounded in time. A request
 * that needs ZooKeeper (a lock, a property, a write's lock check) runs on a client's thread: while the ensemble is
 * unreachable it must fail within seconds, as a 503 the client may retry, not hang for Curator's default of ten
 * retries of a connection timeout each. The watched views and the registrations work in the background and are
 * redone by their recipes on reconnection, so bounding retries costs them nothing.
 */
public final class Zk {
    public static final Duration DEFAULT_SESSION_TIMEOUT = Duration.ofSeconds(15);
    /** How long one operation waits for a lost connection to come back before it fails. */
    static final Duration OPERATION_WAIT = Duration.ofSeconds(3);
    /** How long an operation is retried (every {@link #RETRY_EVERY}) after a connection loss, all attempts together. */
    static final Duration RETRY_FOR = Duration.ofSeconds(6);
    static final Duration RETRY_EVERY = Duration.ofMillis(500);

    private Zk() {
    }

    /** Connects or throws {@link ZkUnavailableException} naming the ensemble, after {@code connectWait}. */
    public static CuratorFramework connect(String connectString, Duration sessionTimeout, Duration connectWait)
            throws ZkUnavailableException {
        return connect(connectString, sessionTimeout, connectWait, null);
    }

    /**
     * As {@link #connect(String, Duration, Duration)}; with {@code credential} (null: none, an open ZooKeeper), proving
     * itself with it: over TLS presenting a certificate ({@link org.gridcache.zk.security.ZkClientTls}, and whatever
     * this client creates gets the ACLs of {@link org.gridcache.zk.security.ZkAcls}), or with a standalone's secret
     * ({@link org.gridcache.zk.security.ZkDigestSecret}, whose ACL it gives whatever it creates).
     */
    public static CuratorFramework connect(String connectString, Duration sessionTimeout, Duration connectWait,
            ZkClientCredential credential) throws ZkUnavailableException {
        CuratorFrameworkFactory.Builder builder = CuratorFrameworkFactory.builder();
        if (credential != null) {
            credential.configure(builder);
        }
        CuratorFramework client = builder
                .connectString(connectString)
                .namespace(ZkLayout.DEFAULT_NAMESPACE)
                .sessionTimeoutMs((int) sessionTimeout.toMillis())
                .connectionTimeoutMs((int) Math.min(connectWait.toMillis(), OPERATION_WAIT.toMillis()))
                .retryPolicy(new RetryUntilElapsed((int) RETRY_FOR.toMillis(), (int) RETRY_EVERY.toMillis()))
                .build();
        client.start();
        try {
            if (!client.blockUntilConnected((int) connectWait.toMillis(), TimeUnit.MILLISECONDS)) {
                client.close();
                throw new ZkUnavailableException("cannot reach ZooKeeper at " + connectString + (credential != null ? credential.describe() : "")
                        + " within " + connectWait.toSeconds() + " s");
            }
        } catch (InterruptedException e) {
            client.close();
            Thread.currentThread().interrupt();
            throw new ZkUnavailableException("interrupted while connecting to ZooKeeper at " + connectString);
        }
        return client;
    }

    /**
     * Fails at once, as Curator would after its retries, when {@code client} is not connected now: what a request
     * needs from ZooKeeper is refused while the ensemble is unreachable instead of waiting for it.
     */
    public static void requireConnected(CuratorFramework client) throws KeeperException.ConnectionLossException {
        if (!client.getZookeeperClient().isConnected()) {
            throw new KeeperException.ConnectionLossException();
        }
    }

    public static CuratorFramework connect(String connectString) throws ZkUnavailableException {
        return connect(connectString, DEFAULT_SESSION_TIMEOUT, Duration.ofSeconds(20));
    }

    /** ZooKeeper could not be reached; the message is meant for the operator. */
    public static final class ZkUnavailableException extends Exception {
        private static final long serialVersionUID = 1L;

        public ZkUnavailableException(String message) {
            super(message);
        }
    }
}
