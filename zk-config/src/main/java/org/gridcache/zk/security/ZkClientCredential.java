package org.gridcache.zk.security;

import org.apache.curator.framework.CuratorFrameworkFactory;

/**
 * How a client proves itself to ZooKeeper, and the ACLs of what it creates: a certificate over TLS for a secured
 * cluster ({@link ZkClientTls}), or a standalone's secret ({@link ZkDigestSecret}).
 */
public interface ZkClientCredential {
    /** Sets the client's authentication and ACL provider on {@code builder}. */
    void configure(CuratorFrameworkFactory.Builder builder);

    /** How the connection is made, for a message: " over TLS". */
    String describe();
}
