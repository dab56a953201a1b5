package org.gridcache.zk;

import java.io.Closeable;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import org.apache.zookeeper.server.quorum.QuorumPeer;
import org.apache.zookeeper.server.quorum.QuorumPeerConfig;
import org.apache.zookeeper.server.quorum.QuorumPeerMain;
import org.slf4j.Logger;
import org.gridcache.zk.security.ZkServerTls;
import org.slf4j.LoggerFactory;

/**
 * One server of a real ZooKeeper ensemble in this JVM: ZooKeeper's own {@link QuorumPeerMain}, configured as
 * {@code zoo.cfg} would configure it ({@code server.N=host:peerPort:electionPort}, {@code myid} in the data
 * directory). Three of these, on three hosts or on loopback ports, are an ensemble that survives the loss of any
 * one. The {@code srvr}, {@code ruok} and {@code mntr} four-letter words are on, so operators (and tests) can ask
 * who leads.
 */
public final class QuorumMember implements Closeable {
    private static final Logger LOG = LoggerFactory.getLogger(QuorumMember.class);
    /** Sessions may last from 2 to 20 ticks: 2 s to 20 s. */
    private static final int TICK_MS = 1000;

    /** One server of the ensemble, as written on the command line: {@code host:clientPort:peerPort:electionPort}. */
    public record Member(String host, int clientPort, int peerPort, int electionPort) {
        public static Member parse(String spec) {
            String[] parts = spec.trim().split(":");
            if (parts.length != 4) {
                throw new IllegalArgumentException("ensemble member '" + spec + "' is not host:clientPort:peerPort:electionPort");
            }
            try {
                return new Member(parts[0], Integer.parseInt(parts[1]), Integer.parseInt(parts[2]), Integer.parseInt(parts[3]));
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("ensemble member '" + spec + "' has a port that is not a number");
            }
        }

        public static List<Member> parseAll(String specs) {
            List<Member> out = new ArrayList<>();
            for (String s : specs.split(",")) {
                if (!s.isBlank()) {
                    out.add(parse(s));
                }
            }
            if (out.size() < 3) {
                throw new IllegalArgumentException("an ensemble needs at least three members (got " + out.size() + ")");
            }
            return out;
        }
    }

    private final int id;
    private final QuorumPeerConfig config;
    private final Main main;
    private final Thread thread;
    /** Why the member stopped of itself (its ports taken, its database unreadable), or null. */
    private volatile Exception failure;
    private volatile boolean closing;

    private final boolean dataWasReachable;

    private QuorumMember(int id, QuorumPeerConfig config, boolean dataWasReachable) {
        this.id = id;
        this.config = config;
        this.dataWasReachable = dataWasReachable;
        this.main = new Main();
        this.thread = new Thread(this::run, "zk-quorum-" + id);
    }

    /** Exposes the running peer, which {@link QuorumPeerMain} keeps protected. */
    private static final class Main extends QuorumPeerMain {
        QuorumPeer peer() {
            return quorumPeer;
        }
    }

    /**
     * Starts member {@code id} (1-based position in {@code members}); its clients connect on {@code bind} at the
     * member's client port. Returns at once: the member serves once a quorum has elected a leader.
     */
    public static QuorumMember start(Path dataDir, int id, List<Member> members, String bind) throws IOException {
        return start(dataDir, id, members, bind, null);
    }

