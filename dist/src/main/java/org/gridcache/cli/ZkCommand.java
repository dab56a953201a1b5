package org.gridcache.cli;

import java.net.InetAddress;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import org.apache.curator.framework.CuratorFramework;
import org.gridcache.common.security.GridCredentials;
import org.gridcache.common.security.GridTrust;
import org.gridcache.zk.EmbeddedZooKeeper;
import org.gridcache.zk.QuorumMember;
import org.gridcache.zk.Zk;
import org.gridcache.zk.security.SecuredTree;
import org.gridcache.zk.security.ZkClientTls;
import org.gridcache.zk.security.ZkServerTls;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * One ZooKeeper server: alone (development), or one member of a real ensemble ({@code --ensemble}, {@code --id}).
 * With {@code --host-cert/--host-key/--ca-dir/--admin} it is secured (ARCHITECTURE.md, "ZooKeeper layout"): clients
 * over TLS only, authenticated by certificate, ACLs on every znode, the quorum over TLS; without, it is open.
 * {@code --door} names the doors; without it any member may register as one (warned at start).
 */
@Command(name = "zk", mixinStandardHelpOptions = true,
        description = "Run one ZooKeeper server: alone (development), or member --id of the ensemble --ensemble. "
                + "Secured (TLS, certificates, ACLs) with --host-cert/--host-key/--ca-dir/--admin.")
final class ZkCommand implements Callable<Integer> {
    /** Not a constant: the command line is built, and a bad configuration refused, before the log is set up (LogSetup). */
    private static Logger log() {
        return LoggerFactory.getLogger(ZkCommand.class);
    }
    /** How long a member of a secured ensemble waits for the quorum before it gives up securing the tree. */
    private static final Duration QUORUM_WAIT = Duration.ofMinutes(5);
    /** How long a member may take to load its database and open its ports before the process gives up. */
    private static final Duration MEMBER_START = Duration.ofMinutes(2);

    @Mixin
    CommonOptions common;
    @Mixin
    JmxOptions jmx;

    @Option(names = "--home", paramLabel = "DIR", defaultValue = StandaloneCommand.DEFAULT_HOME,
            description = "Data directory (ZooKeeper data under <home>/zookeeper, mode 0700; default: ${DEFAULT-VALUE}).")
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

    @Option(names = "--host-cert", paramLabel = "FILE",
            description = "Secure the server: its host certificate, PEM, for clients and the quorum (default with any TLS option: /etc/grid-security/hostcert.pem).")
    Path hostCert;

    @Option(names = "--host-key", paramLabel = "FILE", description = "Its key, unencrypted PEM (default: /etc/grid-security/hostkey.pem).")
    Path hostKey;

    @Option(names = "--ca-dir", paramLabel = "DIR",
            description = "Trusted CAs and their CRLs, OpenSSL hashed layout (default: /etc/grid-security/certificates).")
    Path caDir;

    @Option(names = "--admin", paramLabel = "DN",
            description = "DN of an admin (repeat for each): only admins write /origins and /config. Grid form (/DC=org/CN=Alice) or RFC 2253.")
    List<String> admins = new ArrayList<>();

    @Option(names = "--member", paramLabel = "DN",
            description = "DN of a door's or pool's host certificate (repeat for each): only these read the tree and register. "
                    + "Default: any host certificate the CAs issued.")
    List<String> members = new ArrayList<>();

    @Option(names = "--door", paramLabel = "DN",
            description = "DN of a door's host certificate (repeat for each): only these register in /doors and so publish the keys "
                    + "pools accept tickets from. Default (loudly warned): every member may. Grid form or RFC 2253.")
    List<String> doors = new ArrayList<>();

    @Override
    public Integer call() throws Exception {
        Lifecycle life = new Lifecycle();
        try {
            life.add(jmx.start());
            ZkServerTls tls = secured() ? serverTls(life) : null;
            if (tls == null) {
                warnOpen();
            }
            if (ensemble != null) {
                startMember(life, tls);
            } else {
                EmbeddedZooKeeper zk = life.add(PortInUse.listening("ZooKeeper", "--port", bind, port,
                        () -> EmbeddedZooKeeper.start(home.resolve("zookeeper"), bind, port, tls)));
                if (tls != null) {
                    secureTree(clientHost(bind) + ":" + zk.port(), Duration.ofSeconds(30), zk.dataWasReachable());
                }
                log().info("ZooKeeper serving on {}:{}{}", bind, zk.port(), tls == null ? "" : " (TLS)");
                System.out.println("gridcache zk is up on " + bind + ":" + zk.port() + (tls == null ? "" : " (TLS)"));
            }
        } catch (Exception e) {
            life.closeAll();
            throw e;
        }
        life.runUntilStopped();
        return 0;
    }

