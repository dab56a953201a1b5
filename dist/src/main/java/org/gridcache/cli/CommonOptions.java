package org.gridcache.cli;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.file.Path;
import java.time.Duration;
import org.apache.curator.framework.CuratorFramework;
import org.gridcache.common.settings.ClusterSettings;
import org.gridcache.zk.Zk;
import org.gridcache.zk.security.ZkClientCredential;
import org.gridcache.zk.security.ZkClientTls;
import picocli.CommandLine.Option;

/** Options every command accepts. */
final class CommonOptions {
    @Option(names = "--config", paramLabel = "FILE",
            description = "Properties file: every option is also a key there (e.g. port=2880, or pool.port=20000); the "
                    + "command line wins. A key no option reads, or a bad value, stops the command. Default: the packaged "
                    + "command reads /etc/gridcache/<command>.conf when present; see gridcache check-config.")
    Path config;

    @Option(names = "--log-dir", paramLabel = "DIR", description = "Where the log file goes (standalone, zk: <home>/logs; door, pool: <dist>/logs).")
    Path logDir;
}

/** The ZooKeeper ensemble to use. */
final class ZkOptions {
    @Option(names = "--zk", paramLabel = "HOST:PORT[,…]", defaultValue = "127.0.0.1:2181",
            description = "ZooKeeper connect string (default: ${DEFAULT-VALUE}).")
    String connect;

    @Option(names = "--zk-session-timeout", paramLabel = "DURATION", defaultValue = "15s",
            description = "ZooKeeper session timeout: how soon the cluster forgets this node after it dies (default: ${DEFAULT-VALUE}; "
                    + "the ensemble allows 2s-20s).")
    String sessionTimeout;

    @Option(names = "--zk-tls",
            description = "Connect to ZooKeeper over TLS, presenting this node's certificate (door, pool: --host-cert/--host-key; "
                    + "origins, config: --cert/--key) and checking the servers' against --ca-dir (see gridcache zk --admin).")
    boolean tls;

    /** The TLS material of this client, or null without {@code --zk-tls}. */
    ZkClientTls tls(Credential credential) throws IOException {
        return tls ? credential.get() : null;
    }

    /** {@code credential}: from {@link #tls(Credential)} (the caller closes it after the client), a secret, or null. */
    CuratorFramework open(ZkClientCredential credential) throws Zk.ZkUnavailableException {
        try {
            return Zk.connect(connect, ClusterSettings.parseDuration(sessionTimeout), Duration.ofSeconds(20), credential);
        } catch (Zk.ZkUnavailableException e) {
            String listening = tls ? null : listening(connect);
            if (listening == null) {
                throw e;
            }
            // a TLS ensemble takes the connection and drops it at the first plain byte: ZooKeeper's client only retries
            throw new Zk.ZkUnavailableException(e.getMessage() + ": " + listening + " accepts connections but does not "
                    + "answer as ZooKeeper; if the ensemble speaks TLS, add --zk-tls");
        }
    }

    /**
     * Fails at once when no server of the connect string accepts a connection: a one-shot admin command then has
     * nothing to wait for, where a door or a pool starting beside its ensemble waits for it to come up.
     */
    void requireListening() throws Zk.ZkUnavailableException {
        if (listening(connect) == null) {
            throw new Zk.ZkUnavailableException("cannot reach ZooKeeper at " + connect + ": no server accepts connections"
                    + " (is the ensemble running? give its servers with --zk)");
        }
    }

    /** The first server of {@code connectString} that accepts a TCP connection within a second, or null. */
    static String listening(String connectString) {
        int chroot = connectString.indexOf('/');
        for (String server : (chroot < 0 ? connectString : connectString.substring(0, chroot)).split(",")) {
            int colon = server.lastIndexOf(':');
            String host = colon < 0 ? server : server.substring(0, colon);
            try (Socket socket = new Socket()) {
                socket.connect(new InetSocketAddress(host.replace("[", "").replace("]", ""),
                        colon < 0 ? 2181 : Integer.parseInt(server.substring(colon + 1))), 1000);
                return server.strip();
            } catch (IOException | IllegalArgumentException e) {
                // not this one
            }
        }
        return null;
    }

    /** Where a command's ZooKeeper credential comes from, read only with {@code --zk-tls}. */
    @FunctionalInterface
    interface Credential {
        ZkClientTls get() throws IOException;
    }
}
