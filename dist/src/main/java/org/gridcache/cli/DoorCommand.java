package org.gridcache.cli;

import java.net.InetAddress;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.Callable;
import org.apache.curator.framework.CuratorFramework;
import org.gridcache.door.Door;
import org.gridcache.door.DoorSecurity;
import org.gridcache.door.DoorSettings;
import org.gridcache.common.security.GridTrust;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** A WebDAV door as its own process. */
@Command(name = "door", mixinStandardHelpOptions = true,
        description = "Run a WebDAV door: HTTPS with X.509/VOMS authentication, an authorization policy and delegation (or --plain-http).")
final class DoorCommand implements Callable<Integer> {
    @Mixin
    CommonOptions common;
    @Mixin
    JmxOptions jmx;
    @Mixin
    ZkOptions zk;
    @Mixin
    NodeOptions node;

    @Option(names = "--port", defaultValue = "2880", description = "Port (default: ${DEFAULT-VALUE}).")
    int port;

    @Option(names = "--id", description = "Door id in ZooKeeper (default: door-<hostname>-<port>).")
    String id;

    @Mixin
    SecurityOptions security;

    @Option(names = "--authz", paramLabel = "FILE",
            description = "Authorization policy (reloaded on change). Default: HTTPS: authenticated users list and read; plain HTTP: everyone.")
    Path authz;

    @Option(names = "--pool-identity", paramLabel = "DN",
            description = "Host DN of a pool that may obtain delegated credentials from this door (repeat for each pool).")
    List<String> poolIdentities = new ArrayList<>();

    @Option(names = "--delegation-dir", paramLabel = "DIR",
            description = "Keep delegated credentials in this directory (files of mode 0600) across restarts. Default: memory only.")
    Path delegationDir;

    @Override
    public Integer call() throws Exception {
        Lifecycle life = new Lifecycle();
        try {
            life.add(jmx.start());
            CuratorFramework client = life.add(zk.open());
            String doorId = id != null ? id : "door-" + InetAddress.getLocalHost().getHostName() + "-" + port;
            Door door = life.add(Door.start(new DoorSettings(doorId, node.bind, port, node.publicUrl, node.loadTicketKey(),
                    doorSecurity(life)), client));
            System.out.println("gridcache door " + doorId + " is up on " + door.url());
        } catch (Exception e) {
            life.closeAll();
            throw e;
        }
        life.runUntilStopped();
        return 0;
    }

    private DoorSecurity doorSecurity(Lifecycle life) throws java.io.IOException {
        if (security.plainHttp) {
            return DoorSecurity.plain(authz);
        }
        GridTrust trust = life.add(security.trust());
        return new DoorSecurity(security.hostCredential(), trust, authz, delegationDir, Set.copyOf(poolIdentities), null);
    }
}