    private void startMember(Lifecycle life, ZkServerTls tls) throws Exception {
        if (id == null) {
            throw new IllegalArgumentException("--ensemble needs --id N: which member this server is");
        }
        List<QuorumMember.Member> all = QuorumMember.Member.parseAll(ensemble);
        QuorumMember member = life.add(QuorumMember.start(home.resolve("zookeeper"), id, all, bind, tls));
        member.awaitRunning(MEMBER_START);
        exitWhenStopped(member);
        QuorumMember.Member me = all.get(id - 1);
        if (tls != null) {
            secureTree(me.host() + ":" + me.clientPort(), QUORUM_WAIT, member.dataWasReachable());
        }
        System.out.println("gridcache zk member " + id + " of " + all.size() + " is up on " + bind + ":" + me.clientPort()
                + (tls == null ? "" : " (TLS)") + " (clients: --zk " + QuorumMember.connectString(all) + (tls == null ? "" : " --zk-tls") + ")");
        log().info("ZooKeeper member {} state {}", id, member.state());
    }

    /**
     * A member that stops of itself (a fatal ZooKeeper error) ends the process with status 1, so that the service
     * manager restarts it instead of keeping a process that looks alive with its ports closed.
     */
    private void exitWhenStopped(QuorumMember member) {
        Thread watch = new Thread(() -> {
            try {
                if (member.awaitUnexpectedStop()) {
                    log().error("{}: exiting", member.stopped().getMessage());
                    System.exit(1);
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }, "zk-member-watch");
        watch.setDaemon(true);
        watch.start();
    }

    private boolean secured() {
        return hostCert != null || hostKey != null || caDir != null || !admins.isEmpty() || !members.isEmpty() || !doors.isEmpty();
    }

    private ZkServerTls serverTls(Lifecycle life) throws java.io.IOException {
        if (admins.isEmpty()) {
            log().warn("no --admin given: nobody can change /origins or /config");
        }
        var host = GridCredentials.load(or(hostCert, SecurityOptions.GRID_SECURITY.resolve("hostcert.pem")),
                or(hostKey, SecurityOptions.GRID_SECURITY.resolve("hostkey.pem")));
        GridTrust trust = life.add(GridTrust.load(caDirectory(), null, GridTrust.DEFAULT_REFRESH));
        ZkServerTls tls = new ZkServerTls(host, trust, admins, members, doors);
        log().info("ZooKeeper secured: TLS only, admins {}, members {}, doors {}", admins,
                members.isEmpty() ? "any host certificate the CAs issued" : members, doors.isEmpty() ? "every member" : doors);
        if (doors.isEmpty()) {
            warnAnyDoor();
        }
        return tls;
    }

    /**
     * Creates the secured skeleton as this server's host DN, once the server (or the quorum) answers;
     * {@code dataWasReachable}: whether this server's data directory was open to other local users before.
     */
    private void secureTree(String connect, Duration wait, boolean dataWasReachable) throws Exception {
        var host = GridCredentials.load(or(hostCert, SecurityOptions.GRID_SECURITY.resolve("hostcert.pem")),
                or(hostKey, SecurityOptions.GRID_SECURITY.resolve("hostkey.pem")));
        try (ZkClientTls tls = ZkClientTls.of(host, caDirectory());
                CuratorFramework client = Zk.connect(connect, Zk.DEFAULT_SESSION_TIMEOUT, wait, tls)) {
            SecuredTree.ensure(client, dataWasReachable);
        }
    }

    private static String clientHost(String bind) throws java.net.UnknownHostException {
        return bind.equals("0.0.0.0") || bind.equals("::") ? InetAddress.getLocalHost().getCanonicalHostName() : bind;
    }

    private Path caDirectory() {
        return or(caDir, SecurityOptions.GRID_SECURITY.resolve("certificates"));
    }

    private static Path or(Path given, Path fallback) {
        return given != null ? given : fallback;
    }

    private static void warnAnyDoor() {
        String warning = "WARNING: no --door given: any cluster member may register as a door and sign tickets every pool accepts: "
                + "give --door DNs (the doors' host certificates).";
        log().warn(warning);
        System.err.println("gridcache zk: " + warning);
    }

    private static void warnOpen() {
        String warning = "WARNING: this ZooKeeper is OPEN: no TLS, no authentication, no ACLs. Whoever reaches its port can "
                + "rewrite the mount table (file:// or internal hosts), register a rogue pool or change any setting. "
                + "Secure it with --host-cert, --host-key, --ca-dir and --admin DN (and --zk-tls on every door, pool and admin command).";
        log().warn(warning);
        System.err.println("gridcache zk: " + warning);
    }
}
