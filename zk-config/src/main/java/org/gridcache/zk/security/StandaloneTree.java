package org.gridcache.zk.security;

import java.util.List;
import org.apache.curator.framework.CuratorFramework;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.ZooDefs;
import org.apache.zookeeper.data.ACL;
import org.gridcache.zk.layout.ZkLayout;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Closes a standalone's embedded ZooKeeper to every client without its secret ({@link ZkDigestSecret}): the ACL of
 * the secret on {@code /}, on ZooKeeper's own {@code /zookeeper} nodes (a quota written there would limit the cluster)
 * and on every znode of the gridcache tree, at every start, so a home an earlier version left open (ACL
 * {@code world:anyone}) is closed too. Macaroon root keys that others may have read — an open ACL, or a data directory
 * other local users could reach ({@link org.gridcache.zk.ZkDataDirectory}) — are deleted: the door makes new ones,
 * and macaroons made with the old ones are void. The secured ensemble does the same with its ACLs ({@link SecuredTree}).
 */
public final class StandaloneTree {
    private static final Logger LOG = LoggerFactory.getLogger(StandaloneTree.class);

    private StandaloneTree() {
    }

    /**
     * {@code client}: connected with {@code secret}, in the gridcache namespace, to the standalone's own server;
     * {@code dataWasReachable}: whether the server's data directory was open to other local users before this start.
     */
    public static void ensure(CuratorFramework client, ZkDigestSecret secret, boolean dataWasReachable) throws Exception {
        List<ACL> acl = secret.acl();
        CuratorFramework root = client.usingNamespace(null);
        String chroot = "/" + ZkLayout.DEFAULT_NAMESPACE;
        if (client.checkExists().forPath(ZkLayout.MACAROON_SECRET) != null
                && (dataWasReachable || !client.getACL().forPath(ZkLayout.MACAROON_SECRET).equals(acl))) {
            client.delete().forPath(ZkLayout.MACAROON_SECRET);
            LOG.warn("deleted the macaroon root keys: other local users could read them (open ZooKeeper ACLs or data files of an "
                    + "earlier version); a TLS door makes new ones, and macaroons issued before are void");
        }
        close(root, "/", acl);
        for (String child : root.getChildren().forPath("/zookeeper")) {
            String path = "/zookeeper/" + child;
            if (!path.equals(ZooDefs.CONFIG_NODE)) { // ZooKeeper's, read-only for all (a single server's is empty)
                close(root, path, acl);
            }
        }
        close(root, "/zookeeper", acl);
        if (root.checkExists().forPath(chroot) == null) {
            root.create().forPath(chroot, new byte[0]);
        }
        closeTree(root, chroot, acl);
        LOG.info("ZooKeeper closed to clients without <home>/keys/zookeeper.secret");
    }

    private static void closeTree(CuratorFramework root, String path, List<ACL> acl) throws Exception {
        try {
            close(root, path, acl);
            for (String child : root.getChildren().forPath(path)) {
                closeTree(root, path + "/" + child, acl);
            }
        } catch (KeeperException.NoNodeException e) {
            // an ephemeral record of the process before, whose session has just expired: gone, nothing to close
        }
    }

    /** Sets the ACL unless the node has it already (a read costs no transaction, a write one fsync). */
    private static void close(CuratorFramework root, String path, List<ACL> acl) throws Exception {
        if (!root.getACL().forPath(path).equals(acl)) {
            root.setACL().withACL(acl).forPath(path);
        }
    }
}
