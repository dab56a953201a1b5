package org.gridcache.cli;

import java.net.InetAddress;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.Callable;
import eu.emi.security.authn.x509.X509Credential;
import org.gridcache.common.security.GridTrust;
import org.gridcache.common.security.X509Authenticator;
import org.gridcache.door.DoorSecurity;
import org.gridcache.pool.http.PoolSecurity;
import org.apache.curator.framework.CuratorFramework;
import org.apache.zookeeper.KeeperException;
import org.gridcache.common.ByteSize;
import org.gridcache.common.origin.CredentialMode;
import org.gridcache.common.origin.FileOriginRoots;
import org.gridcache.common.origin.OriginEntry;
import org.gridcache.common.ticket.TicketSigningKey;
import org.gridcache.door.Door;
import org.gridcache.door.DoorSettings;
import org.gridcache.pool.Pool;
import org.gridcache.pool.PoolSettings;
import org.gridcache.zk.EmbeddedZooKeeper;
import org.gridcache.zk.MountTable;
import org.gridcache.zk.Zk;
import org.gridcache.zk.security.StandaloneTree;
import org.gridcache.zk.security.ZkDigestSecret;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** Embedded ZooKeeper, one door and one pool in one JVM: the one-host mode for demos and newcomers. */
@Command(name = "standalone", mixinStandardHelpOptions = true,
        description = "Run an embedded ZooKeeper, a door and a pool in one process: plain HTTP with anonymous reads, "
                + "or HTTPS with grid security when given --host-cert/--host-key/--ca-dir.")
final class StandaloneCommand implements Callable<Integer> {
    static final String DEFAULT_HOME = "gridcache-home";
    /** Not a constant: the command line is built, and a bad configuration refused, before the log is set up (LogSetup). */
    private static Logger log() {
        return LoggerFactory.getLogger(StandaloneCommand.class);
    }
    private static final Duration ZK_WAIT = Duration.ofSeconds(20);

    @Mixin
    CommonOptions common;
    @Mixin
    JmxOptions jmx;

    @Option(names = "--home", paramLabel = "DIR", defaultValue = DEFAULT_HOME,
            description = "Holds ZooKeeper data (mode 0700), the pool store, the ticket keys and ZooKeeper's secret (keys/, mode 0600) "
                    + "and logs (default: ${DEFAULT-VALUE}). Admin commands run with the same --home (or from the directory holding "
                    + "the default one) present the secret.")
    Path home;

    @Option(names = "--origin", paramLabel = "URL|DIR",
            description = "http(s):// URL of a WebDAV server, or a local directory, mounted at /. "
                    + "Default: a demo directory <home>/demo-origin created with a few files. A local directory is the "
                    + "directory the door and pool read file:// origins from, with those of --file-origin-root.")
    String origin;

    @Option(names = "--file-origin-root", paramLabel = "DIR", split = ",",
            description = "Another directory file:// origins added with `gridcache origins add` may lie in (repeatable), "
                    + "besides a local --origin.")
    List<Path> fileOriginRoots = new ArrayList<>();

    @Option(names = "--port", defaultValue = "2880", description = "Door port on 127.0.0.1 (default: ${DEFAULT-VALUE}).")
    int port;

    @Option(names = "--zk-port", defaultValue = "2181", description = "Embedded ZooKeeper port on 127.0.0.1 (default: ${DEFAULT-VALUE}).")
    int zkPort;

    @Option(names = "--pool-port", defaultValue = "0", description = "Pool port on 127.0.0.1; 0 picks a free one (default: ${DEFAULT-VALUE}).")
    int poolPort;

    @Option(names = "--capacity", paramLabel = "SIZE", defaultValue = "10G", description = "Pool store capacity (default: ${DEFAULT-VALUE}).")
    String capacity;

    @Mixin
    SecurityOptions security;

    @Option(names = "--authz", paramLabel = "FILE", description = "Authorization policy of the door (reloaded on change).")
    Path authz;

    @Option(names = "--token-issuers", paramLabel = "FILE",
            description = "JSON list of the bearer-token issuers whose WLCG/SciTokens JWTs the door accepts (reloaded on change; HTTPS only).")
    Path tokenIssuers;

