package org.gridcache.cli;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Optional;
import java.util.concurrent.Callable;
import org.apache.curator.framework.CuratorFramework;
import org.apache.zookeeper.KeeperException;
import org.gridcache.common.security.GridCredentials;
import org.gridcache.zk.layout.ZkLayout;
import org.gridcache.zk.security.ZkClientTls;
import org.gridcache.zk.security.ZkDigestSecret;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** An admin command that does one thing in ZooKeeper: connects, runs, disconnects. */
abstract class ZkAdminCommand implements Callable<Integer> {
    @Mixin
    CommonOptions common;
    @Mixin
    ZkOptions zk;

    @Option(names = "--cert", paramLabel = "FILE",
            description = "With --zk-tls: the admin's certificate, or a proxy file holding certificate, key and chain "
                    + "(default: $X509_USER_PROXY). A proxy acts as its end-entity DN, which gridcache zk --admin must name.")
    Path cert;

    @Option(names = "--key", paramLabel = "FILE", description = "With --zk-tls: the key of --cert, unencrypted PEM (default: in the --cert file).")
    Path key;

    @Option(names = "--ca-dir", paramLabel = "DIR",
            description = "With --zk-tls: trusted CAs, OpenSSL hashed layout (default: $X509_CERT_DIR, else /etc/grid-security/certificates).")
    Path caDir;

    @Option(names = "--home", paramLabel = "DIR", defaultValue = StandaloneCommand.DEFAULT_HOME,
            description = "A standalone's home: its ZooKeeper admits only clients presenting <home>/keys/zookeeper.secret, which "
                    + "this command does when the file exists (default: ${DEFAULT-VALUE}, as for standalone).")
    Path home;

    /** Checks done before connecting, so that a bad argument is refused at once with its reason. */
    void validate() {
    }

    abstract int run(CuratorFramework client) throws Exception;

    @Override
    public final Integer call() throws Exception {
        validate();
        zk.requireListening();
        try (ZkClientTls tls = zk.tls(this::credential); CuratorFramework client = tls != null ? zk.open(tls) : openPlain()) {
            try {
                if (tls == null) { // a closed standalone refuses here, before Curator would log its own stack trace
                    client.usingNamespace(null).checkExists().forPath("/" + ZkLayout.DEFAULT_NAMESPACE);
                }
                return run(client);
            } catch (KeeperException.NoAuthException e) {
                throw new IllegalStateException("not allowed: ZooKeeper refused " + (tls == null ? "this client" : tls.ownDn())
                        + " access to " + e.getPath() + (tls == null
                                ? " (a standalone's ZooKeeper admits only holders of its <home>/keys/zookeeper.secret: give its --home, "
                                        + "or run this from the directory holding " + StandaloneCommand.DEFAULT_HOME + ")"
                                : " (only the DNs given to gridcache zk --admin write /origins and /config)"));
            }
        }
    }

    /**
     * Without TLS: with the secret of the standalone whose home is {@code --home} when there is one and that
     * standalone's ZooKeeper is the one reached; else as an anonymous client of an open ZooKeeper.
     */
    private CuratorFramework openPlain() throws Exception {
        Optional<ZkDigestSecret> secret = ZkDigestSecret.loadIfPresent(ZkDigestSecret.file(home));
        if (secret.isEmpty()) {
            return zk.open(null);
        }
        CuratorFramework client = zk.open(secret.get());
        if (secret.get().locks(client)) {
            return client;
        }
        client.close(); // another ZooKeeper: what this command creates must not carry the standalone's ACL there
        return zk.open(null);
    }

    private ZkClientTls credential() throws IOException {
        Path certFile = cert;
        if (certFile == null) {
            String proxy = System.getenv("X509_USER_PROXY");
            if (proxy == null || proxy.isBlank()) {
                throw new IllegalArgumentException("--zk-tls needs --cert (and --key), or a proxy in $X509_USER_PROXY");
            }
            certFile = Path.of(proxy);
        }
        var credential = key == null || key.equals(certFile) ? GridCredentials.loadProxy(certFile) : GridCredentials.load(certFile, key);
        Path cas = caDir;
        if (cas == null) {
            String env = System.getenv("X509_CERT_DIR");
            cas = env != null && !env.isBlank() ? Path.of(env) : SecurityOptions.GRID_SECURITY.resolve("certificates");
        }
        return ZkClientTls.of(credential, cas);
    }
}
