package org.gridcache.zk.security;

import java.util.List;
import org.apache.curator.framework.CuratorFramework;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.data.ACL;
import org.gridcache.zk.layout.ZkLayout;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The skeleton of a secured cluster, created by the ZooKeeper server itself before anyone else can claim it (its
 * client proves itself an admin with the process's secret, {@link ZkServerTls#isTreeToken}): {@code /} and the chroot
 * locked to admins (members read), the registries {@code /pools} (members register) and {@code /doors} (doors
 * register), {@code /secrets} (doors only), and the ACLs of {@link ZkAcls} on {@code /origins} and {@code /config}
 * and their entries, so a cluster that ran open is closed when it is restarted with TLS. Idempotent: every member of
 * an ensemble runs it at start.
 */
public final class SecuredTree {
    private static final Logger LOG = LoggerFactory.getLogger(SecuredTree.class);

    private SecuredTree() {
    }

    /**
     * {@code client}: connected over TLS with the server's host credential, in the gridcache namespace, to the secured
     * server of this process (the one whose secret it presents); {@code dataWasReachable}: whether the server's data
     * directory was open to other local users before this start ({@link org.gridcache.zk.ZkDataDirectory}).
     */
    public static void ensure(CuratorFramework client, boolean dataWasReachable) throws Exception {
        // ZooKeeper's client sends the auth packet before any later request and again after a reconnection
        client.getZookeeperClient().getZooKeeper().addAuthInfo(ZkAcls.SCHEME, ZkServerTls.current().treeToken());
        CuratorFramework root = client.usingNamespace(null);
        root.setACL().withACL(ZkAcls.shared()).forPath("/");
        ensure(root, "/" + ZkLayout.DEFAULT_NAMESPACE, ZkAcls.shared());
        ensure(client, ZkLayout.POOLS, ZkAcls.registry());
        ensure(client, ZkLayout.DOORS, ZkAcls.doorRegistry());
        ensure(client, ZkLayout.WRITES, ZkAcls.doorRegistry());
        ensure(client, ZkLayout.ORIGINS, ZkAcls.shared());
        ensure(client, ZkLayout.LOCKS, ZkAcls.lockTable());
        ensure(client, ZkLayout.PROPS, ZkAcls.doorsOnly());
        ensure(client, ZkLayout.SECRETS, ZkAcls.secrets());
        if (client.checkExists().forPath(ZkLayout.MACAROON_SECRET) != null
                && (dataWasReachable || !client.getACL().forPath(ZkLayout.MACAROON_SECRET).equals(ZkAcls.secret()))) {
            // made while the cluster ran open, or kept in a log others could read: the first door makes a new one
            try {
                client.delete().forPath(ZkLayout.MACAROON_SECRET);
                LOG.warn("deleted the macaroon root keys: made while ZooKeeper was open, or kept in data files other local users "
                        + "could read (an earlier version's); macaroons issued before are void");
            } catch (KeeperException.NoNodeException e) {
                // another member of the ensemble deleted them first
            }
        }
        for (String child : client.getChildren().forPath(ZkLayout.ORIGINS)) {
            client.setACL().withACL(ZkAcls.shared()).forPath(ZkLayout.origin(child));
        }
        if (client.checkExists().forPath(ZkLayout.CONFIG) != null) {
            client.setACL().withACL(ZkAcls.shared()).forPath(ZkLayout.CONFIG);
        }
        LOG.info("ZooKeeper tree secured: admins write /origins and /config, members read and register in /pools, doors register in /doors and /writes and share /locks, doors keep /props and read /secrets");
    }

    private static void ensure(CuratorFramework client, String path, List<ACL> acl) throws Exception {
        try {
            client.create().withACL(acl).forPath(path, new byte[0]);
        } catch (KeeperException.NodeExistsException e) {
            client.setACL().withACL(acl).forPath(path);
        }
    }
}
