package org.gridcache.zk;

import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.ExponentialBackoffRetry;
import org.gridcache.zk.security.ZkClientTls;

/** Opens the Curator client every gridcache node uses: one namespace (the chroot), bounded retries. */
public final class Zk {
    public static final Duration DEFAULT_SESSION_TIMEOUT = Duration.ofSeconds(15);

    private Zk() {
    }

    /** Connects or throws {@link ZkUnavailableException} naming the ensemble, after {@code connectWait}. */
    public static CuratorFramework connect(String connectString, Duration sessionTimeout, Duration connectWait)
            throws ZkUnavailableException {
        return connect(connectString, sessionTimeout, connectWait, null);
    }

    /**
     * As {@link #connect(String, Duration, Duration)}; with {@code tls} (null: plain), over TLS presenting that
     * credential, and whatever this client creates gets the ACLs of {@link org.gridcache.zk.security.ZkAcls}.
     */
    public static CuratorFramework connect(String connectString, Duration sessionTimeout, Duration connectWait, ZkClientTls tls)
            throws ZkUnavailableException {
        CuratorFrameworkFactory.Builder builder = CuratorFrameworkFactory.builder();
        if (tls != null) {
            builder.zkClientConfig(tls.clientConfig()).aclProvider(tls.acls());
        }
        CuratorFramework client = builder
                .connectString(connectString)
                .namespace(ZkLayout.DEFAULT_NAMESPACE)
                .sessionTimeoutMs((int) sessionTimeout.toMillis())
                .connectionTimeoutMs((int) Math.min(connectWait.toMillis(), 15_000))
                .retryPolicy(new ExponentialBackoffRetry(200, 10, 5_000))
                .build();
        client.start();
        try {
            if (!client.blockUntilConnected((int) connectWait.toMillis(), TimeUnit.MILLISECONDS)) {
                client.close();
                throw new ZkUnavailableException("cannot reach ZooKeeper at " + connectString + (tls != null ? " over TLS" : "")
                        + " within " + connectWait.toSeconds() + " s");
            }
        } catch (InterruptedException e) {
            client.close();
            Thread.currentThread().interrupt();
            throw new ZkUnavailableException("interrupted while connecting to ZooKeeper at " + connectString);
        }
        return client;
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