    /**
     * With {@code tls} (null: plain), clients are served on the member's client port over TLS only, authenticated
     * by certificate ({@link ZkServerTls}), and the members talk to each other over TLS with their host certificates.
     * {@code dataDir} is made private first ({@link ZkDataDirectory}).
     */
    public static QuorumMember start(Path dataDir, int id, List<Member> members, String bind, ZkServerTls tls) throws IOException {
        if (id < 1 || id > members.size()) {
            throw new IllegalArgumentException("--id must be between 1 and " + members.size() + " (the member's place in --ensemble)");
        }
        boolean reachable = ZkDataDirectory.makePrivate(dataDir);
        Files.writeString(dataDir.resolve("myid"), id + "\n", StandardCharsets.US_ASCII);
        Member me = members.get(id - 1);
        Properties p = new Properties();
        p.setProperty("tickTime", String.valueOf(TICK_MS));
        p.setProperty("initLimit", "10");
        p.setProperty("syncLimit", "5");
        p.setProperty("dataDir", dataDir.toAbsolutePath().toString());
        if (tls == null) {
            p.setProperty("clientPort", String.valueOf(me.clientPort()));
            p.setProperty("clientPortAddress", bind);
        } else {
            tls.install();
            p.setProperty("secureClientPort", String.valueOf(me.clientPort()));
            p.setProperty("secureClientPortAddress", bind);
            p.setProperty("sslQuorum", "true");
        }
        p.setProperty("4lw.commands.whitelist", "srvr,ruok,mntr");
        p.setProperty("autopurge.purgeInterval", "24");
        for (int i = 0; i < members.size(); i++) {
            Member m = members.get(i);
            p.setProperty("server." + (i + 1), m.host() + ":" + m.peerPort() + ":" + m.electionPort());
        }
        System.setProperty("zookeeper.admin.enableServer", "false"); // its HTTP admin server would need another Jetty
        QuorumPeerConfig config = new QuorumPeerConfig();
        try {
            config.parseProperties(p);
        } catch (QuorumPeerConfig.ConfigException e) {
            throw new IllegalArgumentException("bad ensemble configuration: " + e.getMessage(), e);
        }
        QuorumMember member = new QuorumMember(id, config, reachable);
        member.thread.start();
        LOG.info("ZooKeeper member {} of {} starting: clients on {}:{}{}, peers on {}, elections on {}", id, members.size(), bind,
                me.clientPort(), tls == null ? "" : " (TLS only; quorum over TLS)", me.peerPort(), me.electionPort());
        return member;
    }

    private void run() {
        try {
            main.runFromConfig(config); // returns when the peer stops
        } catch (Exception e) {
            failure = e;
            LOG.error("ZooKeeper member {} stopped: {}", id, e.toString(), e);
        }
    }

    /**
     * Waits until the member serves its client port (its database loaded, its peer running; a quorum may still be
     * forming), so that "up" means up: a member whose port is taken or whose database cannot be read fails here with
     * ZooKeeper's reason instead of running on without a port.
     */
    public void awaitRunning(Duration timeout) throws IOException, InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (true) {
            QuorumPeer peer = main.peer(); // ZooKeeper's plain field, read again after each wait below
            if (peer != null && peer.isAlive()) {
                return;
            }
            if (!thread.isAlive()) {
                throw stopped();
            }
            if (System.nanoTime() > deadline) {
                throw new IOException("ZooKeeper member " + id + " did not start within " + timeout.toSeconds() + " s");
            }
            thread.join(50);
        }
    }

    /**
     * Blocks until the member stops and says whether it stopped of itself (not by {@link #close}): a member that
     * stops under a running process would leave its port closed while the process looks alive.
     */
    public boolean awaitUnexpectedStop() throws InterruptedException {
        thread.join();
        return !closing;
    }

    /** Why the member stopped, for the operator. */
    public IOException stopped() {
        Exception cause = failure;
        return new IOException("ZooKeeper member " + id + " stopped: " + (cause == null ? "its peer ended" : cause.toString()), cause);
    }

    /** As {@link EmbeddedZooKeeper#dataWasReachable()}, for this member's data directory. */
    public boolean dataWasReachable() {
        return dataWasReachable;
    }

    /** The connect string of the whole ensemble, for {@code --zk}. */
    public static String connectString(List<Member> members) {
        return String.join(",", members.stream().map(m -> m.host() + ":" + m.clientPort()).toList());
    }

    /** "leading", "following", "looking", or "starting" before the peer exists. */
    public String state() {
        QuorumPeer peer = main.peer();
        return peer == null ? "starting" : peer.getServerState();
    }

    @Override
    public void close() {
        closing = true;
        main.close();
    }
}
