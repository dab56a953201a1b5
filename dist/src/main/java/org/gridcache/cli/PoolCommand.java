package org.gridcache.cli;

import java.nio.file.Path;
import java.util.concurrent.Callable;
import org.apache.curator.framework.CuratorFramework;
import org.gridcache.common.ByteSize;
import org.gridcache.pool.Pool;
import org.gridcache.pool.PoolSecurity;
import org.gridcache.pool.PoolSettings;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** A cache pool as its own process. */
@Command(name = "pool", mixinStandardHelpOptions = true,
        description = "Run a cache pool: HTTPS with the host certificate, reading grid origins as the user (or --plain-http).")
final class PoolCommand implements Callable<Integer> {
    @Mixin
    CommonOptions common;
    @Mixin
    JmxOptions jmx;
    @Mixin
    ZkOptions zk;
    @Mixin
    NodeOptions node;

    @Option(names = "--name", required = true, description = "Pool name, unique in the cluster.")
    String name;

    @Option(names = "--store", required = true, paramLabel = "DIR", description = "Directory of the pool's disk store.")
    Path store;

    @Option(names = "--capacity", required = true, paramLabel = "SIZE", description = "Store capacity, e.g. 500G.")
    String capacity;

    @Option(names = "--port", defaultValue = "20000", description = "Port (default: ${DEFAULT-VALUE}).")
    int port;

    @Mixin
    SecurityOptions security;

    @Option(names = "--site", defaultValue = "default", description = "Site name published with the pool (default: ${DEFAULT-VALUE}).")
    String site;

    @Override
    public Integer call() throws Exception {
        if (!name.matches("[A-Za-z0-9._-]+")) {
            throw new IllegalArgumentException("--name may hold only letters, digits, '.', '_' and '-'");
        }
        Lifecycle life = new Lifecycle();
        try {
            life.add(jmx.start());
            CuratorFramework client = life.add(zk.open());
            Pool pool = life.add(Pool.start(new PoolSettings(name, node.bind, port, node.publicUrl, store,
                    ByteSize.parse(capacity), site, node.loadTicketKey(), poolSecurity(life)), client));
            System.out.println("gridcache pool " + name + " is up on " + pool.url());
        } catch (Exception e) {
            life.closeAll();
            throw e;
        }
        life.runUntilStopped();
        return 0;
    }

    private PoolSecurity poolSecurity(Lifecycle life) throws java.io.IOException {
        if (security.plainHttp) {
            return PoolSecurity.PLAIN;
        }
        return new PoolSecurity(security.hostCredential(), life.add(security.trust()));
    }
}