    @Override
    public Integer call() throws Exception {
        Files.createDirectories(home);
        String originUrl = originUrl();
        Lifecycle life = new Lifecycle();
        try {
            life.add(jmx.start());
            EmbeddedZooKeeper zk = life.add(PortInUse.listening("ZooKeeper", "--zk-port", "127.0.0.1", zkPort,
                    () -> EmbeddedZooKeeper.start(home.resolve("zookeeper"), "127.0.0.1", zkPort)));
            // every local user reaches 127.0.0.1: only holders of the home's secret (door, pool, admin commands) get in
            ZkDigestSecret secret = ZkDigestSecret.loadOrCreate(ZkDigestSecret.file(home));
            CuratorFramework client = life.add(Zk.connect(zk.connectString(), Zk.DEFAULT_SESSION_TIMEOUT, ZK_WAIT, secret));
            closeZooKeeper(client, secret, zk.dataWasReachable());
            boolean tls = security.anyGiven() && !security.plainHttp;
            MountTable.put(client, OriginEntry.of("default", "/", originUrl,
                    tls && originUrl.startsWith("https://") ? CredentialMode.USER.id() : CredentialMode.NONE.id()));
            // each node its own key: the pool must never hold the key that signs the door's tickets
            TicketSigningKey doorKey = TicketSigningKey.loadOrCreate(home.resolve("keys").resolve("door.jwk"));
            TicketSigningKey poolKey = TicketSigningKey.loadOrCreate(home.resolve("keys").resolve("pool1.jwk"));
            PoolSecurity poolSecurity = PoolSecurity.PLAIN;
            DoorSecurity doorSecurity = tls ? null : DoorSecurity.plain(authz).withTokenIssuers(tokenIssuers);
            if (tls) {
                // one host credential for both: the door admits its own pool by that DN
                X509Credential host = security.hostCredential();
                GridTrust trust = life.add(security.trust());
                poolSecurity = new PoolSecurity(host, trust);
                doorSecurity = new DoorSecurity(host, trust, authz, home.resolve("delegations"),
                        Set.of(X509Authenticator.slashDn(host.getCertificate().getSubjectX500Principal())), null)
                        .withTokenIssuers(tokenIssuers);
            }
            // a local origin is a directory its door and pool may read file:// origins from, and only it unless told
            List<Path> allowed = new ArrayList<>(fileOriginRoots);
            if (originUrl.startsWith("file:")) {
                allowed.add(Path.of(URI.create(originUrl)));
            }
            FileOriginRoots fileRoots = FileOriginRoots.of(allowed);
            PoolSettings poolSettings = new PoolSettings("pool1", "127.0.0.1", poolPort, null,
                    home.resolve("pool"), ByteSize.parse(capacity), "local", poolKey, null, null, poolSecurity)
                    .withFileOriginRoots(fileRoots);
            Pool pool = life.add(PortInUse.listening("the pool", "--pool-port", "127.0.0.1", poolPort,
                    () -> Pool.start(poolSettings, client)));
            DoorSettings doorSettings = new DoorSettings("door-" + InetAddress.getLocalHost().getHostName(),
                    "127.0.0.1", port, null, List.of(doorKey), doorSecurity, fileRoots);
            Door door = life.add(PortInUse.listening("the door", "--port", "127.0.0.1", port, () -> Door.start(doorSettings, client)));
            log().info("gridcache standalone: door {} pool {} origin {} zookeeper {}", door.url(), pool.url(), originUrl,
                    zk.connectString());
            System.out.println("gridcache standalone is up: browse " + door.url() + "/ (origin " + originUrl + ")");
        } catch (Exception e) {
            life.closeAll();
            throw e;
        }
        life.runUntilStopped();
        return 0;
    }

    private void closeZooKeeper(CuratorFramework client, ZkDigestSecret secret, boolean dataWasReachable) throws Exception {
        try {
            StandaloneTree.ensure(client, secret, dataWasReachable);
        } catch (KeeperException.NoAuthException e) {
            throw new IllegalStateException("the ZooKeeper data in " + home.resolve("zookeeper") + " is locked with another secret than "
                    + ZkDigestSecret.file(home) + " (was it replaced?): restore that file, or remove " + home.resolve("zookeeper")
                    + " to start with an empty mount table");
        }
    }

    private String originUrl() throws java.io.IOException {
        if (origin == null) {
            return DemoOrigin.create(home.resolve("demo-origin")).toUri().toString();
        }
        if (origin.startsWith("http://") || origin.startsWith("https://")) {
            return origin;
        }
        Path dir = Path.of(origin).toAbsolutePath().normalize();
        if (!Files.isDirectory(dir)) {
            throw new IllegalArgumentException("--origin " + origin + " is neither an http(s):// URL nor a directory");
        }
        return dir.toUri().toString();
    }
}
