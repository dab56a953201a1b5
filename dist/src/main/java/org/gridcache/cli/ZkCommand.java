package org.gridcache.cli;

import java.nio.file.Path;
import java.util.concurrent.Callable;
import org.gridcache.zk.EmbeddedZooKeeper;
import org.slf4j.LoggerFactory;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** One ZooKeeper server for development clusters (production: a real ensemble). */
@Command(name = "zk", mixinStandardHelpOptions = true, description = "Run one ZooKeeper server (for development clusters).")
final class ZkCommand implements Callable<Integer> {
    @Mixin
    CommonOptions common;
    @Mixin
    JmxOptions jmx;

    @Option(names = "--home", paramLabel = "DIR", defaultValue = StandaloneCommand.DEFAULT_HOME,
            description = "Data directory (ZooKeeper data under <home>/zookeeper; default: ${DEFAULT-VALUE}).")
    Path home;

    @Option(names = "--port", defaultValue = "2181", description = "Client port (default: ${DEFAULT-VALUE}).")
    int port;

    @Option(names = "--bind", defaultValue = "127.0.0.1", description = "Address to listen on (default: ${DEFAULT-VALUE}).")
    String bind;

    @Override
    public Integer call() throws Exception {
        Lifecycle life = new Lifecycle();
        life.add(jmx.start());
        EmbeddedZooKeeper zk = life.add(EmbeddedZooKeeper.start(home.resolve("zookeeper"), bind, port));
        LoggerFactory.getLogger(ZkCommand.class).info("ZooKeeper serving on {}:{}", bind, zk.port());
        System.out.println("gridcache zk is up on " + bind + ":" + zk.port());
        life.runUntilStopped();
        return 0;
    }
}
