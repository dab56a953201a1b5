package org.gridcache.cli;

import java.io.IOException;
import java.net.InetAddress;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.Callable;
import org.apache.curator.framework.CuratorFramework;
import org.gridcache.common.origin.FileOriginRoots;
import org.gridcache.common.ticket.TicketSigningKey;
import org.gridcache.common.security.GridTrust;
import org.gridcache.door.Door;
import org.gridcache.door.DoorSecurity;
import org.gridcache.door.DoorSettings;
import org.gridcache.zk.security.ZkClientTls;
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

    @Option(names = "--token-issuers", paramLabel = "FILE",
            description = "JSON list of the bearer-token issuers whose WLCG/SciTokens JWTs the door accepts (reloaded on change; HTTPS only).")
    Path tokenIssuers;

    @Option(names = "--pool-identity", paramLabel = "DN",
            description = "Host DN of a pool that may obtain delegated credentials from this door (repeat for each pool).")
    List<String> poolIdentities = new ArrayList<>();

    @Option(names = "--delegation-dir", paramLabel = "DIR",
            description = "Keep delegated credentials in this directory (files of mode 0600) across restarts. Default: memory only.")
    Path delegationDir;

    @Option(names = "--previous-signing-key", paramLabel = "FILE",
            description = "During a ticket key roll-over: the key this door signed with before. It is still published, so "
                    + "that tickets it signed stay valid until they expire; drop the option after ticket.lifetime.")
    Path previousSigningKey;

    @Override
    public Integer call() throws Exception {
        FileOriginRoots fileRoots = node.fileOriginRoots(); // a typo stops the node before it joins the cluster
        Lifecycle life = new Lifecycle();
        try {
            life.add(jmx.start());
            CuratorFramework client = life.add(zk.open(zkTls(life)));
            String doorId = id != null ? id : "door-" + InetAddress.getLocalHost().getHostName() + "-" + port;
            List<TicketSigningKey> keys = new ArrayList<>(List.of(node.loadSigningKey("door-" + doorId)));
            if (previousSigningKey != null) {
                keys.add(TicketSigningKey.load(previousSigningKey));
            }
            DoorSecurity secured = doorSecurity(life);
            Door door = life.add(PortInUse.listening("the door", "--port", node.bind, port, () -> Door.start(
                    new DoorSettings(doorId, node.bind, port, node.publicUrl, keys, secured, fileRoots), client)));
            System.out.println("gridcache door " + doorId + " is up on " + door.url());
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

    private DoorSecurity doorSecurity(Lifecycle life) throws IOException {
        if (security.plainHttp) {
            return DoorSecurity.plain(authz).withTokenIssuers(tokenIssuers);
        }
        GridTrust trust = life.add(security.trust());
        return new DoorSecurity(security.hostCredential(), trust, authz, delegationDir, Set.copyOf(poolIdentities), null)
                .withTokenIssuers(tokenIssuers);
    }
}
