package org.gridcache.cli;

import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import org.gridcache.zk.EmbeddedZooKeeper;
import org.gridcache.zk.QuorumMember;
import org.slf4j.LoggerFactory;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** One ZooKeeper server: alone (development), or one member of a real ensemble ({@code --ensemble}, {@code --id}). */
@Command(name = "zk", mixinStandardHelpOptions = true,
        description = "Run one ZooKeeper server: alone (development), or member --id of the ensemble --ensemble.")
final class ZkCommand implements Callable<Integer> {
    @Mixin
    CommonOptions common;
    @Mixin
    JmxOptions jmx;

    @Option(names = "--home", paramLabel = "DIR", defaultValue = StandaloneCommand.DEFAULT_HOME,
            description = "Data directory (ZooKeeper data under <home>/zookeeper; default: ${DEFAULT-VALUE}).")
    Path home;

    @Option(names = "--port", defaultValue = "2181", description = "Client port when alone (default: ${DEFAULT-VALUE}).")
    int port;

    @Option(names = "--bind", defaultValue = "127.0.0.1", description = "Address clients connect to (default: ${DEFAULT-VALUE}).")
    String bind;

    @Option(names = "--ensemble", paramLabel = "HOST:PORT:PEERPORT:ELECTIONPORT[,…]",
            description = "Every member of the ensemble (at least three), the same list on each; this server is member --id.")
    String ensemble;

    @Option(names = "--id", paramLabel = "N", description = "This server's place in --ensemble, from 1 (ZooKeeper's myid).")
    Integer id;

    @Override
    public Integer call() throws Exception {
        Lifecycle life = new Lifecycle();
        life.add(jmx.start());
        if (ensemble != null) {
            if (id == null) {
                throw new IllegalArgumentException("--ensemble needs --id N: which member this server is");
            }
            List<QuorumMember.Member> members = QuorumMember.Member.parseAll(ensemble);
            QuorumMember member = life.add(QuorumMember.start(home.resolve("zookeeper"), id, members, bind));
            System.out.println("gridcache zk member " + id + " of " + members.size() + " is up on " + bind + ":"
                    + members.get(id - 1).clientPort() + " (clients: --zk " + QuorumMember.connectString(members) + ")");
            LoggerFactory.getLogger(ZkCommand.class).info("ZooKeeper member {} state {}", id, member.state());
        } else {
            EmbeddedZooKeeper zk = life.add(EmbeddedZooKeeper.start(home.resolve("zookeeper"), bind, port));
            LoggerFactory.getLogger(ZkCommand.class).info("ZooKeeper serving on {}:{}", bind, zk.port());
            System.out.println("gridcache zk is up on " + bind + ":" + zk.port());
        }
        life.runUntilStopped();
        return 0;
    }
}
