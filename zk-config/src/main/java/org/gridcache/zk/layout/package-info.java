/**
 * The bottom of zk-config: the paths of the cluster's tree (ARCHITECTURE.md, "ZooKeeper layout"), which the security
 * package's ACLs and every client name. Packages above: {@code security}, then the client and records
 * ({@code org.gridcache.zk}), then {@code lock} and {@code props} (ZkShapeTest).
 */
package org.gridcache.zk.layout;
