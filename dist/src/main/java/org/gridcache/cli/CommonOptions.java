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
}
