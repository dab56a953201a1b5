package org.gridcache.cli;

import java.io.IOException;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import org.apache.curator.framework.CuratorFramework;
import org.gridcache.common.origin.FileOriginRoots;
import org.gridcache.common.ByteSize;
import org.gridcache.common.settings.SettingTypes;
import org.gridcache.common.ticket.TicketKeys;
import org.gridcache.pool.Pool;
import org.gridcache.pool.http.PoolSecurity;
import org.gridcache.pool.PoolSettings;
import org.gridcache.pool.store.StoreMode;
import org.gridcache.zk.security.ZkClientTls;
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

    @Option(names = "--store-group-readable",
            description = "Stored files 0640 and directories 0750 (the pool's group may read, e.g. for backups). Default: 0600 and 0700.")
    boolean storeGroupReadable;

    @Option(names = "--max-ticket-lifetime", paramLabel = "DURATION", defaultValue = "10m",
            description = "Refuse tickets that live longer than this, whatever the doors are configured with (default: ${DEFAULT-VALUE}).")
    String maxTicketLifetime;

    @Option(names = "--door-keys", paramLabel = "FILE",
            description = "Doors' public ticket keys from a file, besides those the doors publish in ZooKeeper: a JSON object "
                    + "of door id to a list of public JWKs (the ticketKeys of /doors/<id>). Read at start.")
    Path doorKeys;

    @Override
    public Integer call() throws Exception {
        if (!name.matches("[A-Za-z0-9._-]+")) {
            throw new IllegalArgumentException("--name may hold only letters, digits, '.', '_' and '-'");
        }
        FileOriginRoots fileRoots = node.fileOriginRoots(); // a typo stops the node before it joins the cluster
        Lifecycle life = new Lifecycle();
        try {
            life.add(jmx.start());
            CuratorFramework client = life.add(zk.open(zkTls(life)));
            PoolSettings settings = new PoolSettings(name, node.bind, port, node.publicUrl, store,
                    ByteSize.parse(capacity), site, node.loadSigningKey("pool-" + name),
                    SettingTypes.POSITIVE_DURATION.parse(maxTicketLifetime), doorKeys == null ? null : TicketKeys.fromFile(doorKeys), poolSecurity(life),
                    storeGroupReadable ? StoreMode.GROUP_READABLE : StoreMode.PRIVATE, fileRoots);
            Pool pool = life.add(PortInUse.listening("the pool", "--port", node.bind, port, () -> Pool.start(settings, client)));
            System.out.println("gridcache pool " + name + " is up on " + pool.url());
        } catch (Exception e) {
            life.closeAll();
            throw e;
        }
        life.runUntilStopped();
        return 0;
    }

    private ZkClientTls zkTls(Lifecycle life) throws IOException {
        ZkClientTls tls = zk.tls(security::zkTls);
        return tls == null ? null : life.add(tls);
    }

    private PoolSecurity poolSecurity(Lifecycle life) throws IOException {
        if (security.plainHttp) {
            return PoolSecurity.PLAIN;
        }
        return new PoolSecurity(security.hostCredential(), life.add(security.trust()));
    }
}
