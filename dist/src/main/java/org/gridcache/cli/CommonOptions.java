package org.gridcache.cli;

import java.nio.file.Path;
import picocli.CommandLine.Option;

/** Options every command accepts. */
final class CommonOptions {
    @Option(names = "--config", paramLabel = "FILE",
            description = "Properties file: every option is also a key there (e.g. port=2880, or pool.port=20000).")
    Path config;

    @Option(names = "--log-dir", paramLabel = "DIR", description = "Where the log file goes (standalone, zk: <home>/logs; door, pool: <dist>/logs).")
    Path logDir;
}

/** The ZooKeeper ensemble to use. */
final class ZkOptions {
    @Option(names = "--zk", paramLabel = "HOST:PORT[,…]", defaultValue = "127.0.0.1:2181",
            description = "ZooKeeper connect string (default: ${DEFAULT-VALUE}).")
    String connect;

    @Option(names = "--zk-session-timeout", paramLabel = "DURATION", defaultValue = "15s",
            description = "ZooKeeper session timeout: how soon the cluster forgets this node after it dies (default: ${DEFAULT-VALUE}; "
                    + "the ensemble allows 2s-20s).")
    String sessionTimeout;

    org.apache.curator.framework.CuratorFramework open() throws org.gridcache.zk.Zk.ZkUnavailableException {
        return org.gridcache.zk.Zk.connect(connect, org.gridcache.common.ClusterSettings.parseDuration(sessionTimeout),
                java.time.Duration.ofSeconds(20));
    }
}
